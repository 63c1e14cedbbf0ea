// context.waitForEvent and notify (issue 10). A wait is stored on its run (a `runChange` op);
// a notify, a lookback found when the run starts waiting, or the deadline passing ends it with a
// server-made step published into the run like any step result (run-publish.ts re-applies the
// trigger's settings to it), whose `put` removes the waiter in the same write. A timed-out wait
// and a notify racing it both publish the same step id: the second is deduplicated.
// Deadlines are kept by one timer for the earliest, re-armed at start and on every change (on
// engine postgres, also when another process's ops arrive; the timeout then races between
// processes like a notify, and the step's deduplication keeps one).
// Not safe for concurrent use; the service's JS thread owns it.

import type { Published, QueueEngine } from '../engine.js';
import { badRequest, durationAboveLimit, isError, workflowRunNotActive, type QueueError } from '../errors.js';
import { duration, LONGEST_TIMER_MS, showDuration, TOO_LONG } from '../options/duration.js';
import { STORE_RETRY_MS } from '../store/queue-store.js';
import { publishServerStep, type ServerStepSettings } from './run-publish.js';
import type { RunRecord, Waiter } from './run.js';

/** A wait as GET /v2/waiters and notify answers show it (deadline in unix seconds). */
export interface WaiterJson {
  url: string;
  headers: Record<string, string[]>;
  deadline: number;
  timeoutUrl?: string;
  timeoutHeaders?: Record<string, string[]>;
}

export interface NotifyResult {
  waiter: WaiterJson;
  messageId: string;
}

/** A wait's timeout when it names none (7 days), or queue.maxDelayMs when that is shorter. */
const DEFAULT_WAIT_MS = 7 * 86_400_000;

export class Waits {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly engine: QueueEngine,
    private readonly s: ServerStepSettings,
  ) {}

  private get runs() {
    return this.engine.store.runs;
  }

  /** Arms the deadline timer for the waits the store holds (after a restart). */
  start(): void {
    this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }

  /** POST /v2/wait/{eventId}: the run waits, unless a notification for it is already kept. */
  wait(runId: string, eventId: string, body: { timeout?: unknown; timeoutUrl?: unknown; timeoutHeaders?: unknown; step?: unknown }): QueueError | null {
    // The timeout is read first: a wait no run could keep is refused as such.
    const timeout = typeof body.timeout === 'string' ? body.timeout : typeof body.timeout === 'number' ? `${body.timeout}s` : showDuration(Math.min(DEFAULT_WAIT_MS, this.s.maxDelayMs));
    const ms = duration(timeout, this.s.maxDelayMs);
    if (ms === TOO_LONG) return durationAboveLimit('timeout', timeout, this.s.maxDelayMs);
    if (ms === undefined) return badRequest(`invalid timeout: '${timeout}'`);
    const run = this.runs.active(runId);
    if (run === undefined) return workflowRunNotActive(runId);
    if (typeof body.step !== 'object' || body.step === null) return badRequest('wait needs a step');
    const waiter: Waiter = { eventId, deadline: this.s.now() + ms, timeout, step: body.step as Record<string, unknown> };
    if (typeof body.timeoutUrl === 'string') waiter.timeoutUrl = body.timeoutUrl;
    if (typeof body.timeoutHeaders === 'object' && body.timeoutHeaders !== null) waiter.timeoutHeaders = body.timeoutHeaders as Record<string, string[]>;
    const kept = run.lookbacks?.[eventId];
    if (kept !== undefined) {
      const out = this.resume(run, waiter, kept);
      return isError(out) ? out : null;
    }
    this.engine.store.changeRun({ kind: 'wait', runId, waiter });
    this.arm();
    return null;
  }

  /** POST /v2/notify/{eventId}: every run waiting for the event goes on with `data`. */
  notify(eventId: string, data: Buffer): NotifyResult[] {
    const out: NotifyResult[] = [];
    for (const run of [...this.runs.all()]) {
      if (run.state !== 'RUN_STARTED') continue;
      for (const w of run.waiters?.filter((x) => x.eventId === eventId) ?? []) {
        const p = this.resume(run, w, data.toString('base64'));
        if (!isError(p)) out.push({ waiter: waiterJson(run, w), messageId: p.messageId });
      }
    }
    return out;
  }

  /** POST /v2/notify/{runId}/{eventId}: that run goes on if it waits; else the data is kept for its wait. */
  notifyRun(runId: string, eventId: string, data: Buffer): Record<string, unknown> | QueueError {
    const run = this.runs.active(runId);
    if (run === undefined) return workflowRunNotActive(runId);
    const w = run.waiters?.find((x) => x.eventId === eventId);
    const base = { workflowRunId: run.id, workflowCreatedAt: run.createdAt };
    if (w === undefined) {
      this.engine.store.changeRun({ kind: 'lookback', runId, eventId, data: data.toString('base64') });
      return base;
    }
    const p = this.resume(run, w, data.toString('base64'));
    if (isError(p)) return p;
    return { ...base, waiter: waiterJson(run, w), messageId: p.messageId, ...(p.deduplicated === true && { deduplicated: true }) };
  }

  /** GET /v2/waiters/{eventId} */
  waiters(eventId: string): WaiterJson[] {
    const out: WaiterJson[] = [];
    for (const run of this.runs.all()) {
      if (run.state !== 'RUN_STARTED') continue;
      for (const w of run.waiters ?? []) if (w.eventId === eventId) out.push(waiterJson(run, w));
    }
    return out;
  }

  /** Ends a wait with the step the library expects: notified (`data`, base64) or timed out. */
  private resume(run: RunRecord, w: Waiter, data?: string): Published | QueueError {
    const step = { ...w.step, waitEventId: w.eventId, timeout: w.timeout, ...(data === undefined ? { waitTimeout: true } : { out: data, waitTimeout: false }) };
    return publishServerStep(this.engine, this.s, run, step);
  }

  /** One timer, for the earliest deadline; on firing, every wait past its deadline times out. */
  arm(): void {
    if (this.closed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    // While the store cannot write, passed deadlines wait to be written.
    if (this.engine.store.writeFailure() !== null) return this.armAt(this.s.now() + STORE_RETRY_MS);
    const next = this.engine.store.unit(() => this.expire());
    if (next instanceof Promise) next.then((at) => this.armAt(at), () => this.armAt(this.s.now() + STORE_RETRY_MS));
    else this.armAt(next);
  }

  /** Every wait past its deadline times out; answers the next deadline. */
  private expire(): number {
    const now = this.s.now();
    let next = Infinity;
    for (const run of [...this.runs.all()]) {
      if (run.state !== 'RUN_STARTED') continue;
      for (const w of run.waiters ?? []) {
        if (w.deadline <= now) this.resume(run, w);
        else next = Math.min(next, w.deadline);
      }
    }
    return next;
  }

  private armAt(at: number): void {
    if (this.closed || at === Infinity) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.arm(), Math.min(LONGEST_TIMER_MS, Math.max(0, at - this.s.now())));
    this.timer.unref();
  }
}

function waiterJson(run: RunRecord, w: Waiter): WaiterJson {
  const out: WaiterJson = { url: run.url, headers: {}, deadline: Math.floor(w.deadline / 1000) };
  if (w.timeoutUrl !== undefined) out.timeoutUrl = w.timeoutUrl;
  if (w.timeoutHeaders !== undefined) out.timeoutHeaders = w.timeoutHeaders;
  return out;
}

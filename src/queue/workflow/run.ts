// Workflow runs (issue 10), kept inside the queue store and built from the queue's own ops: a
// trigger message's `put` creates its run, a step message's `put` appends the step, a dead
// letter of a run message fails the run, and `runEnd` ends it. So "message accepted + step
// appended" is one write of the one log, and a run keeps everything its messages were stored with.
// Snapshots restate each run as a `run` op before the pending messages, whose `put`s then only
// re-link them to their run. Ended runs are kept (the newest MAX_ENDED_RUNS) so that a late
// publish into one still answers 400 and its logs stay readable. Runs change in place: while a
// snapshot's walk is taking them, each is handed to it before it changes (run-walk.ts).
// Not safe for concurrent use; the service's JS thread owns it.

import { randomBytes } from 'node:crypto';
import type { DeliveryResponse, DlqEntry, Invoker, QueueMessage } from '../store/message.js';
import { RunWalk } from './run-walk.js';

export type RunState = 'RUN_STARTED' | 'RUN_SUCCESS' | 'RUN_FAILED' | 'RUN_CANCELED';
export type CallbackState = 'CALLBACK_INPROGRESS' | 'CALLBACK_SUCCESS' | 'CALLBACK_FAIL';

/** One entry of the run's step array: the message that carried it and its body (base64). */
export interface RunStep {
  messageId: string;
  body: string;
  createdAt: number;
}

export interface RunFailure {
  /** The run message that failed for good. */
  messageId: string;
  dlqId: string;
  at: number;
  /** The last answer of the failed message. */
  response: DeliveryResponse;
  /** The failure callback message made of it, and how far it got. */
  callback?: { messageId: string; state: CallbackState };
}

export interface RunRecord {
  id: string;
  url: string;
  createdAt: number;
  triggerMessageId: string;
  /** The initial payload, base64. */
  initialBody: string;
  /** The trigger's raw Upstash-* headers, re-applied to every later message of the run. */
  settings: Record<string, string>;
  labels?: string[];
  /** The address the trigger was published from (the filters' callerIp). */
  callerIp?: string;
  state: RunState;
  steps: RunStep[];
  completedAt?: number;
  /** The text given when the run ended: the body of DELETE /v2/workflows/runs/{id}. */
  response?: string;
  failure?: RunFailure;
  /** The events the run waits for (context.waitForEvent). */
  waiters?: Waiter[];
  /** Notifications sent to this run before it waited for them (lookback), base64 by event id. */
  lookbacks?: Record<string, string>;
  /** The run that started this one with context.invoke. */
  invoker?: Invoker;
}

/** A run waiting for an event, until `deadline` (ms); `step` is the wait step the library sent. */
export interface Waiter {
  eventId: string;
  deadline: number;
  /** The timeout as the library gave it ("7d", "20s"), echoed in the step that ends the wait. */
  timeout: string;
  step: Record<string, unknown>;
  timeoutUrl?: string;
  timeoutHeaders?: Record<string, string[]>;
}

/** A change to a run that no message carries; `copy` is a new run made from a failed one (DLQ resume). */
export type RunChange =
  | { kind: 'wait'; runId: string; waiter: Waiter }
  | { kind: 'lookback'; runId: string; eventId: string; data: string }
  | { kind: 'copy'; run: RunRecord };

export interface RunEnd {
  runId: string;
  state: 'RUN_SUCCESS' | 'RUN_CANCELED';
  at: number;
  response?: string;
}

/** Ended runs kept for late publishes and logs; older ones are forgotten. */
const MAX_ENDED_RUNS = 10_000;
const DEDUP_PREFIX = 'workflow-run:';
const STEP_PREFIX = 'workflow-step:';

const FORWARD = 'upstash-forward-';
const PROTOCOL = 'upstash-workflow-';

/**
 * The user's headers the run's trigger forwarded (Upstash-Forward-*), by their own names. Not the
 * protocol's Upstash-Workflow-* ones the library forwards to itself: on a context.call callback,
 * Upstash-Workflow-Sdk-Version would make the library read the callback as a step array.
 */
export function forwardedHeaders(run: RunRecord | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(run?.settings ?? {})) {
    if (name.startsWith(FORWARD) && !name.startsWith(PROTOCOL, FORWARD.length)) out[name.slice(FORWARD.length)] = value;
  }
  return out;
}

export const newRunId = () => `wfr_${randomBytes(15).toString('base64url')}`;

/** The deduplication key of a trigger: a second trigger of the same run answers the first one. */
export const triggerKey = (runId: string) => `${DEDUP_PREFIX}${runId}`;

/**
 * The deduplication key of a step result (base64 `body`): its run, step id and, for a parallel
 * plan step, its target. A step published again (its endpoint ran twice: a redelivery, a crash)
 * answers the first one rather than running the rest of the workflow twice.
 */
export function stepKey(runId: string, body: string): string | undefined {
  try {
    return stepKeyOf(runId, JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

function stepKeyOf(runId: string, step: Record<string, unknown>): string | undefined {
  return typeof step.stepId === 'number' ? `${STEP_PREFIX}${runId}\n${step.stepId}:${typeof step.targetStep === 'number' ? step.targetStep : ''}` : undefined;
}

export class RunStore {
  private readonly runs = new Map<string, RunRecord>();
  /** The run of each pending run message. */
  private readonly owner = new Map<string, string>();
  /** The pending messages of each run. */
  private readonly pendingByRun = new Map<string, Set<string>>();
  /** Ended runs, oldest first. */
  private readonly ended: string[] = [];
  /** Called when a run ends (finished, cancelled or failed) once the store is open, not while it replays. */
  onEnd: ((run: RunRecord) => void) | null = null;
  /** The message of each step (by stepKey) of the active runs. */
  private readonly stepMessages = new Map<string, string>();
  /** The walk of the snapshot being written, if one is. */
  private walk: RunWalk | null = null;

  get(id: string): RunRecord | undefined {
    return this.runs.get(id);
  }

  /** Forgets every run (the store replays its shared log again). */
  clear(): void {
    for (const m of [this.runs, this.owner, this.pendingByRun, this.stepMessages]) m.clear();
    this.ended.length = 0;
  }

  /** Oldest first. */
  all(): IterableIterator<RunRecord> {
    return this.runs.values();
  }

  /**
   * Every run held now, oldest first, each encoded by `encode` as it is now even when it
   * changes before the walk reaches it; for a snapshot written in slices. One walk at a time:
   * a new one replaces the last, which its writer has dropped.
   */
  frozen(encode: (run: RunRecord) => Buffer): RunWalk {
    const walk = new RunWalk(this.runs.values(), encode, () => {
      if (this.walk === walk) this.walk = null;
    });
    this.walk = walk;
    return walk;
  }

  active(id: string): RunRecord | undefined {
    const run = this.runs.get(id);
    return run?.state === 'RUN_STARTED' ? run : undefined;
  }

  /** The run's messages waiting for delivery. */
  pendingOf(runId: string): string[] {
    return [...(this.pendingByRun.get(runId) ?? [])];
  }

  /** The trigger message of the run a `triggerKey` names, if that run exists. */
  duplicateOf(key: string): string | undefined {
    if (key.startsWith(STEP_PREFIX)) return this.stepMessages.get(key);
    return key.startsWith(DEDUP_PREFIX) ? this.runs.get(key.slice(DEDUP_PREFIX.length))?.triggerMessageId : undefined;
  }

  put(m: QueueMessage): void {
    const tag = m.workflow;
    if (tag === undefined) return;
    let run = this.runs.get(tag.runId);
    if (tag.kind === 'trigger' && run === undefined) {
      run = { id: tag.runId, url: m.url, createdAt: m.createdAt, triggerMessageId: m.id, initialBody: m.body, settings: tag.settings ?? {}, state: 'RUN_STARTED', steps: [] };
      if (m.labels !== undefined && m.labels.length > 0) run.labels = m.labels;
      if (m.callerIp !== '') run.callerIp = m.callerIp;
      if (tag.invoker !== undefined) run.invoker = tag.invoker;
      this.runs.set(run.id, run);
    }
    if (run === undefined) return;
    this.walk?.keep(run);
    // The endpoint's own trigger of a run started without the protocol replaces that first trigger.
    if (tag.kind === 'trigger' && tag.retrigger === true && run.state === 'RUN_STARTED' && run.steps.length === 0) {
      Object.assign(run, { triggerMessageId: m.id, initialBody: m.body, settings: tag.settings ?? {} });
    }
    if (tag.kind === 'step' && run.state === 'RUN_STARTED' && !run.steps.some((s) => s.messageId === m.id)) {
      run.steps.push({ messageId: m.id, body: m.body, createdAt: m.createdAt });
      this.remember(run.id, m.id, m.body);
      this.waitEnded(run, m.body);
    }
    // A failure callback made again (DLQ callback retry) starts over.
    if (tag.kind === 'failure' && run.failure !== undefined) run.failure.callback = { messageId: m.id, state: 'CALLBACK_INPROGRESS' };
    this.owner.set(m.id, run.id);
    let pending = this.pendingByRun.get(run.id);
    if (pending === undefined) this.pendingByRun.set(run.id, (pending = new Set()));
    pending.add(m.id);
  }

  /** A run message left the queue (delivered or cancelled). */
  done(messageId: string): void {
    const runId = this.owner.get(messageId);
    if (runId === undefined) return;
    this.owner.delete(messageId);
    const pending = this.pendingByRun.get(runId);
    pending?.delete(messageId);
    if (pending?.size === 0) this.pendingByRun.delete(runId);
    const run = this.runs.get(runId);
    const cb = run?.failure?.callback;
    if (run !== undefined && cb?.messageId === messageId && cb.state === 'CALLBACK_INPROGRESS') {
      this.walk?.keep(run);
      cb.state = 'CALLBACK_SUCCESS';
    }
  }

  /** A run message failed for good: the run fails (its failure callback, if that was it, failed). */
  deadLetter(entry: DlqEntry): void {
    const tag = entry.message.workflow;
    const run = tag === undefined ? undefined : this.runs.get(tag.runId);
    if (run === undefined) return;
    this.walk?.keep(run);
    if (tag?.kind === 'failure') {
      if (run.failure?.callback?.messageId === entry.message.id) run.failure.callback.state = 'CALLBACK_FAIL';
      return;
    }
    // A context.call that failed still calls back with its answer; the run goes on.
    if (run.state !== 'RUN_STARTED' || tag?.kind === 'call') return;
    run.state = 'RUN_FAILED';
    run.completedAt = entry.failedAt;
    run.failure = { messageId: entry.message.id, dlqId: entry.dlqId, at: entry.failedAt, response: entry.response };
    this.retire(run.id);
    this.onEnd?.(run);
  }

  end(e: RunEnd): void {
    const run = this.runs.get(e.runId);
    if (run === undefined || run.state !== 'RUN_STARTED') return;
    this.walk?.keep(run);
    run.state = e.state;
    run.completedAt = e.at;
    if (e.response !== undefined) run.response = e.response;
    this.retire(run.id);
    this.onEnd?.(run);
  }

  change(c: RunChange): void {
    if (c.kind === 'copy') return this.restore(c.run);
    const run = this.active(c.runId);
    if (run === undefined) return;
    this.walk?.keep(run);
    if (c.kind === 'wait') this.addWaiter(run, c.waiter);
    else (run.lookbacks ??= {})[c.eventId] = c.data;
  }

  /**
   * A step delivered again (its first answer failed, or a restart cut it short) waits again:
   * one waiter per event and step, the first, so one notify resumes the run once; none when
   * the wait already ended (a lookback resumed it before the repeat).
   */
  private addWaiter(run: RunRecord, waiter: Waiter): void {
    const key = stepKeyOf(run.id, waiter.step);
    if (key !== undefined && this.stepMessages.has(key)) return;
    const waiters = (run.waiters ??= []);
    if (!waiters.some((w) => w.eventId === waiter.eventId && w.step.stepId === waiter.step.stepId)) waiters.push(waiter);
  }

  /** A step that ends a wait (notified or timed out) removes the waiter and the lookback it used. */
  private waitEnded(run: RunRecord, body: string): void {
    if (run.waiters === undefined && run.lookbacks === undefined) return;
    let step: { stepId?: unknown; waitEventId?: unknown };
    try {
      step = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as typeof step;
    } catch {
      return;
    }
    if (typeof step.waitEventId !== 'string') return;
    const eventId = step.waitEventId;
    run.waiters = run.waiters?.filter((w) => !(w.eventId === eventId && w.step.stepId === step.stepId));
    if (run.waiters?.length === 0) delete run.waiters;
    if (run.lookbacks !== undefined) {
      delete run.lookbacks[eventId];
      if (Object.keys(run.lookbacks).length === 0) delete run.lookbacks;
    }
  }

  /** A run restated by a snapshot. */
  restore(run: RunRecord): void {
    this.runs.set(run.id, run);
    if (run.state !== 'RUN_STARTED') this.retire(run.id);
    else for (const s of run.steps) this.remember(run.id, s.messageId, s.body);
  }

  private remember(runId: string, messageId: string, body: string): void {
    const key = stepKey(runId, body);
    if (key !== undefined && !this.stepMessages.has(key)) this.stepMessages.set(key, messageId);
  }

  /** An ended run takes no more steps: its step keys go; it stays for logs until MAX_ENDED_RUNS newer ones ended. */
  private retire(id: string): void {
    const run = this.runs.get(id);
    if (run !== undefined) for (const s of run.steps) {
      const key = stepKey(id, s.body);
      if (key !== undefined && this.stepMessages.get(key) === s.messageId) this.stepMessages.delete(key);
    }
    this.ended.push(id);
    if (this.ended.length <= MAX_ENDED_RUNS) return;
    const old = this.ended.shift()!;
    this.runs.delete(old);
  }
}

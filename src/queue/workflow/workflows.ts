// The workflow side of the queue engine (issue 10): ending and cancelling runs, the result of an
// invoked run, the runs' logs, and the waits. Runs start and grow through ordinary publishes
// (run-publish.ts, through draft()); this is what the /v2/workflows endpoints decide. Not safe
// for concurrent use; the service's JS thread owns it.

import type { Scheduler } from '../delivery/scheduler.js';
import type { QueueEngine } from '../engine.js';
import { unknownWorkflowRun, type QueueError } from '../errors.js';
import type { EventLog } from '../store/event-log.js';
import type { HeaderSource } from '../options/publish-options.js';
import type { Draft, QueueMessage } from '../store/message.js';
import type { QueueStore } from '../store/queue-store.js';
import type { RunEnd, RunRecord } from './run.js';
import { RunDlq } from './run-dlq.js';
import { runLogs } from './run-logs.js';
import { publishServerStep, runDraft, type ServerStepSettings } from './run-publish.js';
import type { Waits } from './waits.js';

export class Workflows {
  private readonly store: QueueStore;
  /** Resume and restart of failed runs. */
  readonly dlq: RunDlq;

  constructor(
    private readonly engine: QueueEngine,
    private readonly events: EventLog,
    private readonly scheduler: Scheduler,
    private readonly s: ServerStepSettings,
    /** context.waitForEvent and notify. */
    readonly waits: Waits,
  ) {
    this.store = engine.store;
    this.dlq = new RunDlq(engine, scheduler, events, s);
    // Deferred: a run ends inside a store write, and the result step is a write of its own.
    this.store.runs.onEnd = (run) => queueMicrotask(() => this.giveResultOnce(run));
  }

  /**
   * After a restart: waits past their deadline end, and every ended invoked run gives its result
   * again, in case a crash came between its end and that write (a result already given is a
   * duplicate step, answered as such).
   */
  start(): void {
    this.waits.start();
    for (const run of [...this.store.runs.all()]) if (run.state !== 'RUN_STARTED' && run.invoker !== undefined) this.giveResultOnce(run);
  }

  /**
   * As a unit of its own (engine postgres: every process sees the run end, and each gives the
   * result; the invoke step's deduplication keeps the first).
   */
  private giveResultOnce(run: RunRecord): void {
    const given = this.store.unit(() => this.giveResult(run));
    // Refused only while PostgreSQL cannot be reached, which the store has logged: the next start gives it again.
    if (given instanceof Promise) given.catch(() => undefined);
  }

  /**
   * An invoked run ended: its invoker's invoke step gets the result, the library's
   * InvokeStepResponse: {body} of a finished run, and isFailed / isCanceled always present.
   */
  private giveResult(run: RunRecord): void {
    const inv = run.invoker;
    const invoker = inv === undefined ? undefined : this.store.runs.active(inv.workflowRunId);
    if (inv === undefined || invoker === undefined) return;
    const result: Record<string, unknown> = { isFailed: run.state === 'RUN_FAILED', isCanceled: run.state === 'RUN_CANCELED' };
    if (run.state === 'RUN_SUCCESS' && run.response !== undefined) result.body = run.response;
    publishServerStep(this.engine, this.s, invoker, { ...inv.step, out: JSON.stringify(result) });
  }

  /** A run, ended or not. */
  run(runId: string): RunRecord | undefined {
    return this.store.runs.get(runId);
  }

  /** A run that has not ended. */
  activeRun(runId: string): RunRecord | undefined {
    return this.store.runs.active(runId);
  }

  /** The message a publish makes, tagged with its run when the headers name one (run-publish.ts). */
  draft(h: HeaderSource, read: (h: HeaderSource) => Draft | QueueError): Draft | QueueError {
    return runDraft(this.store.runs, h, read);
  }

  /** The runs' logs: up to `count` of the runs `keep` takes, newest first, from `cursor` on. */
  logs(keep: (r: RunRecord) => boolean, count: number, cursor: number): { runs: Record<string, unknown>[]; cursor?: string } {
    return runLogs(this.store, keep, count, cursor);
  }

  /**
   * Ends an active run with its result (`response`), or cancels it; its waiting messages are
   * dropped in the same write. An attempt in flight finishes: what it publishes then answers 400.
   * Ending a run that already ended changes nothing (the library may repeat the call).
   */
  end(runId: string, state: RunEnd['state'], response?: string): QueueError | null {
    const run = this.store.runs.get(runId);
    if (run === undefined) return unknownWorkflowRun(runId);
    if (run.state !== 'RUN_STARTED') return null;
    const dropped = this.store.runs
      .pendingOf(runId)
      .filter((id) => !this.scheduler.delivering(id))
      .map((id) => this.store.get(id))
      .filter((m): m is QueueMessage => m !== undefined);
    this.store.endRun({ runId, state, at: this.s.now(), ...(response !== undefined && { response }) }, dropped.map((m) => m.id));
    for (const m of dropped) {
      this.events.add('CANCELED', m);
      this.scheduler.cancelled(m);
    }
    return null;
  }

  /** Cancels every active run `matches` selects; answers how many. */
  cancelWhere(matches: (run: RunRecord) => boolean): number {
    const targets = [...this.store.runs.all()].filter((r) => r.state === 'RUN_STARTED' && matches(r));
    for (const r of targets) this.end(r.id, 'RUN_CANCELED');
    return targets.length;
  }
}

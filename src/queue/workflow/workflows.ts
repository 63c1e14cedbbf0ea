// The workflow side of the queue engine (issue 10): ending and cancelling runs, and the waits. Runs start and
// grow through ordinary publishes (run-publish.ts); this is what the /v2/workflows endpoints
// decide. Not safe for concurrent use; the service's JS thread owns it.

import type { Scheduler } from '../delivery/scheduler.js';
import { unknownWorkflowRun, type QueueError } from '../errors.js';
import type { EventLog } from '../store/event-log.js';
import type { QueueMessage } from '../store/message.js';
import type { QueueStore } from '../store/queue-store.js';
import type { RunEnd, RunRecord, RunStore } from './run.js';
import type { Waits } from './waits.js';

export class Workflows {
  constructor(
    private readonly store: QueueStore,
    private readonly events: EventLog,
    private readonly scheduler: Scheduler,
    private readonly now: () => number,
    /** context.waitForEvent and notify. */
    readonly waits: Waits,
  ) {}

  get runs(): RunStore {
    return this.store.runs;
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
    this.store.endRun({ runId, state, at: this.now(), ...(response !== undefined && { response }) }, dropped.map((m) => m.id));
    for (const m of dropped) this.events.add('CANCELED', m);
    return null;
  }

  /** Cancels every active run `matches` selects; answers how many. */
  cancelWhere(matches: (run: RunRecord) => boolean): number {
    const targets = [...this.store.runs.all()].filter((r) => r.state === 'RUN_STARTED' && matches(r));
    for (const r of targets) this.end(r.id, 'RUN_CANCELED');
    return targets.length;
  }
}

// The queue store's state at one moment, restated as ops, for a snapshot written while the store
// goes on changing (Generations.compact in the background). Taking one copies the references in
// the store's tables into arrays (about a millisecond for 59k messages, where copying each message
// took 8 to 93); each op is made and encoded only when the writer asks for it, a slice at a time.
// That holds because the store never changes a record it holds: a retry stores a new message, a
// schedule firing a new schedule, and every other change sets or deletes whole records. Workflow
// runs alone change in place; their walk (workflow/run-walk.ts) encodes a run before it changes.
// Order: runs first (the messages' puts then only re-link them to their run), live deduplication
// keys, messages, the last failed attempt of those retried, the DLQ, URL groups, schedules,
// queues, flow-control keys, and engine postgres's leases, rate resets and secrets.
// Not safe for concurrent use; the store's JS thread owns it.

import type { RunWalk } from '../workflow/run-walk.js';
import type { FlowRecord, QueueRecord } from './gate-records.js';
import type { DlqEntry, QueueMessage } from './message.js';
import { encodeOp, type DedupOp, type LeaseOp, type Op, type RetryOp } from './ops.js';
import type { Schedule } from './schedule.js';
import type { UrlGroup } from './url-group.js';

/** The store's records as they were when the snapshot began; none of them changes afterwards. */
export interface FrozenTables {
  readonly dedup: readonly DedupOp[];
  /** Deduplication keys seen at or before this time had expired when the snapshot began. */
  readonly dedupExpired: number;
  readonly messages: readonly QueueMessage[];
  readonly retries: readonly RetryOp[];
  readonly dlq: readonly DlqEntry[];
  readonly groups: readonly UrlGroup[];
  readonly schedules: readonly Schedule[];
  readonly queues: readonly QueueRecord[];
  readonly flows: readonly FlowRecord[];
  readonly leases: readonly LeaseOp[];
  readonly rateResets: readonly (readonly [string, number])[];
  readonly secrets: readonly (readonly [string, string])[];
}

export class QueueSnapshot implements IterableIterator<Buffer> {
  private readonly ops: Generator<Op>;

  constructor(
    private readonly runs: RunWalk,
    tables: FrozenTables,
  ) {
    this.ops = opsOf(tables);
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Buffer> {
    const run = this.runs.next();
    if (run.done !== true) return run;
    const op = this.ops.next();
    return op.done === true ? op : { done: false, value: encodeOp(op.value) };
  }

  /** Ends the snapshot, whole or dropped (also when it never began): the runs' walk ends with it. */
  return(): IteratorResult<Buffer> {
    this.runs.return();
    this.ops.return(undefined);
    return { done: true, value: undefined };
  }
}

function* opsOf(t: FrozenTables): Generator<Op> {
  for (const key of t.dedup) if (key.at > t.dedupExpired) yield key;
  for (const message of t.messages) yield { op: 'put', message };
  yield* t.retries;
  for (const entry of t.dlq) yield { op: 'dlq', entry };
  for (const group of t.groups) yield { op: 'urlGroup', group };
  for (const schedule of t.schedules) yield { op: 'schedule', schedule };
  for (const queue of t.queues) yield { op: 'queue', queue };
  for (const flow of t.flows) yield { op: 'flow', flow };
  yield* t.leases;
  for (const [key, at] of t.rateResets) yield { op: 'rateReset', key, at };
  for (const [name, value] of t.secrets) yield { op: 'secret', name, value };
}

// The records of the queue's log, one JSON object per frame. A snapshot restates the state as
// `put`, `dlq`, `dedup`, `urlGroup` and `schedule` ops; the log adds every change since. Replaying them in order
// rebuilds the store exactly.

import type { FlowRecord, QueueRecord } from './gate-records.js';
import type { DeliveryResponse, DlqEntry, QueueMessage } from './message.js';
import type { Schedule } from './schedule.js';
import type { UrlGroup } from './url-group.js';
import type { RunChange, RunEnd, RunRecord } from '../workflow/run.js';

export type Op =
  /** A message was accepted (published, or a callback made); `dedupKey` is remembered with it. */
  | { op: 'put'; message: QueueMessage; dedupKey?: string }
  /** An attempt failed and the message waits for its next one. */
  | { op: 'retry'; id: string; retried: number; notBefore: number; response: DeliveryResponse }
  /** The message left the queue: delivered, or cancelled. */
  | { op: 'done'; id: string }
  /** The message failed for good and moved to the dead-letter queue. */
  | { op: 'dlq'; entry: DlqEntry }
  /** A dead-letter entry was deleted (or retried, which also puts a new message). */
  | { op: 'undlq'; dlqId: string }
  /** A deduplication key seen at `at` (snapshots only: in the log it rides on `put`). */
  | { op: 'dedup'; key: string; id: string; at: number }
  /** A URL group was created or its endpoints changed (the whole group). */
  | { op: 'urlGroup'; group: UrlGroup }
  /** A URL group was deleted (or lost its last endpoint). */
  | { op: 'unUrlGroup'; name: string }
  /** A schedule was created, replaced, paused or resumed (the whole schedule). */
  | { op: 'schedule'; schedule: Schedule }
  /** A schedule was deleted. */
  | { op: 'unschedule'; id: string }
  /** A schedule fired at `at`; the messages it made are `put` in the same write. */
  | { op: 'fired'; id: string; at: number }
  /** A queue was made or its settings changed. */
  | { op: 'queue'; queue: QueueRecord }
  /** A queue was deleted. */
  | { op: 'unqueue'; name: string }
  /** A flow-control key was seen, or its settings changed. */
  | { op: 'flow'; flow: FlowRecord }
  /** A workflow run ended (finished, or cancelled), and its result (issue 10). */
  | ({ op: 'runEnd' } & RunEnd)
  /** A workflow run as it stands (snapshots only: in the log its messages' ops build it). */
  | { op: 'run'; run: RunRecord }
  /** A workflow run waits for an event, keeps a notification, or is made from a failed one (issue 10). */
  | { op: 'runChange'; change: RunChange }
  /** Engine postgres: process `owner` delivers the message from `at` until `until` (a `retry` or `done` ends it sooner). */
  | { op: 'lease'; id: string; owner: string; at: number; until: number }
  /** Engine postgres: flow-control key `key`'s rate period restarts at `at` (resetRate): deliveries started before stop counting. */
  | { op: 'rateReset'; key: string; at: number }
  /** Engine postgres: a generated token or signing key (the data dir's secrets.json on the embedded engine). */
  | { op: 'secret'; name: string; value: string };

/** The ops the store keeps as its records (they never change once made). */
export type RetryOp = Extract<Op, { op: 'retry' }>;
export type DedupOp = Extract<Op, { op: 'dedup' }>;
export type LeaseOp = Extract<Op, { op: 'lease' }>;

export const encodeOp = (op: Op): Buffer => Buffer.from(JSON.stringify(op));

export function decodeOp(payload: Buffer): Op {
  const op = JSON.parse(payload.toString('utf8')) as Op;
  if (typeof op !== 'object' || op === null || typeof op.op !== 'string') throw new Error('it is not a queue op');
  return op;
}

// Leases (engine postgres): before a process delivers a message it commits a `lease` op naming
// itself and an end time, in a unit of work (the write lock held, the replica caught up), so the
// decision sees every other process's leases. A message leased by another process until later
// is held back until then; its `retry` or `done` op ends the lease sooner. A process killed
// mid-delivery leaves its lease to run out, and another process delivers the message then (at
// least once, as QStash promises). The parallelism of a queue and of a flow-control key counts
// the live leases of every process, and a key's rate the leases that started in the last
// period (a sliding window here, where one process counts from the period's first start) or
// since the key's resetRate, whichever is later, so both hold across processes. A process that stops hands
// its leases back (a lease ending now), so a restart delays nothing.

import type { QueueMessage } from '../store/message.js';
import type { QueueStore } from '../store/queue-store.js';

/** A lease outlives the attempt's own timeout by this much: the result's write, a slow commit. */
export const LEASE_MARGIN_MS = 5_000;

export type Claim =
  /** Leased to this process: deliver it. */
  | { kind: 'ok' }
  /** Delivered, cancelled or changed meanwhile (a newer due time is scheduled on its own). */
  | { kind: 'gone' }
  /** Its run ended: finished undelivered. */
  | { kind: 'dropped' }
  /** Another process delivers it, or its queue's or key's parallelism is taken elsewhere: try again at `retryAt`. */
  | { kind: 'held'; retryAt: number };

/** What a claim asks of the run messages (workflow/run-delivery.ts). */
export interface Droppable {
  drop(m: QueueMessage): boolean;
}

/** When a lease on `m` taken now should end. */
export function leaseUntil(m: QueueMessage, s: { now: () => number; defaultTimeoutMs: number }): number {
  return s.now() + (m.timeoutMs ?? s.defaultTimeoutMs) + LEASE_MARGIN_MS;
}

/** Inside a unit of work: whether `owner` may deliver `m` (due at `at`) now; if so, its lease is written. */
export function claim(store: QueueStore, m: QueueMessage, at: number, owner: string, now: number, until: number, runs: Droppable): Claim {
  const current = store.get(m.id);
  if (current === undefined || current.notBefore !== at) return { kind: 'gone' };
  const lease = store.lease(m.id);
  if (lease !== undefined && lease.owner !== owner && lease.until > now) return { kind: 'held', retryAt: lease.until };
  if (runs.drop(current)) return { kind: 'dropped' };
  const takenUntil = busyUntil(store, current, now) ?? rateUntil(store, current, now);
  if (takenUntil !== null) return { kind: 'held', retryAt: takenUntil };
  store.putLease(m.id, owner, now, until);
  return { kind: 'ok' };
}

/** When m's flow-control key may start another delivery, if its rate is used up for the period; else null. */
function rateUntil(store: QueueStore, m: QueueMessage, now: number): number | null {
  const flow = m.flowControl === undefined ? undefined : store.flowRecord(m.flowControl.key);
  if (flow === undefined || flow.rate === 0) return null;
  const starts = store.flowStarts(flow.key, now - flow.periodMs);
  return starts.length < flow.rate ? null : starts[starts.length - flow.rate] + flow.periodMs;
}

/** When a slot of m's queue or flow-control key, all taken by live leases, frees at the latest; null when one is free. */
function busyUntil(store: QueueStore, m: QueueMessage, now: number): number | null {
  const queueMax = m.queueName === undefined ? 0 : (store.queueRecord(m.queueName)?.parallelism ?? 0);
  const flowMax = m.flowControl === undefined ? 0 : (store.flowRecord(m.flowControl.key)?.parallelism ?? 0);
  if (queueMax === 0 && flowMax === 0) return null;
  let inQueue = 0;
  let inFlow = 0;
  let until = now;
  for (const other of store.leased(now)) {
    if (other.id === m.id) continue;
    const sameQueue = queueMax > 0 && other.queueName === m.queueName;
    const sameFlow = flowMax > 0 && other.flowControl?.key === m.flowControl?.key;
    if (sameQueue) inQueue++;
    if (sameFlow) inFlow++;
    if (sameQueue || sameFlow) until = Math.max(until, store.lease(other.id)?.until ?? now);
  }
  return (queueMax > 0 && inQueue >= queueMax) || (flowMax > 0 && inFlow >= flowMax) ? until : null;
}

/** A stopping process hands back its leases, so another delivers those messages now rather than when they run out. */
export function releaseLeases(store: QueueStore, owner: string, now: number): void {
  for (const m of [...store.leased(now)]) if (store.lease(m.id)?.owner === owner) store.putLease(m.id, owner, now, now);
}

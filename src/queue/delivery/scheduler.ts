// Delivers due messages, at most `concurrency` at once over every destination: the others wait
// in the store and in the due-heap (one small entry each), so a slow or dead destination costs
// slots and time, never memory beyond the pending messages themselves. An attempt's outcome is
// written to the store before anything follows from it (a retry, the DLQ, callbacks); a crash
// before that write leaves the message pending, and the next start delivers it again with the
// same Upstash-Message-Id (at least once). A due message starts only when gates.ts lets it (its
// queue's order and parallelism, its flow-control key's parallelism and rate).
// On a shared store (engine postgres) every process schedules every message (`follow` learns
// those others accept), and an attempt starts only once its lease is committed (leases.ts): one
// process at a time delivers a message, and another takes over once a lease runs out.
// Not safe for concurrent use; the service's JS thread owns it.

import { setMaxListeners } from 'node:events';
import type { HttpClient } from '../../server/http-client.js';
import { diskFailureOf } from '../../storage/errors.js';
import { LONGEST_TIMER_MS } from '../options/duration.js';
import type { EventLog } from '../store/event-log.js';
import { newDlqId, type QueueMessage } from '../store/message.js';
import type { Op } from '../store/ops.js';
import { STORE_RETRY_MS, type QueueStore } from '../store/queue-store.js';
import type { RunDelivery } from '../workflow/run-delivery.js';
import { attempt, type Outcome } from './attempt.js';
import { backoffMs, requestedDelayMs } from './backoff.js';
import { callbackMessage } from './callbacks.js';
import type { DestinationPolicy } from './destination-policy.js';
import { DueHeap } from './due-heap.js';
import { Gates } from './gates.js';
import { claim, leaseUntil, releaseLeases } from './leases.js';

export interface SchedulerSettings {
  concurrency: number;
  retryDelayScale: number;
  defaultTimeoutMs: number;
  defaultRetries: number;
  maxBodyBytes: number;
  signingKey: () => string;
  now: () => number;
  onError: (err: unknown, m: QueueMessage) => void;
  /** How workflow run messages are sent (issue 10). */
  workflows: RunDelivery;
  destinations: DestinationPolicy;
  /** The runtime's HTTP client (server/http-client.ts). */
  http: HttpClient;
  /** This process, as its leases name it (engine postgres). */
  owner: string;
}

export class Scheduler {
  private readonly heap = new DueHeap();
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private closed = false;
  private idle: (() => void) | null = null;
  /** Aborts the running attempts; each listens to it, so it has as many listeners as attempts run. */
  private readonly stop = new AbortController();
  /** Queues and flow-control keys: which due messages may start. */
  readonly gates: Gates;
  private poked = false;
  /** Shared store: messages another process's deliveries hold back, tried again when one ends. */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly store: QueueStore,
    private readonly events: EventLog,
    private readonly s: SchedulerSettings,
  ) {
    setMaxListeners(s.concurrency + 1, this.stop.signal);
    this.gates = new Gates(store, s.now, () => {
      if (this.poked) return;
      this.poked = true;
      queueMicrotask(() => {
        this.poked = false;
        this.pump();
      });
    });
  }

  /** Schedules every message the store holds (after a restart). */
  start(): void {
    for (const m of this.store.pending()) {
      this.gates.restore(m);
      this.heap.push({ at: m.notBefore, id: m.id });
    }
    this.pump();
  }

  schedule(m: QueueMessage): void {
    this.gates.add(m);
    this.heap.push({ at: m.notBefore, id: m.id });
    this.pump();
  }

  /**
   * Ops another process committed (engine postgres): gate settings and rate resets, its messages (scheduled
   * here too, so any process may deliver them), new due times, and messages gone, whose places
   * free up. A message another process's delivery held back is tried again.
   */
  follow(ops: readonly Op[]): void {
    for (const op of ops) {
      if (op.op === 'queue') this.gates.adoptQueue(op.queue);
      else if (op.op === 'unqueue') this.gates.dropQueue(op.name);
      else if (op.op === 'flow') this.gates.adoptFlow(op.flow);
      else if (op.op === 'rateReset') this.gates.adoptRateReset(op.key, op.at);
    }
    let ended = false;
    for (const op of ops) {
      if (op.op === 'put' || op.op === 'retry') {
        const m = this.store.get(op.op === 'put' ? op.message.id : op.id);
        if (m === undefined) continue;
        if (op.op === 'put') this.gates.restore(m);
        this.heap.push({ at: m.notBefore, id: m.id });
        ended ||= op.op === 'retry';
      } else if (op.op === 'done') {
        this.gates.gone(op.id);
        ended = true;
      } else if (op.op === 'lease') ended ||= op.until <= this.s.now(); // handed back by a process that stopped
      else if (op.op === 'rateReset') ended = true; // the claims a key's rate held back may go now
    }
    if (ended) this.unblock();
    this.pump();
  }

  /**
   * The replica was rebuilt from PostgreSQL (engine postgres): a snapshot may hold changes this
   * process never saw as ops (queues, keys, messages, messages gone), so all it holds is taken
   * up again, as at start.
   */
  resync(): void {
    this.gates.resync();
    for (const m of this.store.pending()) {
      this.gates.restore(m);
      this.heap.push({ at: m.notBefore, id: m.id });
    }
    this.unblock();
    this.pump();
  }

  /** A message was cancelled: it frees its place in its queue. */
  cancelled(m: QueueMessage): void {
    this.gates.forget(m);
    this.pump();
  }

  /** The global limit of attempts at once and how many run (GET /v2/globalParallelism). */
  parallelism(): { parallelismMax: number; parallelismCount: number } {
    return { parallelismMax: this.s.concurrency, parallelismCount: this.inFlight.size };
  }

  /** Whether an attempt of this message is running now. */
  delivering(id: string): boolean {
    return this.inFlight.has(id);
  }

  /** Stops starting attempts and aborts those running; their outcomes are dropped (the messages stay pending). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.stop.abort();
    if (this.inFlight.size > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    // Refused only while PostgreSQL cannot be reached: the leases then run out on their own.
    if (this.store.isShared) await Promise.resolve(this.store.unit(() => releaseLeases(this.store, this.s.owner, this.s.now()))).catch(() => undefined);
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.s.now();
    // No attempt starts while the store cannot write: its outcome could not be recorded.
    if (this.store.writeFailure() !== null) return this.wakeAt(now + STORE_RETRY_MS, now);
    // Held back by another process's delivery: due again when its lease ends, if no op said sooner.
    for (const [id, at] of this.blocked) {
      if (at > now) continue;
      this.blocked.delete(id);
      const m = this.store.get(id);
      if (m !== undefined) this.heap.push({ at: m.notBefore, id });
    }
    // Starting a queue's message may wake the next one in line, hence the outer loop.
    for (;;) {
      // A woken message goes back at its own due time, so the entry is live for the check below.
      for (const id of this.gates.woken()) {
        const m = this.store.get(id);
        if (m !== undefined) this.heap.push({ at: m.notBefore, id });
      }
      while (this.inFlight.size < this.s.concurrency) {
        const top = this.heap.peek();
        if (top === undefined || top.at > now) break;
        this.heap.pop();
        const m = this.store.get(top.id);
        // Stale entries: cancelled, delivered, rescheduled, or already running (if it comes due
        // again meanwhile, a retry, that entry goes back when the attempt ends: `dueAgain`).
        if (m === undefined || m.notBefore !== top.at || this.inFlight.has(m.id)) continue;
        // Held by its queue or flow-control key: parked there until woken. (A shared store drops in claim.)
        if (!this.store.isShared && this.s.workflows.drop(m)) {
          this.gates.forget(m);
          continue;
        }
        if (!this.gates.admit(m)) continue;
        this.run(m);
      }
      if (!this.gates.hasWoken()) break;
    }
    let next = Math.min(this.heap.peek()?.at ?? Infinity, this.gates.nextWake());
    for (const at of this.blocked.values()) next = Math.min(next, at);
    if (next === Infinity || this.inFlight.size >= this.s.concurrency) return;
    this.wakeAt(next, now);
  }

  /** Pumps again at `next`, unless a timer would already run by then. */
  private wakeAt(next: number, now: number): void {
    if (this.timer !== null && this.timerAt <= next) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.pump();
    }, Math.min(LONGEST_TIMER_MS, Math.max(0, next - now)));
  }

  private run(m: QueueMessage): void {
    this.inFlight.add(m.id);
    // The due time this attempt is for: a retry stores a new message with the next one, and m stays as it is.
    const at = m.notBefore;
    if (!this.store.isShared) return this.deliver(m, at);
    const claimed = this.store.unit(() => claim(this.store, m, at, this.s.owner, this.s.now(), leaseUntil(m, this.s), this.s.workflows));
    Promise.resolve(claimed).then(
      (c) => {
        if (c.kind === 'ok') return this.deliver(m, at);
        if (c.kind === 'held') this.blocked.set(m.id, c.retryAt);
        this.notDelivered(m, at, this.store.get(m.id) === undefined);
      },
      (err: unknown) => {
        // PostgreSQL out of reach (the store has said so once): the message waits for it.
        if (diskFailureOf(err) === null) this.s.onError(err, m);
        this.notDelivered(m, at, false);
        this.heap.push({ at, id: m.id });
      },
    );
  }

  /** A claim refused: the message frees its slot; `gone` when it left the store. */
  private notDelivered(m: QueueMessage, at: number, gone: boolean): void {
    this.inFlight.delete(m.id);
    this.dueAgain(m.id, at);
    if (this.closed) {
      if (this.inFlight.size === 0) this.idle?.();
      return;
    }
    this.gates.release(m, gone, true);
    this.pump();
  }

  /** Messages held back by other processes' deliveries go back to the heap, now or at their lease's end. */
  private unblock(): void {
    for (const id of this.blocked.keys()) {
      const m = this.store.get(id);
      if (m !== undefined) this.heap.push({ at: m.notBefore, id });
    }
    this.blocked.clear();
  }

  /**
   * An attempt (or claim) of message `id` for due time `at` ended. If the message is now due at
   * another time (its retry, or another process's), the pump may have passed that entry over
   * while the attempt held the message (a retry due in ~1 ms comes up while its outcome
   * commits): it goes back in the heap. A second entry is harmless; the stale one is skipped.
   */
  private dueAgain(id: string, at: number): void {
    const m = this.store.get(id);
    if (m !== undefined && m.notBefore !== at) this.heap.push({ at: m.notBefore, id });
  }

  private deliver(m: QueueMessage, at: number): void {
    // ACTIVE: picked for delivery, an attempt starts (the service's word for it).
    this.events.add('ACTIVE', m);
    const settings = { signingKey: this.s.signingKey(), defaultTimeoutMs: this.s.defaultTimeoutMs, maxBodyBytes: this.s.maxBodyBytes, now: this.s.now, stop: this.stop.signal, destinations: this.s.destinations, http: this.s.http };
    attempt(this.s.workflows.view(m), settings)
      .then((out) => {
        if (!this.closed) return this.store.unit(() => this.settle(m.id, this.s.workflows.judge(m, out)));
      })
      .catch((err: unknown) => {
        this.s.onError(err, m);
        // The outcome could not be written: the message, unchanged, is delivered again once it can.
        if (diskFailureOf(err) !== null && this.store.get(m.id) === m) this.heap.push({ at: m.notBefore, id: m.id });
      })
      .finally(() => {
        this.inFlight.delete(m.id);
        this.dueAgain(m.id, at);
        if (this.blocked.size > 0) this.unblock();
        if (!this.closed) this.gates.release(m, this.store.get(m.id) === undefined);
        if (this.closed) {
          if (this.inFlight.size === 0) this.idle?.();
        } else this.pump();
      });
  }

  private settle(id: string, out: Outcome): void {
    const m = this.store.get(id);
    if (m === undefined) return; // cancelled while in flight
    const now = this.s.now();
    const d = { retries: this.s.defaultRetries, now };
    if (out.ok) {
      const then = m.callback !== undefined ? [this.s.workflows.callback(m, callbackMessage('callback', m.callback, m, out, d))] : [];
      this.store.finish(id, then);
      this.events.add('DELIVERED', m, { responseStatus: out.status });
      this.gates.follow(m, then);
    for (const c of then) this.accepted(c);
      return;
    }
    this.events.add('ERROR', m, { error: out.error ?? `destination answered ${out.status}`, responseStatus: out.status });
    if (!out.final && m.retried < m.retries) {
      const retried = m.retried + 1;
      const notBefore = now + (requestedDelayMs(out.headers, now, this.s.retryDelayScale) ?? backoffMs(retried, this.s.retryDelayScale, m.retryDelay));
      const response = { status: out.status, headers: out.headers, body: out.body, ...(out.error !== undefined && { error: out.error }) };
      this.store.retry(id, retried, notBefore, response);
      // Scheduled once the attempt ends (`dueAgain`), after its outcome is committed.
      this.events.add('RETRY', m, { nextDeliveryTime: notBefore });
      return;
    }
    const dlqId = newDlqId();
    const then: QueueMessage[] = [];
    if (m.callback !== undefined && (out.status !== 0 || m.workflow?.kind === 'call')) then.push(this.s.workflows.callback(m, callbackMessage('callback', m.callback, m, out, d)));
    const failure = m.failureCallback === undefined ? null : this.s.workflows.failureCallback(m, callbackMessage('failureCallback', m.failureCallback, m, out, d, dlqId));
    if (failure !== null) then.push(failure);
    const response = { status: out.status, headers: out.headers, body: out.body, ...(out.error !== undefined && { error: out.error }) };
    this.store.deadLetter({ dlqId, message: { ...m }, response, failedAt: now }, then);
    this.events.add('FAILED', m);
    this.gates.follow(m, then);
    for (const c of then) this.accepted(c);
  }

  private accepted(m: QueueMessage): void {
    this.events.add('CREATED', m);
    this.heap.push({ at: m.notBefore, id: m.id });
  }
}

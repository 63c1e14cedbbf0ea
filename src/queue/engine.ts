// The queue engine behind rest/: accepts drafts (stored durably before they are answered),
// cancels, reads messages and the DLQ, retries dead letters, and holds the signing keys.
// rest/ parses and shapes; this decides. Not safe for concurrent use; one JS thread owns it.

import type { Gates } from './delivery/gates.js';
import type { Scheduler } from './delivery/scheduler.js';
import { TOO_MANY_PENDING, unknownDlqMessage, unknownMessage, type QueueError } from './errors.js';
import type { KeyRing, SigningKeys } from './signing/keys.js';
import type { EventLog, QueueEvent } from './store/event-log.js';
import { newMessageId, type DlqEntry, type Draft, type QueueMessage } from './store/message.js';
import type { QueueStore } from './store/queue-store.js';
import type { RecordFilter } from './store/record-filter.js';
import type { ListingPosition } from './store/listing-order.js';

export interface Published {
  messageId: string;
  url: string;
  deduplicated?: boolean;
}

export class QueueEngine {
  constructor(
    readonly store: QueueStore,
    readonly events: EventLog,
    private readonly scheduler: Scheduler,
    private readonly keyRing: KeyRing,
    private readonly maxPending: number,
    private readonly now: () => number,
  ) {}

  /** How many more messages may wait for delivery now (queue.maxPendingMessages). */
  room(): number {
    return this.maxPending - this.store.size;
  }

  /** Stores every new draft in one write, then schedules them; duplicates answer the first message's id. */
  publish(drafts: readonly Draft[]): Published[] | QueueError {
    const fresh: Draft[] = [];
    const out: Published[] = [];
    for (const d of drafts) {
      const first = d.dedupKey === undefined ? undefined : (this.store.duplicateOf(d.dedupKey) ?? fresh.find((f) => f.dedupKey === d.dedupKey)?.message.id);
      if (first !== undefined) out.push({ messageId: first, url: d.message.url, deduplicated: true });
      else {
        fresh.push(d);
        out.push({ messageId: d.message.id, url: d.message.url });
      }
    }
    if (fresh.length > this.room()) return TOO_MANY_PENDING;
    this.store.add(fresh);
    for (const { message } of fresh) {
      this.events.add('CREATED', message);
      this.scheduler.schedule(message);
    }
    return out;
  }

  message(id: string): QueueMessage | QueueError {
    return this.store.get(id) ?? unknownMessage(id);
  }

  /** Every message not yet delivered. */
  pending(): Iterable<QueueMessage> {
    return this.store.pending();
  }

  /** The messages not yet delivered that were created after `after` (all when undefined), oldest first. */
  pendingAfter(after: ListingPosition | undefined): Iterable<QueueMessage> {
    return this.store.pendingAfter(after);
  }

  /** Cancels a waiting message; an attempt in flight finishes, but its outcome is dropped. */
  cancel(id: string): QueueError | null {
    const m = this.store.get(id);
    if (m === undefined) return unknownMessage(id);
    this.store.finish(id);
    this.events.add('CANCELED', m);
    this.scheduler.cancelled(m);
    return null;
  }

  /** Queues and flow-control keys (their settings and state). */
  get gates(): Gates {
    return this.scheduler.gates;
  }

  globalParallelism(): { parallelismMax: number; parallelismCount: number } {
    return this.scheduler.parallelism();
  }

  /** Every dead letter, in the order they failed. */
  dlq(): Iterable<DlqEntry> {
    return this.store.dlq();
  }

  /** The dead letters that failed after `after` (all when undefined), in that order. */
  dlqAfter(after: ListingPosition | undefined): Iterable<DlqEntry> {
    return this.store.dlqAfter(after);
  }

  dlqEntry(dlqId: string): DlqEntry | QueueError {
    return this.store.dlqEntry(dlqId) ?? unknownDlqMessage(dlqId);
  }

  deleteDlq(dlqId: string): QueueError | null {
    if (this.store.dlqEntry(dlqId) === undefined) return unknownDlqMessage(dlqId);
    this.store.removeDlq(dlqId);
    return null;
  }

  /** Publishes a dead letter again as a new message (fresh retries), and removes it from the DLQ. */
  retryDlq(dlqId: string): Published | QueueError {
    const entry = this.store.dlqEntry(dlqId);
    if (entry === undefined) return unknownDlqMessage(dlqId);
    const now = this.now();
    const message: QueueMessage = { ...entry.message, id: newMessageId(), createdAt: now, notBefore: now, retried: 0 };
    this.store.removeDlq(dlqId, [message]);
    this.events.add('CREATED', message);
    this.scheduler.schedule(message);
    return { messageId: message.id, url: message.url };
  }

  /** The logs: up to `count` events matching `filter`, newest first, from `cursor` (an offset from the newest). */
  logs(filter: RecordFilter, count: number, cursor: number): { events: QueueEvent[]; cursor?: string } {
    return this.events.list(filter, count, cursor);
  }

  keys(): SigningKeys {
    return this.keyRing.get();
  }

  rotateKeys(): SigningKeys | QueueError {
    return this.keyRing.rotate();
  }
}

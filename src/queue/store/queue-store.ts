// The queue's durable state: messages waiting for delivery, the dead-letter queue and the
// deduplication keys, in <dataDir>/queue/ as storage/generations.ts lays it out (snapshot-<gen>.bin
// and log-<gen>.aof of ops.ts records). Every change is appended and flushed (fsynced under
// `always`) before it is applied, so a publish is answered only once its message is on disk,
// and a change made of several ops (a delivery and the callback it makes) is one write.
// A write the disk refuses is forgotten, never applied, and thrown (LogFailedError); while it
// fails, background writers (deliveries, schedules, wait deadlines) hold off and look again
// every STORE_RETRY_MS, and a request's write is answered 503 by the service's boundary.
// On engine postgres the same maps are a replica of an op log kept in PostgreSQL (`share()`,
// postgres/shared-log.ts): every write then belongs to a unit of work, which commits its ops
// there before the change is answered, and ops other processes commit are applied as they come.
// A record the store holds is never changed, only replaced (a retry stores a new message), so a
// snapshot can take the state of a moment by copying references (queue-snapshot.ts).
// Not safe for concurrent use; the service's JS thread owns it.

import type { FsyncPolicy } from '../../storage/append-log.js';
import type { Logger } from '../../server/log.js';
import { Generations } from '../../storage/generations.js';
import type { FlowRecord, QueueRecord } from './gate-records.js';
import type { DeliveryResponse, DlqEntry, QueueMessage } from './message.js';
import { decodeOp, encodeOp, type DedupOp, type LeaseOp, type Op, type RetryOp } from './ops.js';
import { QueueSnapshot } from './queue-snapshot.js';
import type { Schedule } from './schedule.js';
import type { UrlGroup } from './url-group.js';
import { RunStore, type RunChange, type RunEnd } from '../workflow/run.js';
import { ListingOrder, type ListingPosition } from './listing-order.js';

export const SNAPSHOT_FORMAT = { version: 1, countField: 'ops' };
/** How long a background writer held off by a store that cannot write waits to look again. */
export const STORE_RETRY_MS = 1000;

/** An op log kept outside the data dir, shared by several processes (postgres/shared-log.ts). */
export interface SharedLog {
  /** Adds ops to the unit of work running now; throws when none runs (a write outside one is a bug). */
  persist(ops: readonly Op[]): void;
  /** Runs `work` with every other writer held off, on a replica caught up; its ops commit before it resolves. */
  unit<T>(work: () => T | Promise<T>): Promise<T>;
  /** Why writes fail now, or null; asks again in the background when they did. */
  failure(): string | null;
}

/** A delivery in flight (engine postgres): process `owner` has it from `at` until `until`. */
export interface Lease {
  owner: string;
  at: number;
  until: number;
}

export interface StoreSettings {
  dir: string;
  fsync: FsyncPolicy;
  compactAfterBytes: number;
  deduplicationWindowMs: number;
}

export class QueueStore {
  private readonly messages = new Map<string, QueueMessage>();
  /** The last failed attempt of each message retried, by message id (its answer is for the callbacks and the DLQ). */
  private readonly retries = new Map<string, RetryOp>();
  private readonly dlqEntries = new Map<string, DlqEntry>();
  /** The messages by creation and the dead letters by failure, for the listings' pages. */
  private readonly pendingOrder = new ListingOrder();
  private readonly dlqOrder = new ListingOrder();
  private readonly dedup = new Map<string, DedupOp>();
  private readonly groups = new Map<string, UrlGroup>();
  private readonly scheduleMap = new Map<string, Schedule>();
  private readonly queueRecords = new Map<string, QueueRecord>();
  private readonly flowRecords = new Map<string, FlowRecord>();
  /** Engine postgres: deliveries in flight, by message id, in whichever process. */
  private readonly leaseMap = new Map<string, LeaseOp>();
  /** Engine postgres: when deliveries of each flow-control key started, oldest first (for its rate). */
  private readonly flowStartTimes = new Map<string, number[]>();
  /** Engine postgres: when each flow-control key's rate was last reset, while that is within its period. */
  private readonly rateResets = new Map<string, number>();
  /** Engine postgres: generated tokens and signing keys. */
  private readonly secretValues = new Map<string, string>();
  /** Workflow runs, built from the same ops (issue 10). */
  readonly runs = new RunStore();
  private readonly generations: Generations;
  private compactionQueued = false;
  private closed = false;
  private shared: SharedLog | null = null;

  constructor(
    private readonly settings: StoreSettings,
    private readonly now: () => number,
    logger: Logger,
  ) {
    this.generations = new Generations(settings, SNAPSHOT_FORMAT, 'message queue', logger);
  }

  /** Restores the state from disk. */
  open(): void {
    const g = this.generations;
    const snapshot = g.openSnapshot();
    if (snapshot !== null) snapshot.entries.forEach((p, i) => this.apply(this.decode(p, snapshot.path, i + 1)));
    const { frames, path } = g.openLog();
    frames.forEach((p, i) => this.apply(this.decode(p, path, i)));
    g.removeOlder();
  }

  /** Keeps the ops in `log` from now on, instead of the data dir; the caller replays its state first. */
  share(log: SharedLog): void {
    this.shared = log;
  }

  /**
   * Runs a change: at once when the store is embedded; on a shared log, as a unit of work
   * (the change is durable, and others' changes seen, when the promise resolves).
   */
  unit<T>(work: () => T | Promise<T>): T | Promise<T> {
    return this.shared === null ? work() : this.shared.unit(work);
  }

  /** Applies an op a shared log holds (replaying it, or another process's write). */
  replay(op: Op): void {
    this.apply(op);
  }

  /** Forgets every state, before replaying a shared log from its snapshot. */
  clear(): void {
    for (const m of [this.messages, this.retries, this.dlqEntries, this.dedup, this.groups, this.scheduleMap, this.queueRecords, this.flowRecords, this.leaseMap, this.flowStartTimes, this.rateResets, this.secretValues]) m.clear();
    this.pendingOrder.clear();
    this.dlqOrder.clear();
    this.runs.clear();
  }

  /** Whether the ops live in a shared log (engine postgres): deliveries are then leased. */
  get isShared(): boolean {
    return this.shared !== null;
  }

  lease(id: string): Lease | undefined {
    return this.leaseMap.get(id);
  }

  /** Live leases and the messages they hold. */
  *leased(now: number): IterableIterator<QueueMessage> {
    for (const [id, l] of this.leaseMap) {
      const m = this.messages.get(id);
      if (l.until > now && m !== undefined) yield m;
    }
  }

  /** Process `owner` delivers message `id` from `at` until `until` (engine postgres); `until` = `at` hands it back. */
  putLease(id: string, owner: string, at: number, until: number): void {
    this.write([{ op: 'lease', id, owner, at, until }]);
  }

  /** Flow-control key `key`'s rate period restarts at `at`, in every process (engine postgres). */
  resetFlowRate(key: string, at: number): void {
    this.write([{ op: 'rateReset', key, at }]);
  }

  /**
   * When deliveries of flow-control key `key` started since `since`, or since its rate was
   * reset if that is later, oldest first (older ones are forgotten).
   */
  flowStarts(key: string, since: number): readonly number[] {
    const reset = this.rateResets.get(key);
    if (reset !== undefined && reset < since) this.rateResets.delete(key);
    const from = Math.max(since, reset ?? since);
    const times = this.flowStartTimes.get(key) ?? [];
    const first = times.findIndex((t) => t >= from);
    if (first !== 0) times.splice(0, first === -1 ? times.length : first);
    return times;
  }

  secret(name: string): string | undefined {
    return this.secretValues.get(name);
  }

  putSecret(name: string, value: string): void {
    this.write([{ op: 'secret', name, value }]);
  }

  get size(): number {
    return this.messages.size;
  }

  get(id: string): QueueMessage | undefined {
    return this.messages.get(id);
  }

  lastResponse(id: string): DeliveryResponse | undefined {
    return this.retries.get(id)?.response;
  }

  pending(): IterableIterator<QueueMessage> {
    return this.messages.values();
  }

  /** The waiting messages created after `after` (all when undefined), oldest first, then by id. */
  *pendingAfter(after: ListingPosition | undefined): Generator<QueueMessage> {
    for (const id of this.pendingOrder.after(after)) yield this.messages.get(id)!;
  }

  /** The dead letters that failed after `after` (all when undefined), first failed first, then by id. */
  *dlqAfter(after: ListingPosition | undefined): Generator<DlqEntry> {
    for (const id of this.dlqOrder.after(after)) yield this.dlqEntries.get(id)!;
  }

  dlq(): IterableIterator<DlqEntry> {
    return this.dlqEntries.values();
  }

  dlqEntry(dlqId: string): DlqEntry | undefined {
    return this.dlqEntries.get(dlqId);
  }

  queues(): IterableIterator<QueueRecord> {
    return this.queueRecords.values();
  }

  queueRecord(name: string): QueueRecord | undefined {
    return this.queueRecords.get(name);
  }

  flowRecord(key: string): FlowRecord | undefined {
    return this.flowRecords.get(key);
  }

  flows(): IterableIterator<FlowRecord> {
    return this.flowRecords.values();
  }

  putQueue(queue: QueueRecord): void {
    this.write([{ op: 'queue', queue: { ...queue } }]);
  }

  removeQueue(name: string): void {
    this.write([{ op: 'unqueue', name }]);
  }

  putFlow(flow: FlowRecord): void {
    this.write([{ op: 'flow', flow: { ...flow } }]);
  }

  /** The message already published under `key` within the window, if any. */
  duplicateOf(key: string): string | undefined {
    const trigger = this.runs.duplicateOf(key);
    if (trigger !== undefined) return trigger;
    const seen = this.dedup.get(key);
    if (seen === undefined) return undefined;
    if (seen.at + this.settings.deduplicationWindowMs > this.now()) return seen.id;
    this.dedup.delete(key);
    return undefined;
  }

  /** Accepts new messages (one publish, a batch, or the callbacks a delivery made). */
  add(messages: readonly { message: QueueMessage; dedupKey?: string }[]): void {
    this.write(messages.map(({ message, dedupKey }) => (dedupKey === undefined ? { op: 'put', message } : { op: 'put', message, dedupKey })));
  }

  retry(id: string, retried: number, notBefore: number, response: DeliveryResponse): void {
    this.write([{ op: 'retry', id, retried, notBefore, response }]);
  }

  /** The message was delivered (or cancelled); `then` are messages it makes (its callback). */
  finish(id: string, then: readonly QueueMessage[] = []): void {
    this.write([{ op: 'done', id }, ...then.map((message): Op => ({ op: 'put', message }))]);
  }

  /** The message failed for good: it moves to the DLQ, and `then` (its callbacks) are accepted. */
  deadLetter(entry: DlqEntry, then: readonly QueueMessage[] = []): void {
    this.write([{ op: 'done', id: entry.message.id }, { op: 'dlq', entry }, ...then.map((message): Op => ({ op: 'put', message }))]);
  }

  /** Deletes a DLQ entry; `then` is the message a retry makes of it. */
  removeDlq(dlqId: string, then: readonly QueueMessage[] = []): void {
    this.write([{ op: 'undlq', dlqId }, ...then.map((message): Op => ({ op: 'put', message }))]);
  }

  urlGroup(name: string): UrlGroup | undefined {
    return this.groups.get(name);
  }

  urlGroups(): IterableIterator<UrlGroup> {
    return this.groups.values();
  }

  putUrlGroup(group: UrlGroup): void {
    this.write([{ op: 'urlGroup', group }]);
  }

  removeUrlGroup(name: string): void {
    this.write([{ op: 'unUrlGroup', name }]);
  }

  schedule(id: string): Schedule | undefined {
    return this.scheduleMap.get(id);
  }

  schedules(): IterableIterator<Schedule> {
    return this.scheduleMap.values();
  }

  putSchedule(schedule: Schedule): void {
    this.write([{ op: 'schedule', schedule }]);
  }

  removeSchedule(id: string): void {
    this.write([{ op: 'unschedule', id }]);
  }

  /** A schedule fired at `at` and made `messages`: one write, so a crash keeps both or neither. */
  fired(id: string, at: number, messages: readonly QueueMessage[]): void {
    this.write([{ op: 'fired', id, at }, ...messages.map((message): Op => ({ op: 'put', message }))]);
  }

  /** A workflow run ends; `finished` are its pending messages, dropped with it. */
  endRun(end: RunEnd, finished: readonly string[]): void {
    this.write([{ op: 'runEnd', ...end }, ...finished.map((id): Op => ({ op: 'done', id }))]);
  }

  /** A workflow run changes; `then` are messages it makes, `dlqId` a dead letter it consumes. */
  changeRun(change: RunChange, then: readonly QueueMessage[] = [], dlqId?: string): void {
    const undlq: Op[] = dlqId === undefined ? [] : [{ op: 'undlq', dlqId }];
    this.write([{ op: 'runChange', change }, ...undlq, ...then.map((message): Op => ({ op: 'put', message }))]);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.shared !== null) return;
    if (this.generations.compacting) this.generations.compact({}, this.snapshotOps()); // else the next start replays what it took
    this.generations.close();
  }

  /** Writes what a failure held back, if it can now; the failure that still holds, or null. */
  writeFailure(): { readonly reason: string } | null {
    if (this.shared === null) return this.generations.log.retry();
    const reason = this.shared.failure();
    return reason === null ? null : { reason };
  }

  private write(ops: Op[]): void {
    if (this.shared !== null) {
      this.shared.persist(ops);
      for (const op of ops) this.apply(op);
      return;
    }
    const log = this.generations.log;
    for (const op of ops) log.append(encodeOp(op));
    try {
      log.flush();
    } catch (e) {
      log.discardPending();
      throw e;
    }
    for (const op of ops) this.apply(op);
    if (this.compactionQueued || !this.generations.wantsCompaction()) return;
    this.compactionQueued = true;
    queueMicrotask(() => {
      this.compactionQueued = false;
      if (this.closed) return;
      this.generations.compact({}, this.snapshotOps(), true);
    });
  }

  private apply(op: Op): void {
    switch (op.op) {
      case 'put': {
        const was = this.messages.get(op.message.id);
        if (was !== undefined) this.pendingOrder.remove(was.createdAt, was.id);
        this.messages.set(op.message.id, op.message);
        this.pendingOrder.add(op.message.createdAt, op.message.id);
        if (op.dedupKey !== undefined) this.dedup.set(op.dedupKey, { op: 'dedup', key: op.dedupKey, id: op.message.id, at: op.message.createdAt });
        this.runs.put(op.message);
        break;
      }
      case 'retry': {
        const m = this.messages.get(op.id);
        if (m === undefined) break;
        this.messages.set(op.id, { ...m, retried: op.retried, notBefore: op.notBefore });
        this.retries.set(op.id, op);
        this.leaseMap.delete(op.id);
        break;
      }
      case 'done': {
        const was = this.messages.get(op.id);
        if (was !== undefined) this.pendingOrder.remove(was.createdAt, was.id);
        this.messages.delete(op.id);
        this.retries.delete(op.id);
        this.leaseMap.delete(op.id);
        this.runs.done(op.id);
        break;
      }
      case 'dlq': {
        const was = this.dlqEntries.get(op.entry.dlqId);
        if (was !== undefined) this.dlqOrder.remove(was.failedAt, was.dlqId);
        this.dlqEntries.set(op.entry.dlqId, op.entry);
        this.dlqOrder.add(op.entry.failedAt, op.entry.dlqId);
        this.runs.deadLetter(op.entry);
        break;
      }
      case 'undlq': {
        const was = this.dlqEntries.get(op.dlqId);
        if (was !== undefined) this.dlqOrder.remove(was.failedAt, was.dlqId);
        this.dlqEntries.delete(op.dlqId);
        break;
      }
      case 'dedup':
        this.dedup.set(op.key, op);
        break;
      case 'urlGroup':
        this.groups.set(op.group.name, op.group);
        break;
      case 'unUrlGroup':
        this.groups.delete(op.name);
        break;
      case 'schedule':
        this.scheduleMap.set(op.schedule.id, op.schedule);
        break;
      case 'unschedule':
        this.scheduleMap.delete(op.id);
        break;
      case 'fired': {
        const s = this.scheduleMap.get(op.id);
        if (s !== undefined) this.scheduleMap.set(op.id, { ...s, lastScheduleTime: op.at });
        break;
      }
      case 'queue':
        this.queueRecords.set(op.queue.name, op.queue);
        break;
      case 'unqueue':
        this.queueRecords.delete(op.name);
        break;
      case 'runEnd':
        this.runs.end(op);
        break;
      case 'run':
        this.runs.restore(op.run);
        break;
      case 'runChange':
        this.runs.change(op.change);
        break;
      case 'flow':
        this.flowRecords.set(op.flow.key, op.flow);
        break;
      case 'lease': {
        this.leaseMap.set(op.id, op);
        const key = this.messages.get(op.id)?.flowControl?.key;
        if (key !== undefined && op.until > op.at) this.flowStartTimes.set(key, [...(this.flowStartTimes.get(key) ?? []), op.at]);
        break;
      }
      case 'rateReset':
        this.rateResets.set(op.key, op.at);
        break;
      case 'secret':
        this.secretValues.set(op.name, op.value);
        break;
    }
  }

  /**
   * The state as it is now, restated as ops made and encoded as they are read: later changes do
   * not reach it (queue-snapshot.ts). Taking it copies references only.
   */
  snapshotOps(): QueueSnapshot {
    const runs = this.runs.frozen((run) => encodeOp({ op: 'run', run }));
    return new QueueSnapshot(runs, {
      dedup: [...this.dedup.values()],
      dedupExpired: this.now() - this.settings.deduplicationWindowMs,
      messages: [...this.messages.values()],
      retries: [...this.retries.values()],
      dlq: [...this.dlqEntries.values()],
      groups: [...this.groups.values()],
      schedules: [...this.scheduleMap.values()],
      queues: [...this.queueRecords.values()],
      flows: [...this.flowRecords.values()],
      leases: [...this.leaseMap.values()],
      rateResets: [...this.rateResets],
      secrets: [...this.secretValues],
    });
  }

  private decode(payload: Buffer, path: string, i: number): Op {
    try {
      return decodeOp(payload);
    } catch (e) {
      throw this.generations.corrupt(path, `frame ${i} passed its checksum but ${(e as Error).message}`);
    }
  }
}

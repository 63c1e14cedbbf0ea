// The delivery gates: the one place that decides whether a due message may start now.
// - A queue starts its messages in publish order, at most `parallelism` at a time. A message
//   holds its place and its slot from its first attempt until it is delivered, dead-lettered or
//   cancelled, so its retries hold back the messages behind it. A paused queue starts nothing,
//   retries included. Its callback and failure callback count as part of it: the next message
//   waits for them to finish too (not across a restart, where they run on their own).
// - A flow-control key lets at most `parallelism` attempts run at once and at most `rate` start
//   per period; the period begins with the first start after the previous one ended. A paused
//   key starts nothing.
// A message a gate refuses is parked with that gate (out of the scheduler's heap, so nothing
// polls it) and handed back by `woken()` once the gate may open: a slot freed, the rate period
// rolled (`nextWake()` says when), the gate resumed or its settings changed. Parked messages are
// still in the store; only cancelling one (`forget`) takes it out of a gate.
// Settings are durable (store `queue` and `flow` ops); what runs and the rate counters are not.
// On engine postgres another process's settings and finished messages arrive as its ops
// (`adopt*`, `gone`); parallelism and rate across processes are counted by the leases (leases.ts).
// Not safe for concurrent use; the scheduler owns it.

import { unknownFlowControlKey, unknownQueue, type QueueError } from '../errors.js';
import { DEFAULT_QUEUE_PARALLELISM, type FlowControlSetting, type FlowRecord, type QueueRecord } from '../store/gate-records.js';
import type { QueueMessage } from '../store/message.js';
import type { QueueStore } from '../store/queue-store.js';

interface QueueGate {
  rec: QueueRecord;
  /** Ids of the queue's unfinished messages (callbacks pending count as unfinished), in publish order; the active ones come first. */
  order: Set<string>;
  /** Messages that started and have not finished (in flight, or waiting for a retry). */
  active: Set<string>;
  waiting: Set<string>;
}

interface FlowGate {
  rec: FlowRecord;
  inFlight: number;
  periodStart: number;
  /** Starts since periodStart. */
  count: number;
  waiting: Set<string>;
}

/** A queue as GET /v2/queues answers it (the SDK's QueueResponse). */
export interface QueueView {
  name: string;
  parallelism: number;
  lag: number;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A flow-control key as GET /v2/flowControl answers it (the SDK's FlowControlInfo). */
export interface FlowView {
  flowControlKey: string;
  waitListSize: number;
  parallelismMax: number;
  parallelismCount: number;
  rateMax: number;
  rateCount: number;
  /** Seconds. */
  ratePeriod: number;
  /** Unix seconds. */
  ratePeriodStart: number;
  isPaused: boolean;
  isPinnedParallelism: boolean;
  isPinnedRate: boolean;
}

export interface PinSettings {
  parallelism?: number;
  rate?: number;
  periodMs?: number;
}

export class Gates {
  private readonly queues = new Map<string, QueueGate>();
  private readonly flows = new Map<string, FlowGate>();
  /** Keys with parked messages and no rate left in their period: the timer wakes them. */
  private readonly rateBlocked = new Set<FlowGate>();
  /** Callback message id -> the queue message it was made by, which keeps its place until they finish. */
  private readonly followUps = new Map<string, { queue: string; source: string }>();
  /** Queue message id -> how many of its callbacks have not finished. */
  private readonly unfinished = new Map<string, number>();
  private wake: string[] = [];

  /** `poke` asks the scheduler for a pass soon: messages were woken outside one (a resume, a pin). */
  constructor(
    private readonly store: QueueStore,
    private readonly now: () => number,
    private readonly poke: () => void,
  ) {
    for (const rec of store.queues()) this.queues.set(rec.name, queueGate({ ...rec }));
    for (const rec of store.flows()) this.flows.set(rec.key, flowGate({ ...rec }));
  }

  /** A message was accepted: it joins the end of its queue (made if new), and its flow-control settings apply. */
  add(m: QueueMessage): void {
    if (m.queueName !== undefined) this.queueOf(m.queueName).order.add(m.id);
    if (m.flowControl !== undefined) this.configure(m.flowControl);
  }

  /** A message found in the store at start: as add, but the keys keep their recorded settings. */
  restore(m: QueueMessage): void {
    if (m.queueName !== undefined) this.queueOf(m.queueName).order.add(m.id);
    if (m.flowControl !== undefined && !this.flows.has(m.flowControl.key)) this.configure(m.flowControl);
  }

  /** Whether `m` may start now; if so it counts as started, if not it is parked until woken. */
  admit(m: QueueMessage): boolean {
    const q = m.queueName === undefined ? undefined : this.queues.get(m.queueName);
    if (q !== undefined && !queueOpen(q, m.id)) {
      q.waiting.add(m.id);
      return false;
    }
    const f = m.flowControl === undefined ? undefined : this.flows.get(m.flowControl.key);
    if (f !== undefined && !this.flowOpen(f)) {
      f.waiting.add(m.id);
      this.openFlow(f);
      return false;
    }
    if (q !== undefined) {
      q.active.add(m.id);
      this.openQueue(q);
    }
    if (f !== undefined) {
      f.inFlight++;
      f.count++;
    }
    return true;
  }

  /** A queue message finished and made these callbacks: it keeps its place until they finish. */
  follow(source: QueueMessage, callbacks: readonly QueueMessage[]): void {
    if (source.queueName === undefined || callbacks.length === 0 || !this.queues.has(source.queueName)) return;
    for (const c of callbacks) this.followUps.set(c.id, { queue: source.queueName, source: source.id });
    this.unfinished.set(source.id, callbacks.length);
  }

  /**
   * An attempt of `m` ended; `gone` when the message left the store (delivered, dead-lettered,
   * cancelled); `neverStarted` when its lease was refused, so it did not start at all.
   */
  release(m: QueueMessage, gone: boolean, neverStarted = false): void {
    const q = m.queueName === undefined ? undefined : this.queues.get(m.queueName);
    if (q !== undefined) {
      if (gone && !this.unfinished.has(m.id)) this.leave(q, m.id);
      this.openQueue(q);
    }
    if (gone) this.followUpDone(m.id);
    const f = m.flowControl === undefined ? undefined : this.flows.get(m.flowControl.key);
    if (f !== undefined) {
      f.inFlight = Math.max(0, f.inFlight - 1);
      // Admitted but not leased (engine postgres): it used none of the key's rate here.
      if (neverStarted) f.count = Math.max(0, f.count - 1);
      this.openFlow(f);
    }
  }

  /** A message was cancelled: it leaves its queue and any wait list. */
  forget(m: QueueMessage): void {
    const q = m.queueName === undefined ? undefined : this.queues.get(m.queueName);
    if (q !== undefined) {
      q.waiting.delete(m.id);
      this.leave(q, m.id);
      this.openQueue(q);
    }
    this.followUpDone(m.id);
    if (m.flowControl !== undefined) this.flows.get(m.flowControl.key)?.waiting.delete(m.id);
  }

  /** Parked messages that may start now, each handed back once. */
  woken(): string[] {
    const now = this.now();
    for (const f of this.rateBlocked) if (now >= f.periodStart + f.rec.periodMs) this.openFlow(f);
    const out = this.wake;
    this.wake = [];
    return out;
  }

  /** Whether messages were woken since the last woken(). */
  hasWoken(): boolean {
    return this.wake.length > 0;
  }

  /** When the next rate period of a key with parked messages begins; Infinity when none waits on a rate. */
  nextWake(): number {
    let at = Infinity;
    for (const f of this.rateBlocked) at = Math.min(at, f.periodStart + f.rec.periodMs);
    return at;
  }

  /** A queue's settings as another process wrote them (engine postgres). */
  adoptQueue(rec: QueueRecord): void {
    const q = this.queues.get(rec.name);
    if (q === undefined) this.queues.set(rec.name, queueGate({ ...rec }));
    else {
      Object.assign(q.rec, rec);
      this.openQueue(q);
    }
  }

  /** Another process deleted a queue (engine postgres). */
  dropQueue(name: string): void {
    this.queues.delete(name);
  }

  /** A flow-control key's settings as another process wrote them (engine postgres). */
  adoptFlow(rec: FlowRecord): void {
    const f = this.flows.get(rec.key);
    if (f === undefined) this.flows.set(rec.key, flowGate({ ...rec }));
    else {
      Object.assign(f.rec, rec);
      this.openFlow(f);
    }
  }

  /** The store was rebuilt (engine postgres): its queues and keys as they stand; messages no longer in it leave. */
  resync(): void {
    for (const rec of this.store.queues()) this.adoptQueue(rec);
    for (const rec of this.store.flows()) this.adoptFlow(rec);
    for (const name of this.queues.keys()) if (this.store.queueRecord(name) === undefined) this.queues.delete(name);
    const ids = new Set<string>();
    for (const q of this.queues.values()) for (const id of q.order) ids.add(id);
    for (const f of this.flows.values()) for (const id of f.waiting) ids.add(id);
    for (const id of ids) if (this.store.get(id) === undefined) this.gone(id);
  }

  /** A message left the store in another process (delivered, dead-lettered, cancelled): it leaves its queue and wait list. */
  gone(id: string): void {
    for (const q of this.queues.values()) {
      if (!q.order.has(id)) continue;
      q.waiting.delete(id);
      this.leave(q, id);
      this.openQueue(q);
    }
    for (const f of this.flows.values()) f.waiting.delete(id);
    this.followUpDone(id);
  }

  // --- queues ---

  queue(name: string): QueueView | QueueError {
    const q = this.queues.get(name);
    return q === undefined ? unknownQueue(name) : queueView(q);
  }

  queueList(): QueueView[] {
    return [...this.queues.values()].map(queueView);
  }

  /** Makes a queue or changes its settings (POST /v2/queues). */
  upsertQueue(name: string, parallelism: number, paused: boolean): void {
    const q = this.queueOf(name, parallelism, paused);
    if (q.rec.parallelism === parallelism && q.rec.paused === paused) return;
    Object.assign(q.rec, { parallelism, paused, updatedAt: this.now() });
    this.store.putQueue(q.rec);
    this.openQueue(q);
  }

  pauseQueue(name: string, paused: boolean): QueueError | null {
    const q = this.queues.get(name);
    if (q === undefined) return unknownQueue(name);
    if (q.rec.paused !== paused) {
      Object.assign(q.rec, { paused, updatedAt: this.now() });
      this.store.putQueue(q.rec);
      this.openQueue(q);
    }
    return null;
  }

  /** Deletes a queue; the caller has cancelled its messages first. */
  deleteQueue(name: string): QueueError | null {
    if (!this.queues.delete(name)) return unknownQueue(name);
    this.store.removeQueue(name);
    return null;
  }

  /** Ids of the messages of a queue, in order. */
  queueMessages(name: string): string[] {
    return [...(this.queues.get(name)?.order ?? [])];
  }

  // --- flow control ---

  flow(key: string): FlowView | QueueError {
    const f = this.flows.get(key);
    return f === undefined ? unknownFlowControlKey(key) : this.flowView(f);
  }

  flowList(): FlowView[] {
    return [...this.flows.values()].map((f) => this.flowView(f));
  }

  pauseFlow(key: string, paused: boolean): QueueError | null {
    return this.changeFlow(key, (r) => (r.paused = paused));
  }

  /** Fixes parallelism and/or rate (with period): messages stop changing them until unpinned. */
  pin(key: string, s: PinSettings): QueueError | null {
    return this.changeFlow(key, (r) => {
      if (s.parallelism !== undefined) Object.assign(r, { parallelism: s.parallelism, pinnedParallelism: true });
      if (s.rate !== undefined || s.periodMs !== undefined) Object.assign(r, { rate: s.rate ?? r.rate, periodMs: s.periodMs ?? r.periodMs, pinnedRate: true });
    });
  }

  /** Lets messages change the settings again; the current ones stay until the next message. */
  unpin(key: string, parallelism: boolean, rate: boolean): QueueError | null {
    return this.changeFlow(key, (r) => {
      if (parallelism) r.pinnedParallelism = false;
      if (rate) r.pinnedRate = false;
    });
  }

  /** Ends the current rate period: the count restarts from now. */
  resetRate(key: string): QueueError | null {
    const f = this.flows.get(key);
    if (f === undefined) return unknownFlowControlKey(key);
    const now = this.now();
    // Engine postgres: a claim counts the deliveries every process started (leases.ts); they stop counting too.
    if (this.store.isShared) this.store.resetFlowRate(key, now);
    this.restartPeriod(f, now);
    return null;
  }

  /** Another process reset a key's rate at `at` (engine postgres). */
  adoptRateReset(key: string, at: number): void {
    const f = this.flows.get(key);
    if (f !== undefined) this.restartPeriod(f, at);
  }

  private changeFlow(key: string, change: (r: FlowRecord) => void): QueueError | null {
    const f = this.flows.get(key);
    if (f === undefined) return unknownFlowControlKey(key);
    const before = JSON.stringify(f.rec);
    change(f.rec);
    if (JSON.stringify(f.rec) !== before) this.store.putFlow(f.rec);
    this.openFlow(f);
    return null;
  }

  private leave(q: QueueGate, id: string): void {
    q.order.delete(id);
    q.active.delete(id);
  }

  /** A callback finished (or was cancelled); the last one of a queue message frees its place. */
  private followUpDone(id: string): void {
    const f = this.followUps.get(id);
    if (f === undefined) return;
    this.followUps.delete(id);
    const left = (this.unfinished.get(f.source) ?? 1) - 1;
    if (left > 0) {
      this.unfinished.set(f.source, left);
      return;
    }
    this.unfinished.delete(f.source);
    const q = this.queues.get(f.queue);
    if (q === undefined) return;
    this.leave(q, f.source);
    this.openQueue(q);
  }

  private queueOf(name: string, parallelism = DEFAULT_QUEUE_PARALLELISM, paused = false): QueueGate {
    let q = this.queues.get(name);
    if (q !== undefined) return q;
    const now = this.now();
    q = queueGate({ name, parallelism, paused, createdAt: now, updatedAt: now });
    this.queues.set(name, q);
    this.store.putQueue(q.rec);
    return q;
  }

  /** The latest message's settings become the key's, except those pinned. */
  private configure(s: FlowControlSetting): void {
    const f = this.flows.get(s.key);
    if (f === undefined) {
      const rec: FlowRecord = { ...s, paused: false, pinnedParallelism: false, pinnedRate: false };
      this.flows.set(s.key, flowGate(rec));
      this.store.putFlow(rec);
      return;
    }
    const r = f.rec;
    const parallelism = r.pinnedParallelism ? r.parallelism : s.parallelism;
    const [rate, periodMs] = r.pinnedRate ? [r.rate, r.periodMs] : [s.rate, s.periodMs];
    if (parallelism === r.parallelism && rate === r.rate && periodMs === r.periodMs) return;
    Object.assign(r, { parallelism, rate, periodMs });
    this.store.putFlow(r);
    this.openFlow(f);
  }

  /** Wakes the parked messages of a queue that may start: active ones (retries), then the next in line. */
  private openQueue(q: QueueGate): void {
    if (q.rec.paused || q.waiting.size === 0) return;
    for (const id of q.order) {
      if (q.active.has(id)) {
        if (q.waiting.delete(id)) this.woke(id);
        continue;
      }
      if (q.active.size < q.rec.parallelism && q.waiting.delete(id)) this.woke(id);
      return;
    }
  }

  private flowOpen(f: FlowGate): boolean {
    const r = f.rec;
    if (r.paused || (r.parallelism > 0 && f.inFlight >= r.parallelism)) return false;
    if (r.rate === 0) return true;
    this.roll(f);
    return f.count < r.rate;
  }

  /** Wakes as many parked messages of a key as it may start now; notes a key waiting on its rate. */
  private openFlow(f: FlowGate): void {
    const r = f.rec;
    this.rateBlocked.delete(f);
    if (r.paused || f.waiting.size === 0) return;
    let slots = r.parallelism > 0 ? r.parallelism - f.inFlight : Infinity;
    if (r.rate > 0) {
      this.roll(f);
      if (f.count >= r.rate) this.rateBlocked.add(f);
      slots = Math.min(slots, r.rate - f.count);
    }
    for (const id of f.waiting) {
      if (slots-- <= 0) break;
      f.waiting.delete(id);
      this.woke(id);
    }
  }

  private woke(id: string): void {
    if (this.wake.length === 0) this.poke();
    this.wake.push(id);
  }

  private restartPeriod(f: FlowGate, at: number): void {
    f.periodStart = at;
    f.count = 0;
    this.openFlow(f);
  }

  private roll(f: FlowGate): void {
    const now = this.now();
    if (now < f.periodStart + f.rec.periodMs) return;
    f.periodStart = now;
    f.count = 0;
  }

  private flowView(f: FlowGate): FlowView {
    const r = f.rec;
    const current = this.now() < f.periodStart + r.periodMs;
    return {
      flowControlKey: r.key,
      waitListSize: f.waiting.size,
      parallelismMax: r.parallelism,
      parallelismCount: f.inFlight,
      rateMax: r.rate,
      rateCount: current ? f.count : 0,
      ratePeriod: r.periodMs / 1000,
      ratePeriodStart: Math.floor(f.periodStart / 1000),
      isPaused: r.paused,
      isPinnedParallelism: r.pinnedParallelism,
      isPinnedRate: r.pinnedRate,
    };
  }
}

const queueGate = (rec: QueueRecord): QueueGate => ({ rec, order: new Set(), active: new Set(), waiting: new Set() });
const flowGate = (rec: FlowRecord): FlowGate => ({ rec, inFlight: 0, periodStart: 0, count: 0, waiting: new Set() });

/** Active messages (retries) may go on; otherwise only the first not yet started, while a slot is free. */
function queueOpen(q: QueueGate, id: string): boolean {
  if (q.rec.paused) return false;
  if (q.active.has(id)) return true;
  if (q.active.size >= q.rec.parallelism) return false;
  for (const first of q.order) if (!q.active.has(first)) return first === id;
  return false;
}

function queueView(q: QueueGate): QueueView {
  const r = q.rec;
  return { name: r.name, parallelism: r.parallelism, lag: q.order.size, paused: r.paused, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

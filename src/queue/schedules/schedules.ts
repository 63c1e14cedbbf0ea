// Schedules (`/v2/schedules`): each fires by publishing a copy of its template message to its
// destination (a URL, or every endpoint of a URL group, resolved at firing time) with
// Upstash-Schedule-Id. One timer waits for the earliest due schedule. A firing is one store
// write (the fired time and the messages), so a crash keeps both or neither.
// Times missed while the server was down are not replayed one by one: a schedule whose next
// time passed fires once at start, then follows its cron from then on. Paused schedules are
// not timed; resuming one times it from the moment it resumes.
// On engine postgres every process times every schedule (`follow` learns those others change)
// and a firing is a unit of work that skips a tick another process already fired, so each
// tick fires once whichever processes run.
// Not safe for concurrent use; the service's JS thread owns it.

import type { Scheduler } from '../delivery/scheduler.js';
import { invalidScheduleId, unknownSchedule, type QueueError, isError } from '../errors.js';
import { LONGEST_TIMER_MS } from '../options/duration.js';
import type { EventLog } from '../store/event-log.js';
import { newMessageId, type QueueMessage } from '../store/message.js';
import type { Op } from '../store/ops.js';
import { STORE_RETRY_MS, type QueueStore } from '../store/queue-store.js';
import { newScheduleId, type Schedule } from '../store/schedule.js';
import { isUrlGroupName } from '../url-groups.js';
import { parseCron, type CronSchedule } from './cron.js';

/** What a create (or replace) asks for. */
export interface ScheduleRequest {
  id?: string;
  cron: string;
  destination: string;
  delayMs: number;
  template: QueueMessage;
}

export class Schedules {
  private readonly crons = new Map<string, CronSchedule>();
  /** The next firing time of every schedule that is not paused. */
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly store: QueueStore,
    private readonly events: EventLog,
    private readonly scheduler: Scheduler,
    private readonly maxPending: number,
    private readonly now: () => number,
  ) {}

  /** Times every stored schedule; one whose next time passed while the server was down fires now. */
  start(): void {
    const now = this.now();
    for (const s of this.store.schedules()) {
      const cron = parseCron(s.cron, now);
      if (isError(cron)) continue; // accepted once, so only a changed cron grammar gets here
      this.crons.set(s.id, cron);
      if (!s.paused) this.time(s.id, cron.next(s.lastScheduleTime ?? s.createdAt));
    }
    this.arm();
  }

  /** Creates a schedule, or replaces the settings of the one with the given id (keeping its state). */
  create(r: ScheduleRequest): Schedule | QueueError {
    const now = this.now();
    const cron = parseCron(r.cron, now);
    if (isError(cron)) return cron;
    if (r.id !== undefined && !/^[A-Za-z0-9._-]+$/.test(r.id)) return invalidScheduleId(r.id);
    const id = r.id ?? newScheduleId();
    const old = this.store.schedule(id);
    const s: Schedule = { id, cron: r.cron, destination: r.destination, createdAt: old?.createdAt ?? now, paused: old?.paused ?? false, delayMs: r.delayMs, template: r.template };
    if (old?.lastScheduleTime !== undefined) s.lastScheduleTime = old.lastScheduleTime;
    this.store.putSchedule(s);
    this.crons.set(id, cron);
    if (!s.paused) this.time(id, cron.next(now));
    this.arm();
    return s;
  }

  get(id: string): Schedule | QueueError {
    return this.store.schedule(id) ?? unknownSchedule(id);
  }

  list(): Schedule[] {
    return [...this.store.schedules()].sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The next time it fires (for a paused one, when it would). */
  nextTime(s: Schedule): number | undefined {
    return this.due.get(s.id) ?? this.crons.get(s.id)?.next(this.now()) ?? undefined;
  }

  delete(id: string): QueueError | null {
    if (this.store.schedule(id) === undefined) return unknownSchedule(id);
    this.store.removeSchedule(id);
    this.crons.delete(id);
    this.due.delete(id);
    this.arm();
    return null;
  }

  /** Pausing a paused schedule (or resuming a running one) changes nothing. */
  setPaused(id: string, paused: boolean): QueueError | null {
    const s = this.store.schedule(id);
    if (s === undefined) return unknownSchedule(id);
    if (s.paused === paused) return null;
    this.store.putSchedule({ ...s, paused });
    if (paused) this.due.delete(id);
    else this.time(id, this.crons.get(id)?.next(this.now()) ?? null);
    this.arm();
    return null;
  }

  /** Schedules another process made, changed or deleted (engine postgres). */
  follow(ops: readonly Op[]): void {
    const now = this.now();
    let changed = false;
    for (const op of ops) {
      if (op.op === 'schedule') {
        const cron = parseCron(op.schedule.cron, now);
        if (isError(cron)) continue;
        this.crons.set(op.schedule.id, cron);
        this.time(op.schedule.id, op.schedule.paused ? null : cron.next(now));
        changed = true;
      } else if (op.op === 'unschedule') {
        this.crons.delete(op.id);
        this.due.delete(op.id);
        changed = true;
      }
    }
    if (changed) this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private time(id: string, at: number | null): void {
    if (at === null) this.due.delete(id);
    else this.due.set(id, at);
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed) return;
    let first = Infinity;
    for (const at of this.due.values()) first = Math.min(first, at);
    if (first === Infinity) return;
    this.timer = setTimeout(() => this.tick(), Math.min(LONGEST_TIMER_MS, Math.max(0, first - this.now())));
  }

  private tick(): void {
    this.timer = null;
    // While the store cannot write, firings wait; a time missed meanwhile is skipped, as when late.
    if (this.store.writeFailure() !== null) return this.retryLater();
    const fired = this.store.unit(() => this.fireDue());
    if (fired instanceof Promise) fired.then(() => this.arm(), () => this.retryLater());
    else this.arm();
  }

  private retryLater(): void {
    if (!this.closed) this.timer = setTimeout(() => this.tick(), STORE_RETRY_MS);
  }

  private fireDue(): void {
    const now = this.now();
    for (const [id, at] of this.due) {
      if (at > now) continue;
      const s = this.store.schedule(id);
      if (s === undefined || s.paused) {
        this.due.delete(id);
        continue;
      }
      // Fired for this time already: by another process on the same PostgreSQL.
      if (s.lastScheduleTime === undefined || s.lastScheduleTime < at) this.fire(s, now);
      // Late by more than one period (a stalled loop): the missed times are skipped, not queued.
      this.time(id, this.crons.get(id)?.next(Math.max(now, at)) ?? null);
    }
  }

  private fire(s: Schedule, now: number): void {
    const targets = isUrlGroupName(s.destination)
      ? (this.store.urlGroup(s.destination)?.endpoints ?? []).map((e) => ({ url: e.url, topicName: s.destination, endpointName: e.name }))
      : [{ url: s.destination, topicName: undefined, endpointName: undefined }];
    let messages = targets.map((t) => {
      const m: QueueMessage = { ...structuredClone(s.template), id: newMessageId(), url: t.url, createdAt: now, notBefore: now + s.delayMs, retried: 0, scheduleId: s.id };
      if (t.topicName !== undefined) m.topicName = t.topicName;
      if (t.endpointName !== undefined) m.endpointName = t.endpointName;
      return m;
    });
    // Over the pending limit the firing is recorded but publishes nothing, as a publish would be refused.
    if (this.store.size + messages.length > this.maxPending) messages = [];
    this.store.fired(s.id, now, messages);
    for (const m of messages) {
      this.events.add('CREATED', m);
      this.scheduler.schedule(m);
    }
  }
}

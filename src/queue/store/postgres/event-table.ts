// The events of /v2/logs in PostgreSQL (engine postgres), the `events` table: what event-file.ts
// is on the embedded engine. Events are diagnostics, not state: those of one tick are inserted
// together after it, apart from the units of work, under an advisory lock of their own so that
// `seq` order is commit order. Each process keeps the newest in memory (event-log.ts) and reads
// the other processes' events before a request reads (`catchUp`). While PostgreSQL refuses
// writes, a tick's events stay in memory only (logged once per failing spell).
// Not safe for concurrent use; the service's JS thread owns it.

import type { Sql } from 'postgres';
import type { Logger } from '../../../server/log.js';
import type { EventLog, EventSink, QueueEvent } from '../event-log.js';
import { insertRuns } from './connect.js';
import { reasonOf } from './failure.js';
import { LOCK } from './migrations.js';

export class EventTable implements EventSink {
  private pending: QueueEvent[] = [];
  private flushing: Promise<void> | null = null;
  /** The newest event of another process this one has read. */
  private seen = 0;
  private refused = false;
  /** Set once the event log that reads others' events exists. */
  log: EventLog | null = null;

  private constructor(
    private readonly sql: Sql,
    private readonly schema: string,
    private readonly origin: string,
    /** Rows kept: the previous and the current `maxLogEvents`, as event-log.ts keeps them. */
    private readonly keep: number,
    private readonly logger: Logger,
  ) {}

  /** The table and the newest events it holds, oldest first (all of them count as current). */
  static async open(sql: Sql, schema: string, origin: string, maxLogEvents: number, logger: Logger): Promise<{ table: EventTable; events: QueueEvent[] }> {
    const table = new EventTable(sql, schema, origin, 2 * maxLogEvents, logger);
    const rows = await sql<{ seq: string; payload: Buffer }[]>`select seq, payload from events order by seq desc limit ${maxLogEvents}`;
    table.seen = rows.length === 0 ? 0 : Number(rows[0].seq);
    return { table, events: rows.reverse().map((r) => JSON.parse(r.payload.toString('utf8')) as QueueEvent) };
  }

  append(e: QueueEvent): void {
    this.pending.push(e);
    if (this.pending.length === 1) queueMicrotask(() => void this.flush());
  }

  rotate(): void {
    void this.trim(this.keep);
  }

  replace(events: readonly QueueEvent[]): void {
    void this.trim(events.length);
  }

  close(): void {
    this.log = null;
  }

  /** Waits for the events appended so far to be written (before the pool closes). */
  async flushed(): Promise<void> {
    while (this.flushing !== null || this.pending.length > 0) await (this.flushing ?? this.flush());
  }

  /** Reads the events other processes wrote since the last read into the event log. */
  async catchUp(): Promise<void> {
    const rows = await this.sql<{ seq: string; payload: Buffer }[]>`select seq, payload from events where seq > ${this.seen} and origin <> ${this.origin} order by seq`;
    for (const r of rows) {
      const seq = Number(r.seq);
      if (seq <= this.seen) continue;
      this.seen = seq;
      this.log?.receive(JSON.parse(r.payload.toString('utf8')) as QueueEvent);
    }
  }

  private flush(): Promise<void> {
    if (this.flushing !== null || this.pending.length === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    const rows = batch.map((e) => ({ origin: this.origin, payload: Buffer.from(JSON.stringify(e)) }));
    this.flushing = this.sql
      .begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${LOCK.events}, hashtext(${this.schema}))`;
        for (const run of insertRuns(rows, 2)) await tx`insert into events ${tx(run)}`;
      })
      .then(
        () => {
          this.refused = false;
        },
        (err: unknown) => {
          if (!this.refused) this.logger.warn({ reason: reasonOf(err) }, 'queue events cannot be written to PostgreSQL; new events stay in memory until they can');
          this.refused = true;
        },
      )
      .finally(() => {
        this.flushing = null;
        if (this.pending.length > 0) void this.flush();
      });
    return this.flushing;
  }

  /** Deletes all but the newest `rows` events; a failure leaves them for the next rotation to delete. */
  private async trim(rows: number): Promise<void> {
    await this.sql`delete from events where seq < (select min(seq) from (select seq from events order by seq desc limit ${rows}) newest)`.catch(() => undefined);
  }
}

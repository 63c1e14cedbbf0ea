// The queue's op log in PostgreSQL (engine postgres), shared by every Larder process on the
// schema. Each process keeps the store (queue-store.ts) as a replica: the snapshot row and the
// ops after it at open, then the ops others commit, fetched when a NOTIFY says there are some
// (and every POLL_MS in case a notification was lost), and before every read a request makes.
//
// Writes are units of work. A unit takes the write lock (one advisory lock per schema, held to
// the end of its transaction), fetches what it has not applied, runs its work against the
// replica (the work decides synchronously, as on the embedded engine: dedup, leases, whether a
// schedule's tick fired), inserts the ops the work wrote and commits; only then does the unit
// resolve and the change get answered. Units waiting in this process share one transaction
// (group commit). Because every op is inserted under the lock, `seq` order is commit order,
// and fetching `seq > last applied` misses nothing.
//
// Faults: a unit that cannot commit (PostgreSQL stopped, unreachable) rejects with
// SharedLogUnavailable (the service answers 503); `failure()` says why until a probe or a unit
// gets through. If its work had already applied ops, the replica is rebuilt from PostgreSQL
// before anything else is fetched, so uncommitted state never lingers.
// Compaction: a process whose applied ops since the snapshot pass `compactAfterBytes` writes a
// new snapshot row (under the write lock) and deletes the ops it covers; a process that finds
// the snapshot newer than its last op reloads from it.
// Not safe for concurrent use; the service's JS thread owns it.

import type { Sql, TransactionSql } from 'postgres';
import type { Logger } from '../../../server/log.js';
import { frame, readFrames } from '../../../storage/frames.js';
import { decodeOp, encodeOp, type Op } from '../ops.js';
import type { QueueStore, SharedLog } from '../queue-store.js';
import { LOCK } from './migrations.js';
import { insertRuns } from './connect.js';
import { reasonOf, SharedLogUnavailable } from './failure.js';

/** The pool, or one transaction's connection. */
type Db = Sql | TransactionSql;

/** How often a process looks for others' ops without being notified. */
const POLL_MS = 1000;
/** Most units one transaction commits together. */
const MAX_UNITS_PER_COMMIT = 256;

interface Unit {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface SharedLogSettings {
  schema: string;
  /** This process, as it names itself in leases and events. */
  origin: string;
  compactAfterBytes: number;
}

export class PostgresLog implements SharedLog {
  /** The last op applied to the replica. */
  private seq = 0;
  /** Op bytes since the snapshot: compaction is due past settings.compactAfterBytes. */
  private bytesSinceSnapshot = 0;
  /** The ops the running units wrote; null outside a unit. */
  private batch: Op[] | null = null;
  private readonly waiting: Unit[] = [];
  /** Commits the waiting units, one transaction after another; null when none wait. */
  private draining: Promise<void> | null = null;
  private failed: string | null = null;
  private probing = false;
  /** The replica holds ops no commit confirmed: rebuild it before fetching more. */
  private dirty = false;
  private fetching: Promise<void> | null = null;
  private fetchAgain: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;
  /** Ops other processes committed, after the replica applied them (the scheduler follows them). */
  onRemote: ((ops: readonly Op[]) => void) | null = null;
  /** The replica was rebuilt (a snapshot passed it, or a commit failed): ops it did not see as ops are in it now. */
  onReload: (() => void) | null = null;

  private constructor(
    private readonly sql: Sql,
    private readonly store: QueueStore,
    private readonly s: SharedLogSettings,
    private readonly log: Logger,
  ) {}

  /** Loads the replica into `store` and starts following the others' commits. */
  static async open(sql: Sql, store: QueueStore, s: SharedLogSettings, log: Logger): Promise<PostgresLog> {
    const shared = new PostgresLog(sql, store, s, log);
    await shared.reload(sql);
    store.share(shared);
    const listening = await sql.listen(shared.channel, () => shared.poke());
    shared.unlisten = listening.unlisten;
    shared.timer = setInterval(() => shared.poke(), POLL_MS);
    shared.timer.unref();
    return shared;
  }

  /** The NOTIFY channel of the schema's commits. */
  get channel(): string {
    return `larder_queue_${this.s.schema}`;
  }

  get origin(): string {
    return this.s.origin;
  }

  persist(ops: readonly Op[]): void {
    if (this.batch === null) throw new Error('queue store written outside a unit of work (engine postgres)');
    for (const op of ops) this.batch.push(op); // a batch publish may put more messages than a call takes arguments
  }

  unit<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.kick();
    });
  }

  catchUp(): Promise<void> {
    // A fetch already running may have started before the caller's write was acknowledged: queue one more.
    if (this.fetchAgain !== null) return this.fetchAgain;
    if (this.fetching === null) return this.startFetch();
    const again = this.fetching.then(
      () => this.startFetch(),
      () => this.startFetch(),
    );
    this.fetchAgain = again;
    return again;
  }

  failure(): string | null {
    if (this.failed !== null && !this.probing && !this.closed) {
      this.probing = true;
      this.catchUp()
        .then(() => this.recovered())
        .catch((e: unknown) => this.fail(e))
        .finally(() => (this.probing = false));
    }
    return this.failed;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    // Units still waiting get their answer (or their refusal) before the pool ends.
    await this.draining;
    await this.unlisten?.().catch(() => undefined);
    await this.sql.end({ timeout: 5 });
  }

  private poke(): void {
    if (this.closed || this.fetching !== null) return;
    this.catchUp().catch((e: unknown) => this.fail(e));
  }

  private startFetch(): Promise<void> {
    this.fetchAgain = null;
    const run = this.fetch(this.sql).finally(() => {
      if (this.fetching === run) this.fetching = null;
    });
    this.fetching = run;
    return run;
  }

  /** Applies the ops committed since the last one applied (reloading when a snapshot passed it). */
  private async fetch(sql: Db): Promise<void> {
    if (this.dirty) return this.reload(sql);
    // One statement, so one view of both tables: a compaction committing between two reads
    // would hide the ops it deleted. The snapshot's row comes even when no op follows.
    const since = this.seq;
    const rows = await sql<{ upto: string | null; seq: string | null; payload: Buffer | null }[]>`
      select s.upto, o.seq, o.payload from (select max(upto) as upto from snapshot) s
      left join ops o on o.seq > ${since} order by o.seq`;
    // Measured against what is applied now: a fetch that answered late may be behind it.
    if (rows[0].upto !== null && Number(rows[0].upto) > this.seq) return this.reload(sql);
    const remote: Op[] = [];
    for (const r of rows) {
      if (r.seq === null || r.payload === null) continue;
      const seq = Number(r.seq);
      // Another fetch (or this process's own commit) may have applied it meanwhile.
      if (seq <= this.seq) continue;
      const op = decodeOp(r.payload);
      this.store.replay(op);
      this.seq = seq;
      this.bytesSinceSnapshot += r.payload.length;
      remote.push(op);
    }
    if (remote.length > 0) this.follow(() => this.onRemote?.(remote));
  }

  /** Hands others' changes to the scheduler; a bug there is logged, never taken for PostgreSQL failing. */
  private follow(hand: () => void): void {
    try {
      hand();
    } catch (err) {
      this.log.error({ err }, "following another process's queue changes failed");
    }
  }

  /** Rebuilds the replica from the snapshot and every op after it. */
  private async reload(sql: Db): Promise<void> {
    // One statement (one view): the snapshot row first, then the ops after it.
    const rows = await sql<{ snapshot: boolean; seq: string; payload: Buffer }[]>`
      select true as snapshot, upto as seq, payload from snapshot
      union all select false, seq, payload from ops order by snapshot desc, seq`;
    // A unit began meanwhile: its own fetch, under the lock, brings the replica up to date;
    // clearing now would drop the ops it applied and has not committed yet.
    if (this.batch !== null && sql === this.sql) return;
    this.store.clear();
    this.seq = 0;
    this.bytesSinceSnapshot = 0;
    for (const r of rows) {
      if (r.snapshot) {
        for (const p of readFrames(r.payload).frames) this.store.replay(decodeOp(p));
        this.seq = Number(r.seq);
        continue;
      }
      if (Number(r.seq) <= this.seq) continue;
      this.store.replay(decodeOp(r.payload));
      this.seq = Number(r.seq);
      this.bytesSinceSnapshot += r.payload.length;
    }
    this.dirty = false;
    this.follow(() => this.onReload?.());
  }

  private kick(): void {
    if (this.draining !== null) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      // Units that came while the last step settled.
      if (this.waiting.length > 0) this.kick();
    });
  }

  /** Never rejects: a unit's failure goes to its caller, a compaction's to the log. */
  private async drain(): Promise<void> {
    while (this.waiting.length > 0) await this.commit(this.waiting.splice(0, MAX_UNITS_PER_COMMIT));
    if (this.bytesSinceSnapshot > this.s.compactAfterBytes && !this.closed) await this.compact().catch((e: unknown) => this.log.warn({ reason: reasonOf(e) }, 'queue snapshot could not be written to PostgreSQL; trying again after the next write'));
  }

  private async commit(units: readonly Unit[]): Promise<void> {
    const results: Result[] = [];
    let applied = false;
    try {
      await this.sql.begin(async (tx) => {
        await this.lockAndFetch(tx);
        this.batch = [];
        for (const u of units) {
          try {
            results.push({ ok: true, value: await u.work() });
          } catch (error) {
            results.push({ ok: false, error });
          }
        }
        const ops = this.batch;
        this.batch = null;
        if (ops.length === 0) return;
        applied = true;
        const payloads = ops.map(encodeOp);
        // Sent together, in order, on the transaction's one connection.
        const inserts = [...insertRuns(payloads, 1)].map((run) => tx<{ seq: string }[]>`insert into ops ${tx(run.map((payload) => ({ payload })))} returning seq`);
        const [runs] = await Promise.all([Promise.all(inserts), tx`select pg_notify(${this.channel}, '')`]);
        for (const rows of runs) for (const r of rows) this.seq = Math.max(this.seq, Number(r.seq));
        for (const p of payloads) this.bytesSinceSnapshot += p.length;
      });
    } catch (e) {
      this.batch = null;
      // The work's ops are applied here but maybe not there: rebuild from what PostgreSQL holds.
      if (applied) this.dirty = true;
      const failure = this.fail(e);
      for (const u of units) u.reject(failure);
      return;
    }
    this.recovered();
    units.forEach((u, i) => {
      const r = results[i];
      if (r.ok) u.resolve(r.value);
      else u.reject(r.error);
    });
  }

  /**
   * Takes the write lock and fetches, in one round trip: the lock's query is sent at once
   * (execute) and the fetch's after it on the same connection, so it runs with the lock held.
   */
  private async lockAndFetch(tx: TransactionSql): Promise<void> {
    await Promise.all([tx`select pg_advisory_xact_lock(${LOCK.writes}, hashtext(${this.s.schema}))`.execute(), this.fetch(tx)]);
  }

  /** Writes the replica as the snapshot row and deletes the ops it covers. */
  private async compact(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await this.lockAndFetch(tx);
      // Another process compacted first (the fetch reloaded from its snapshot): nothing to do.
      if (this.bytesSinceSnapshot <= this.s.compactAfterBytes) return;
      const payload = Buffer.concat(Array.from(this.store.snapshotOps(), (p) => frame(p)));
      await tx`insert into snapshot (one, upto, payload) values (true, ${this.seq}, ${payload})
               on conflict (one) do update set upto = excluded.upto, payload = excluded.payload`;
      await tx`delete from ops where seq <= ${this.seq}`;
    });
    this.bytesSinceSnapshot = 0;
  }

  private fail(e: unknown): SharedLogUnavailable {
    const failure = e instanceof SharedLogUnavailable ? e : new SharedLogUnavailable(e);
    if (this.failed === null) this.log.warn({ reason: failure.reason }, 'the queue cannot reach PostgreSQL; writes are refused (503) and deliveries wait until it can');
    this.failed = failure.reason;
    return failure;
  }

  private recovered(): void {
    if (this.failed !== null) this.log.info('the queue reaches PostgreSQL again; writes and deliveries resume');
    this.failed = null;
  }
}

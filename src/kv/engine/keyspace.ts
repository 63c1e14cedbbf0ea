// The in-memory keyspace of one database. Not safe for concurrent use, and needs none: every
// command runs to completion on the one JS thread.
//
// Invariants:
// - `entries` maps a key to its live Entry; `order` holds the same entries sorted by `seq`
//   (append-only), plus dead ones awaiting compaction. SCAN cursors are seqs, which never
//   change, so a key present for a whole scan is always returned.
// - `volatile` holds exactly the keys whose entry has an expiry (exp > 0).
// - A key whose expiry has passed is deleted on first access (lazy) or by `expireCycle`
//   (active); either way `onExpired` is told, so the log records the deletion.
// - `atime` is the last access on the coarse clock `lruClock`, which `expireCycle` advances
//   (Redis's LRU clock, advanced by serverCron): `lookup` stamps it, `peek` does not, so
//   commands that only inspect a key (TTL, TYPE, OBJECT, SCAN) leave its idle time alone.

import type { Value } from './value.js';

export interface Entry {
  readonly key: string;
  value: Value;
  /** Absolute expiry in ms since the epoch; 0 = persistent. */
  exp: number;
  /** Insertion rank, the SCAN cursor position. */
  readonly seq: number;
  /** Last access in ms on the keyspace's coarse clock; OBJECT IDLETIME reads it. */
  atime: number;
  dead: boolean;
}

export type Clock = () => number;

export class Keyspace {
  private readonly entries = new Map<string, Entry>();
  private order: Entry[] = [];
  private deadInOrder = 0;
  private nextSeq = 1;
  private readonly volatile = new Set<string>();
  private sweep: Iterator<string> | null = null;
  private lruClock: number;
  /** Keys deleted because their time had passed, since startup (INFO's expired_keys). */
  expiredKeys = 0;
  /** While replaying the log nothing expires: the log's own DELs say what did. */
  loading = false;

  constructor(
    readonly now: Clock,
    private readonly onExpired: (key: string) => void = () => {},
  ) {
    this.lruClock = now();
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many keys have an expiry. */
  get expires(): number {
    return this.volatile.size;
  }

  /** The coarse clock `atime` is read on: ms, advanced by each `expireCycle`. */
  get lruNow(): number {
    return this.lruClock;
  }

  /** The live entry of `key`, expiring it first when its time has passed; marks it accessed. */
  lookup(key: string): Entry | undefined {
    const e = this.peek(key);
    if (e !== undefined) e.atime = this.lruClock;
    return e;
  }

  /** As `lookup`, without marking the key accessed. */
  peek(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e === undefined || e.exp === 0 || e.exp > this.now() || this.loading) return e;
    this.expire(e);
    return undefined;
  }

  get(key: string): Value | undefined {
    return this.lookup(key)?.value;
  }

  /** Stores `value`; a new key has no expiry, an existing one keeps its expiry only if `keepTtl`. */
  set(key: string, value: Value, keepTtl = false): Entry {
    const e = this.lookup(key);
    if (e === undefined) return this.insert(key, value, 0);
    e.value = value;
    if (!keepTtl) this.setExpiry(e, 0);
    return e;
  }

  /** Adds a key known to be absent, with an expiry. */
  insert(key: string, value: Value, exp: number): Entry {
    const e: Entry = { key, value, exp: 0, seq: this.nextSeq++, atime: this.lruClock, dead: false };
    this.entries.set(key, e);
    this.order.push(e);
    if (exp > 0) this.setExpiry(e, exp);
    return e;
  }

  delete(key: string): boolean {
    const e = this.peek(key);
    if (e === undefined) return false;
    this.remove(e);
    return true;
  }

  /**
   * Moves live entry `e` to the absent key `to`, keeping value, expiry and access time. The
   * moved key is new to SCAN, as in Redis, where it is a new dict entry.
   */
  rename(e: Entry, to: string): Entry {
    this.remove(e);
    const moved = this.insert(to, e.value, e.exp);
    moved.atime = e.atime;
    return moved;
  }

  setExpiry(e: Entry, exp: number): void {
    if (e.exp === exp) return;
    e.exp = exp;
    if (exp > 0) this.volatile.add(e.key);
    else this.volatile.delete(e.key);
  }

  /** Every live key, in insertion order. Expired keys are skipped, not deleted. */
  *keys(): IterableIterator<string> {
    const now = this.now();
    for (const e of this.entries.values()) if (e.exp === 0 || e.exp > now || this.loading) yield e.key;
  }

  /** Every live entry; for snapshots. */
  *live(): IterableIterator<Entry> {
    const now = this.now();
    for (const e of this.entries.values()) if (e.exp === 0 || e.exp > now) yield e;
  }

  /**
   * Visits entries from cursor `from` on, stopping after `count` visits; returns the cursor to
   * go on from, 0 when the walk is complete. Expired entries are deleted, not visited.
   */
  scan(from: number, count: number, visit: (e: Entry) => void): number {
    const order = this.order;
    let i = this.seek(from);
    for (let seen = 0; i < order.length && seen < count; i++) {
      const e = order[i];
      if (e.dead || this.peek(e.key) === undefined) continue;
      visit(e);
      seen++;
    }
    return i < order.length ? order[i].seq : 0;
  }

  randomKey(): string | null {
    while (this.entries.size > 0) {
      const e = this.order[Math.floor(Math.random() * this.order.length)];
      if (!e.dead && this.peek(e.key) !== undefined) return e.key;
    }
    return null;
  }

  clear(): void {
    this.entries.clear();
    this.order = [];
    this.deadInOrder = 0;
    this.volatile.clear();
    this.sweep = null;
  }

  /**
   * Active expiry, as Redis's activeExpireCycle: test up to `batch` volatile keys, and go on
   * while more than a quarter of a batch had expired. Returns how many keys it deleted.
   * Also advances the LRU clock, as it runs often and regularly.
   */
  expireCycle(batch = 20, maxRounds = 16): number {
    this.lruClock = this.now();
    let deleted = 0;
    for (let round = 0; round < maxRounds && this.volatile.size > 0; round++) {
      let expiredNow = 0;
      for (let n = 0; n < batch; n++) {
        const key = this.nextVolatile();
        if (key === undefined) break;
        const e = this.entries.get(key);
        if (e !== undefined && e.exp !== 0 && e.exp <= this.now()) {
          this.expire(e);
          expiredNow++;
        }
      }
      deleted += expiredNow;
      if (expiredNow <= batch / 4) break;
    }
    return deleted;
  }

  private nextVolatile(): string | undefined {
    this.sweep ??= this.volatile.values();
    let next = this.sweep.next();
    if (next.done) {
      this.sweep = this.volatile.values();
      next = this.sweep.next();
    }
    return next.done ? undefined : next.value;
  }

  private expire(e: Entry): void {
    this.remove(e);
    this.expiredKeys++;
    this.onExpired(e.key);
  }

  private remove(e: Entry): void {
    this.entries.delete(e.key);
    if (e.exp > 0) this.volatile.delete(e.key);
    e.dead = true;
    if (++this.deadInOrder > 1024 && this.deadInOrder * 2 > this.order.length) this.compactOrder();
  }

  private compactOrder(): void {
    this.order = this.order.filter((e) => !e.dead);
    this.deadInOrder = 0;
  }

  /** Index of the first entry in `order` whose seq is at least `seq`. */
  private seek(seq: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order[mid].seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

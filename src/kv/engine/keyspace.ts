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
// - Members can expire too (hash fields with a TTL, see Container.memberExpiry):
//   `volatileMembers` holds at least every key whose container has such members. Members
//   past their time are deleted the same two ways, on any access to their key or by
//   `expireCycle`, and logged as their kind says (HDEL); a container left empty goes with its
//   key. To the commands, an expired member, like an expired key, was never there.
// - `atime` is the last access on the coarse clock `lruClock`, which `expireCycle` advances
//   (Redis's LRU clock, advanced by serverCron): `lookup` stamps it, `peek` does not, so
//   commands that only inspect a key (TTL, TYPE, OBJECT, SCAN) leave its idle time alone.
// - While a snapshot is written, `walk` is told of every live entry before a command can see
//   or change it, and of every entry before it is deleted (keyspace-snapshot.ts).

import type { Container, Value } from './value.js';
import { seekSeq } from './insertion-order.js';
import { KeyspaceSnapshot } from './keyspace-snapshot.js';

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
  private readonly sweep = new Sweep(this.volatile);
  private readonly volatileMembers = new Set<string>();
  private readonly memberSweep = new Sweep(this.volatileMembers);
  private lruClock: number;
  /** Keys deleted because their time had passed, since startup (INFO's expired_keys). */
  expiredKeys = 0;
  /** While replaying the log nothing expires: the log's own DELs say what did. */
  loading = false;
  /** The snapshot being written, if one is. */
  private walk: KeyspaceSnapshot | null = null;

  constructor(
    readonly now: Clock,
    /** Told the command that logs each expiry: DEL key, or the kind's own for members. */
    private readonly onExpired: (argv: readonly string[]) => void = () => {},
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

  /** Whether some key or hash field has an expiry: when none has, looking at a key never expires it. */
  get anyExpiry(): boolean {
    return this.volatile.size > 0 || this.volatileMembers.size > 0;
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
    if (e === undefined || this.loading) return e;
    this.walk?.keep(e);
    if (e.exp !== 0 && e.exp <= this.now()) {
      this.expire(e);
      return undefined;
    }
    const v = e.value;
    if (typeof v === 'string' || !v.memberExpiry || v.memberExpiry > this.now()) return e;
    return this.expireMembers(e, v) ? e : undefined;
  }

  get(key: string): Value | undefined {
    return this.lookup(key)?.value;
  }

  /** Stores `value`; a new key has no expiry, an existing one keeps its expiry only if `keepTtl`. */
  set(key: string, value: Value, keepTtl = false): Entry {
    const e = this.lookup(key);
    if (e === undefined) return this.insert(key, value, 0);
    e.value = value;
    this.trackMembers(e);
    if (!keepTtl) this.setExpiry(e, 0);
    return e;
  }

  /** Adds a key known to be absent, with an expiry. */
  insert(key: string, value: Value, exp: number): Entry {
    const e: Entry = { key, value, exp: 0, seq: this.nextSeq++, atime: this.lruClock, dead: false };
    this.entries.set(key, e);
    this.order.push(e);
    this.trackMembers(e);
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

  /** Notes that the container at `key` now has members with an expiry, for active expiry. */
  noteMemberExpiry(key: string): void {
    this.volatileMembers.add(key);
  }

  setExpiry(e: Entry, exp: number): void {
    if (e.exp === exp) return;
    e.exp = exp;
    if (exp > 0) this.volatile.add(e.key);
    else this.volatile.delete(e.key);
  }

  /**
   * Every live key, in insertion order. Expired keys are skipped, not deleted; expired members
   * are deleted, as only that tells whether any member is left.
   */
  *keys(): IterableIterator<string> {
    const now = this.now();
    for (const e of this.entries.values()) {
      if (this.loading) yield e.key;
      else if (e.exp !== 0 && e.exp <= now) continue;
      else if (typeof e.value === 'string' || !e.value.memberExpiry || e.value.memberExpiry > now) yield e.key;
      else if (this.expireMembers(e, e.value)) yield e.key;
    }
  }

  /**
   * Every entry live now, each encoded as it is now, even when commands change it before the
   * walk reaches it; for a snapshot written in slices. One walk at a time: a new one replaces
   * the last, which its writer has dropped.
   */
  snapshot(encode: (e: Entry) => Buffer): Iterable<Buffer> {
    const walk = new KeyspaceSnapshot(this.order, this.now(), encode, () => {
      if (this.walk === walk) this.walk = null;
    });
    this.walk = walk;
    return walk;
  }

  /**
   * Visits entries from cursor `from` on, stopping after `count` visits; returns the cursor to
   * go on from, 0 when the walk is complete. Expired entries are deleted, not visited.
   */
  scan(from: number, count: number, visit: (e: Entry) => void): number {
    const order = this.order;
    let i = seekSeq(this.order, from);
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
    this.sweep.reset();
    this.volatileMembers.clear();
    this.memberSweep.reset();
  }

  /**
   * Active expiry, as Redis's activeExpireCycle: test up to `batch` volatile keys, and go on
   * while more than a quarter of a batch had expired; then the same over the keys with
   * volatile members. Returns how many keys and containers it deleted from or expired.
   * Also advances the LRU clock, as it runs often and regularly.
   */
  expireCycle(batch = 20, maxRounds = 16): number {
    this.lruClock = this.now();
    const keys = this.sample(batch, maxRounds, this.sweep, (key) => {
      const e = this.entries.get(key);
      if (e === undefined || e.exp === 0 || e.exp > this.now()) return false;
      this.expire(e);
      return true;
    });
    const members = this.sample(batch, maxRounds, this.memberSweep, (key) => {
      const e = this.entries.get(key);
      const v = e?.value;
      if (v === undefined || typeof v === 'string' || !v.memberExpiry) {
        this.volatileMembers.delete(key); // no volatile member left: stop visiting it
        return false;
      }
      if (v.memberExpiry > this.now()) return false;
      this.expireMembers(e!, v);
      return true;
    });
    return keys + members;
  }

  /** Rounds of up to `batch` keys from `sweep`, `test` saying which had expired. */
  private sample(batch: number, maxRounds: number, sweep: Sweep, test: (key: string) => boolean): number {
    let hits = 0;
    for (let round = 0; round < maxRounds && sweep.set.size > 0; round++) {
      let hitsNow = 0;
      for (let n = 0; n < batch; n++) {
        const key = sweep.next();
        if (key === undefined) break;
        if (test(key)) hitsNow++;
      }
      hits += hitsNow;
      if (hitsNow <= batch / 4) break;
    }
    return hits;
  }

  private expire(e: Entry): void {
    this.remove(e);
    this.expiredKeys++;
    this.onExpired(['del', e.key]);
  }

  /** Deletes the expired members of live entry `e`; false when that emptied and deleted it. */
  private expireMembers(e: Entry, v: Container): boolean {
    this.walk?.keep(e);
    const { log, left } = v.kind.expireMembers!(v, e.key, this.now());
    this.onExpired(log);
    if (left > 0) return true;
    this.remove(e);
    return false;
  }

  private trackMembers(e: Entry): void {
    if (typeof e.value !== 'string' && e.value.memberExpiry) this.volatileMembers.add(e.key);
  }

  private remove(e: Entry): void {
    this.walk?.keep(e);
    this.entries.delete(e.key);
    this.volatileMembers.delete(e.key);
    if (e.exp > 0) this.volatile.delete(e.key);
    e.dead = true;
    if (++this.deadInOrder > 1024 && this.deadInOrder * 2 > this.order.length) this.compactOrder();
  }

  private compactOrder(): void {
    this.order = this.order.filter((e) => !e.dead);
    this.deadInOrder = 0;
  }

}

/** Walks a set round and round, each walk going on where the last one stopped. */
class Sweep {
  private at: Iterator<string> | null = null;
  constructor(readonly set: Set<string>) {}

  next(): string | undefined {
    this.at ??= this.set.values();
    let next = this.at.next();
    if (next.done) {
      this.at = this.set.values();
      next = this.at.next();
    }
    return next.done ? undefined : next.value;
  }

  reset(): void {
    this.at = null;
  }
}

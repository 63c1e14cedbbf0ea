// The in-memory keyspace of one database. Not safe for concurrent use, and needs none: every
// command runs to completion on the one JS thread.
//
// Layout (memory per key, issue 20): no object per key. `slots` maps a key to its slot, a small
// integer; per-slot pages (slot-pages.ts) hold the key, its value and a head word; `volatile`
// maps the slots of keys with an expiry to that time, as Redis keeps expiries in a dict of
// their own. The head word is Redis's robj header in small: [4 bits: folded kind][28 bits: last
// access]. A container whose kind folds (value.ts) and that is small enough sits in its slot
// between commands as its folded string, the head naming its kind (0: the value as is), so a
// small hash costs a string and no object. Reading the slot unfolds it into the container,
// kept there for the rest of the command; `fold`, called when a command ends, folds back what
// commands unfolded or stored since.
// A deleted key's slot goes on `free` and the next new key takes it; when the last key goes,
// every structure starts afresh, so a database emptied of many keys gives their memory back.
//
// Invariants:
// - `slots` maps each live key to its slot s < slotCount, with slotKeys[s] === key and
//   values[s] its value; a free slot holds undefined in both. A Slot handed out stays the
//   key's until it is deleted or renamed: hold one only for the command at hand.
// - SCAN cursors are slot indexes, walked upwards. A key keeps its slot while it lives, so a key
//   present for a whole scan is returned exactly once; a key added during it may or may not be.
// - `volatile` holds exactly the slots of keys with an expiry (ms since the epoch, > 0).
// - A key whose expiry has passed is deleted on first access (lazy) or by `expireCycle`
//   (active); either way `onExpired` is told, so the log records the deletion.
// - Members can expire too (hash fields with a TTL, see Container.memberExpiry):
//   `volatileMembers` holds at least the slot of every key whose container has such members.
//   Members past their time are deleted the same two ways, on any access to their key or by
//   `expireCycle`, and logged as their kind says (HDEL); a container left empty goes with its
//   key. To the commands, an expired member, like an expired key, was never there.
// - A head's low 28 bits are the last access in seconds on the coarse LRU clock, which
//   `expireCycle` advances (Redis's LRU clock, advanced by serverCron, with its 1 s
//   resolution, wrapping as Redis's 24 bits do, here after 8.5 years): `lookup` stamps it,
//   `peek` and `find` do not, so commands that only inspect a key (TTL, TYPE, OBJECT, SCAN)
//   leave its idle time alone.
// - A read's lookup (`reading`) that finds no key, absent or expired, tells `onMissed`, after
//   `onExpired` for an expired one, as Redis's lookupKeyRead publishes keymiss; a write's
//   lookups and `find` tell nothing, as Redis's lookupKeyWrite and LOOKUP_NONOTIFY.
// - A slot whose head names a kind holds that kind's folded string; everything outside this
//   file sees only unfolded values (`valueAt`, `get`, `findValue`, the snapshot's encoder).
// - While a snapshot is written, `walk` is told of every slot before a command can see or
//   change what it holds, before a key leaves it and before a new key takes it
//   (keyspace-snapshot.ts).

import { kindByTag, type Container, type Value } from './value.js';
import { KeyspaceSnapshot } from './keyspace-snapshot.js';
import { SlotPages } from './slot-pages.js';

/**
 * How long one active expiry cycle may run, and the share of a round that must have expired for
 * it to go on (Redis's ACTIVE_EXPIRE_CYCLE_ACCEPTABLE_STALE). Redis allows itself 25 ms of every
 * 100; 10 ms keeps a request's wait behind it shorter and still expires about 400k keys a second.
 */
const EXPIRY_BUDGET_MS = 10;
const ACCEPTABLE_STALE = 0.1;

/** Where a live key sits in its keyspace; read and change it through the keyspace's `*At` methods. */
export type Slot = number;

export type Clock = () => number;

/** The head word's bits of the LRU clock; the 4 above them name a folded container's kind. */
const LRU_BITS = 28;
const LRU_MASK = 2 ** LRU_BITS - 1;

export class Keyspace {
  private slots = new Map<string, Slot>();
  /** Slots ever taken since the keyspace was last emptied: the SCAN cursor's end. */
  private slotCount = 0;
  private slotKeys = referencePages<string>();
  private values = referencePages<Value>();
  private heads = headPages();
  /** Slots freed by deletions, taken again by the next insertions. */
  private free: Slot[] = [];
  /** Slots given a container that may fold since the last `fold`. */
  private unfolded: Slot[] = [];
  private volatile = new Map<Slot, number>();
  private readonly sweep = new Sweep(() => this.volatile);
  private volatileMembers = new Set<Slot>();
  private readonly memberSweep = new Sweep(() => this.volatileMembers);
  /** The LRU clock in seconds since `lruBase`, modulo 2^28. */
  private lruSeconds = 0;
  private readonly lruBase: number;
  /** Keys deleted because their time had passed, since startup (INFO's expired_keys). */
  expiredKeys = 0;
  /** While replaying the log nothing expires: the log's own DELs say what did. */
  loading = false;
  /** The snapshot being written, if one is. */
  private walk: KeyspaceSnapshot | null = null;
  /**
   * Whether lookups are reads, which tell `onMissed` of each key they miss (Redis's
   * lookupKeyRead), or writes, which do not (lookupKeyWrite). The database sets it as each
   * command starts, as the command table says; a handler whose lookups change kind on the way
   * sets it where they do, as Redis's handlers choose one lookup or the other.
   */
  reading = false;

  constructor(
    readonly now: Clock,
    /**
     * Told the command that logs each expiry: DEL key, or the kind's own for members, and
     * whether those members were the container's last (it is deleted with them).
     */
    private readonly onExpired: (argv: readonly string[], emptied: boolean) => void = () => {},
    /** Told each key added (Redis's dbAdd), for the `new` keyspace event. */
    private readonly onAdded: (key: string) => void = () => {},
    /** Told each key a read misses (see `reading`), for the `keymiss` keyspace event. */
    private readonly onMissed: (key: string) => void = () => {},
  ) {
    this.lruBase = Math.floor(now() / 1000);
  }

  get size(): number {
    return this.slots.size;
  }

  /** How many keys have an expiry. */
  get expires(): number {
    return this.volatile.size;
  }

  /** Whether some key or hash field has an expiry: when none has, looking at a key never expires it. */
  get anyExpiry(): boolean {
    return this.volatile.size > 0 || this.volatileMembers.size > 0;
  }

  /** The live slot of `key`, expiring the key first when its time has passed; marks it accessed. */
  lookup(key: string): Slot | undefined {
    const s = this.peek(key);
    if (s !== undefined) this.touch(s);
    return s;
  }

  /** As `lookup`, without marking the key accessed. */
  peek(key: string): Slot | undefined {
    const s = this.find(key);
    if (s === undefined && this.reading) this.onMissed(key);
    return s;
  }

  /**
   * As `peek`, and a miss is never told (Redis's LOOKUP_NONOTIFY): for looking at a key that
   * no client reads, as OBJECT, MEMORY USAGE, the search indexes and the keyspace's own writes do.
   */
  find(key: string): Slot | undefined {
    const s = this.slots.get(key);
    if (s === undefined || this.loading) return s;
    this.walk?.keep(s);
    if (this.volatile.size !== 0) {
      const exp = this.volatile.get(s);
      if (exp !== undefined && exp <= this.now()) {
        this.expire(s);
        return undefined;
      }
    }
    const v = this.values.get(s)!;
    if (typeof v === 'string' || !v.memberExpiry || v.memberExpiry > this.now()) return s;
    return this.expireMembers(s, v) ? s : undefined;
  }

  get(key: string): Value | undefined {
    const s = this.lookup(key);
    return s === undefined ? undefined : this.valueAt(s);
  }

  /** The value `find` finds. */
  findValue(key: string): Value | undefined {
    const s = this.find(key);
    return s === undefined ? undefined : this.valueAt(s);
  }

  keyAt(s: Slot): string {
    return this.slotKeys.get(s)!;
  }

  /** The value of live slot `s`; a folded container is unfolded and kept so until `fold`. */
  valueAt(s: Slot): Value {
    const v = this.values.get(s)!;
    const head = this.heads.get(s);
    if (head <= LRU_MASK) return v;
    const c = unfolded(v, head);
    this.setValueAt(s, c);
    return c;
  }

  /** Replaces the value of live slot `s`, keeping its expiry. */
  setValueAt(s: Slot, value: Value): void {
    this.values.set(s, value);
    this.heads.set(s, this.heads.get(s) & LRU_MASK);
    this.noteContainer(s, value);
  }

  /**
   * Folds the containers unfolded or stored since the last call, those their kind folds. Call
   * it only between commands: a command holds its containers as the objects it found.
   */
  fold(): void {
    if (this.unfolded.length === 0) return; // most commands: a string or nothing unfolded
    for (const s of this.unfolded) {
      const v = this.values.get(s);
      if (v === undefined || typeof v === 'string') continue; // freed, or folded already
      const folded = v.kind.fold!(v);
      if (folded === null) continue;
      this.values.set(s, folded);
      this.heads.set(s, (v.kind.tag << LRU_BITS) | (this.heads.get(s) & LRU_MASK));
    }
    this.unfolded.length = 0;
  }

  /** Absolute expiry of live slot `s` in ms since the epoch; 0 = persistent. */
  expiryAt(s: Slot): number {
    return this.volatile.get(s) ?? 0;
  }

  /** OBJECT IDLETIME: whole seconds on the LRU clock since the key in `s` was last accessed. */
  idleSecondsAt(s: Slot): number {
    return (this.lruSeconds - this.heads.get(s)) & LRU_MASK;
  }

  /** Dates the last access of the key in `s` `seconds` back (RESTORE ... IDLETIME), at most 2^28 - 1. */
  setIdleSecondsAt(s: Slot, seconds: number): void {
    const at = (this.lruSeconds - Math.min(seconds, LRU_MASK)) & LRU_MASK;
    this.heads.set(s, (this.heads.get(s) & ~LRU_MASK) | at);
  }

  /** Stores `value`; a new key has no expiry, an existing one keeps its expiry only if `keepTtl`. */
  set(key: string, value: Value, keepTtl = false): Slot {
    const s = this.find(key);
    if (s === undefined) return this.insert(key, value, 0);
    this.touch(s);
    this.setValueAt(s, value);
    if (!keepTtl) this.setExpiry(s, 0);
    return s;
  }

  /** Adds a key known to be absent, with an expiry. */
  insert(key: string, value: Value, exp: number): Slot {
    const s = this.free.pop() ?? this.slotCount++;
    this.walk?.keep(s);
    this.slotKeys.set(s, key);
    this.values.set(s, value);
    this.heads.set(s, this.lruSeconds);
    this.slots.set(key, s);
    this.noteContainer(s, value);
    if (exp > 0) this.volatile.set(s, exp);
    this.onAdded(key);
    return s;
  }

  delete(key: string): boolean {
    const s = this.find(key);
    if (s === undefined) return false;
    this.remove(s);
    return true;
  }

  /**
   * Moves the key in live slot `s` to the absent key `to`, keeping value (folded or not),
   * expiry and access time. The moved key is new to SCAN, as in Redis, where it is a new dict entry.
   */
  rename(s: Slot, to: string): Slot {
    const value = this.values.get(s)!;
    const exp = this.expiryAt(s);
    const head = this.heads.get(s);
    this.remove(s);
    const moved = this.insert(to, value, exp);
    this.heads.set(moved, head);
    return moved;
  }

  /** Notes that the container at `key` now has members with an expiry, for active expiry. */
  noteMemberExpiry(key: string): void {
    const s = this.slots.get(key);
    if (s !== undefined) this.volatileMembers.add(s);
  }

  setExpiry(s: Slot, exp: number): void {
    if (exp > 0) this.volatile.set(s, exp);
    else this.volatile.delete(s);
  }

  /**
   * Every live key, in slot order. Expired keys are skipped, not deleted; expired members
   * are deleted, as only that tells whether any member is left.
   */
  *keys(): IterableIterator<string> {
    const now = this.now();
    for (const [key, s] of this.slots) {
      if (this.loading) {
        yield key;
        continue;
      }
      const exp = this.expiryAt(s);
      if (exp !== 0 && exp <= now) continue;
      const v = this.values.get(s)!;
      if (typeof v === 'string' || !v.memberExpiry || v.memberExpiry > now || this.expireMembers(s, v)) yield key;
    }
  }

  /**
   * Every key live now, each encoded as it is now, even when commands change it before the
   * walk reaches it; for a snapshot written in slices. One walk at a time: a new one replaces
   * the last, which its writer has dropped.
   */
  snapshot(encode: (key: string, value: Value, exp: number) => Buffer): Iterable<Buffer> {
    // The structures as they stand: clearing replaces them rather than emptying them, so what
    // the walk reads after a FLUSHDB is still what they held before it.
    const { slotKeys: keys, values, heads, volatile } = this;
    const startedAt = this.now();
    const encodeAtStart = (s: Slot): Buffer | null => {
      const key = keys.get(s);
      if (key === undefined) return null;
      const exp = volatile.get(s) ?? 0;
      return exp === 0 || exp > startedAt ? encode(key, unfolded(values.get(s)!, heads.get(s)), exp) : null;
    };
    const walk = new KeyspaceSnapshot(this.slotCount, encodeAtStart, () => {
      if (this.walk === walk) this.walk = null;
    });
    this.walk = walk;
    return walk;
  }

  /**
   * Visits live slots from cursor `from` on, stopping after `count` visits; returns the cursor
   * to go on from, 0 when the walk is complete. Expired keys are deleted, not visited.
   */
  scan(from: number, count: number, visit: (s: Slot) => void): number {
    let s = from;
    for (let seen = 0; s < this.slotCount && seen < count; s++) {
      const key = this.slotKeys.get(s);
      if (key === undefined || this.find(key) === undefined) continue;
      visit(s);
      seen++;
    }
    return s < this.slotCount ? s : 0;
  }

  /** A live key from a random slot, or the first live one after it (wrapping round). */
  randomKey(): string | null {
    let s = Math.floor(Math.random() * this.slotCount);
    while (this.slots.size > 0) {
      const key = this.slotKeys.get(s);
      if (key !== undefined && this.find(key) !== undefined) return key;
      s = (s + 1) % this.slotCount;
    }
    return null;
  }

  clear(): void {
    this.slots = new Map();
    this.slotCount = 0;
    this.slotKeys = referencePages<string>();
    this.values = referencePages<Value>();
    this.heads = headPages();
    this.free = [];
    this.unfolded = [];
    this.volatile = new Map();
    this.volatileMembers = new Set();
    this.sweep.reset();
    this.memberSweep.reset();
  }

  /**
   * Active expiry, as Redis's activeExpireCycle: test rounds of `batch` volatile keys, going on
   * while more than a tenth of a round had expired and for at most `budgetMs` (at least one
   * round); then the same over the keys with volatile members, in what is left of the budget.
   * Returns how many keys and containers it deleted from or expired. Also advances the LRU
   * clock, as it runs often and regularly.
   */
  expireCycle(batch = 20, budgetMs = EXPIRY_BUDGET_MS): number {
    this.lruSeconds = (Math.floor(this.now() / 1000) - this.lruBase) & LRU_MASK;
    const deadline = performance.now() + budgetMs;
    const keys = this.sample(batch, deadline, this.sweep, (s) => {
      const exp = this.volatile.get(s);
      if (exp === undefined || exp > this.now()) return false;
      this.expire(s);
      return true;
    });
    const members = this.sample(batch, deadline, this.memberSweep, (s) => {
      const v = this.values.get(s);
      if (v === undefined || typeof v === 'string' || !v.memberExpiry) {
        this.volatileMembers.delete(s); // no volatile member left: stop visiting it
        return false;
      }
      if (v.memberExpiry > this.now()) return false;
      this.expireMembers(s, v);
      return true;
    });
    return keys + members;
  }

  /** Rounds of up to `batch` slots from `sweep`, `test` saying which had expired. */
  private sample(batch: number, deadline: number, sweep: Sweep, test: (s: Slot) => boolean): number {
    if (sweep.size === 0) return 0;
    let hits = 0;
    for (;;) {
      let hitsNow = 0;
      for (let n = 0; n < batch; n++) {
        const s = sweep.next();
        if (s === undefined) break;
        if (test(s)) hitsNow++;
      }
      hits += hitsNow;
      if (hitsNow <= batch * ACCEPTABLE_STALE || sweep.size === 0 || performance.now() >= deadline) return hits;
    }
  }

  private expire(s: Slot): void {
    const key = this.slotKeys.get(s)!;
    this.remove(s);
    this.expiredKeys++;
    this.onExpired(['del', key], false);
  }

  /** Deletes the expired members of the container in live slot `s`; false when that emptied and deleted it. */
  private expireMembers(s: Slot, v: Container): boolean {
    this.walk?.keep(s);
    const { log, left } = v.kind.expireMembers!(v, this.slotKeys.get(s)!, this.now());
    this.onExpired(log, left === 0);
    if (left > 0) return true;
    this.remove(s);
    return false;
  }

  /** Marks the key in live slot `s` accessed now, on the LRU clock. */
  private touch(s: Slot): void {
    this.heads.set(s, (this.heads.get(s) & ~LRU_MASK) | this.lruSeconds);
  }

  /** Notes what a container just stored in `s` needs: active expiry of its members, folding. */
  private noteContainer(s: Slot, v: Value): void {
    if (typeof v === 'string') return;
    if (v.memberExpiry) this.volatileMembers.add(s);
    if (v.kind.fold !== undefined) this.unfolded.push(s);
  }

  private remove(s: Slot): void {
    this.walk?.keep(s);
    this.slots.delete(this.slotKeys.get(s)!);
    if (this.slots.size === 0) {
      this.clear();
      return;
    }
    this.slotKeys.set(s, undefined);
    this.values.set(s, undefined);
    this.volatile.delete(s);
    this.volatileMembers.delete(s);
    this.free.push(s);
  }
}

/** Pages of head words: [4 bits: folded kind's tag, 0 if none][28 bits: last access on the LRU clock]. */
function headPages(): SlotPages<number> {
  return new SlotPages((n) => new Uint32Array(n));
}

/** The value a slot's raw `v` and `head` stand for: `v` itself, or the container folded into it. */
function unfolded(v: Value, head: number): Value {
  return head <= LRU_MASK ? v : kindByTag(head >>> LRU_BITS)!.unfold!(v as string);
}

/** Pages of references, undefined in a free slot. */
function referencePages<T>(): SlotPages<T | undefined> {
  return new SlotPages((n) => new Array<T | undefined>(n).fill(undefined));
}

/** Walks a set's keys round and round, each walk going on where the last one stopped. */
class Sweep {
  private at: Iterator<Slot> | null = null;
  constructor(private readonly set: () => { readonly size: number; keys(): Iterator<Slot> }) {}

  get size(): number {
    return this.set().size;
  }

  next(): Slot | undefined {
    this.at ??= this.set().keys();
    let next = this.at.next();
    if (next.done) {
      this.at = this.set().keys();
      next = this.at.next();
    }
    return next.done ? undefined : next.value;
  }

  reset(): void {
    this.at = null;
  }
}

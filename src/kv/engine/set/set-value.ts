// A set of byte strings, the value of Redis's set type (t_set.c). Not safe for concurrent use,
// and needs none: every command runs to completion on the one JS thread.
//
// Invariants:
// - `slots` holds the members in insertion order, with holes (undefined) where members were
//   removed; `ranks[i]` is the insertion rank of `slots[i]`, strictly increasing; `index`
//   maps each member to its slot. SSCAN cursors are ranks, which never change, so dropping
//   the holes (once they are half of `slots`) leaves every cursor valid, and a member present
//   for a whole scan is returned. Ranks come from one counter shared by every set, so a cursor
//   taken from a set that was then replaced (SUNIONSTORE over it, DEL and SADD) walks all of
//   the new one rather than skipping its first members.
// - Holes are at most half of `slots`, so a random draw that retries on a hole needs two tries
//   on average: SPOP and SRANDMEMBER stay O(1) per member.
// - `intset` is the encoding Redis 7.0 would have chosen (OBJECT ENCODING): a set that starts
//   with an integer member is an intset until a non-integer or the 513th member converts it
//   to a hashtable, which it stays. Redis iterates an intset in ascending order, so `members`
//   does too (that order is deterministic in Redis and clients see it); a hashtable's order is
//   arbitrary in Redis and insertion order here.

import { parseInt64 } from '../int64.js';
import { DICT_ENTRY, dictSize, jemallocSize, ROBJ, sdsSize, spreadSampled } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';

/** Redis's set-max-intset-entries default. */
const MAX_INTSET_ENTRIES = 512;

/** The next insertion rank, for every set (see the head comment). */
let nextRank = 1;

/** Whether Redis would store `m` in an intset (string2ll: canonical decimal int64). */
function isIntMember(m: string): boolean {
  return m.length <= 20 && parseInt64(m) !== undefined;
}

export class SetValue implements Container {
  private readonly index = new Map<string, number>();
  private slots: (string | undefined)[] = [];
  private ranks: number[] = [];
  private holes = 0;
  private nonInts = 0;
  private sorted: string[] | null = null;

  /** `isIntset`: how Redis creates it; `forFirst` or `empty` say which. */
  private constructor(private isIntset: boolean) {}

  /** A set as Redis's setTypeCreate makes one for its first member (SADD, SMOVE). */
  static forFirst(member: string): SetValue {
    return new SetValue(isIntMember(member));
  }

  /** An empty set as Redis's createIntsetObject, which the STORE commands fill. */
  static empty(): SetValue {
    return new SetValue(true);
  }

  get kind(): ContainerKind {
    return SET_KIND;
  }

  /** Whether Redis would hold this set as an intset (else a hashtable). */
  get intset(): boolean {
    return this.isIntset;
  }

  get size(): number {
    return this.index.size;
  }

  /** Whether every member is an integer. */
  get onlyIntegers(): boolean {
    return this.nonInts === 0;
  }

  has(m: string): boolean {
    return this.index.has(m);
  }

  /** Adds `m`; false when it was already a member. */
  add(m: string): boolean {
    if (this.index.has(m)) return false;
    const isInt = isIntMember(m);
    if (!isInt) this.nonInts++;
    this.index.set(m, this.slots.length);
    this.slots.push(m);
    this.ranks.push(nextRank++);
    if (this.isIntset && (!isInt || this.index.size > MAX_INTSET_ENTRIES)) this.isIntset = false;
    this.sorted = null;
    return true;
  }

  /** Removes `m`; false when it was not a member. */
  delete(m: string): boolean {
    const at = this.index.get(m);
    if (at === undefined) return false;
    this.index.delete(m);
    this.slots[at] = undefined;
    this.holes++;
    if (!isIntMember(m)) this.nonInts--;
    this.sorted = null;
    if (this.holes * 2 > this.slots.length) this.compact();
    return true;
  }

  /** Removes and returns a member drawn uniformly; the set must not be empty. */
  pop(): string {
    const m = this.random();
    this.delete(m);
    return m;
  }

  /** A member drawn uniformly; the set must not be empty. */
  random(): string {
    const slots = this.slots;
    for (;;) {
      const m = slots[Math.floor(Math.random() * slots.length)];
      if (m !== undefined) return m;
    }
  }

  /**
   * Sets the encoding as Redis has it after rebuilding the set from its remaining members
   * (SPOP's "create new set" strategy): an intset when they are integers, few enough.
   */
  reencode(): void {
    this.isIntset = this.nonInts === 0 && this.size <= MAX_INTSET_ENTRIES;
  }

  /** Every member, in Redis's iteration order for this encoding (see the head comment). */
  members(): readonly string[] {
    if (this.intset) {
      this.sorted ??= [...this.index.keys()].sort(compareIntegers);
      return this.sorted;
    }
    return [...this.index.keys()];
  }

  /**
   * Visits members from cursor `from` (an insertion rank) on, stopping after `count` visits;
   * returns the cursor to go on from, 0 when the walk is complete.
   */
  scan(from: number, count: number, visit: (m: string) => void): number {
    const { slots, ranks } = this;
    let i = this.seek(from);
    for (let seen = 0; i < slots.length && seen < count; i++) {
      const m = slots[i];
      if (m === undefined) continue;
      visit(m);
      seen++;
    }
    // The rest of the walk may be only holes: say so now rather than with one more empty call.
    while (i < slots.length && slots[i] === undefined) i++;
    return i < slots.length ? ranks[i] : 0;
  }

  clone(): SetValue {
    const copy = new SetValue(this.isIntset);
    for (const m of this.index.keys()) copy.add(m);
    return copy;
  }

  private compact(): void {
    const slots: string[] = [];
    const ranks: number[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const m = this.slots[i];
      if (m === undefined) continue;
      this.index.set(m, slots.length);
      slots.push(m);
      ranks.push(this.ranks[i]);
    }
    this.slots = slots;
    this.ranks = ranks;
    this.holes = 0;
  }

  /** Index of the first slot whose rank is at least `rank`. */
  private seek(rank: number): number {
    const ranks = this.ranks;
    let lo = 0;
    let hi = ranks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranks[mid] < rank) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Orders canonical int64 texts by value without converting them (they may pass 2^53). */
function compareIntegers(a: string, b: string): number {
  const negA = a.charCodeAt(0) === 45;
  const negB = b.charCodeAt(0) === 45;
  if (negA !== negB) return negA ? -1 : 1;
  const byMagnitude = a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  return negA ? -byMagnitude : byMagnitude;
}

// Serialized form: [u32 count] then per member [u32 length][bytes], little-endian, in
// iteration order. The encoding is not stored: a loaded set is an intset when its members
// allow it, as Redis's RDB loading (and so RESTORE) decides.

function encode(v: Container): string {
  const set = v as SetValue;
  const parts = [u32(set.size)];
  for (const m of set.members()) parts.push(u32(m.length), m);
  return parts.join('');
}

function decode(bytes: string): SetValue | null {
  if (bytes.length < 4) return null;
  const count = readU32(bytes, 0);
  if (count === 0) return null;
  const set = SetValue.empty();
  let at = 4;
  for (let n = 0; n < count; n++) {
    if (at + 4 > bytes.length) return null;
    const len = readU32(bytes, at);
    at += 4;
    if (at + len > bytes.length) return null;
    if (!set.add(bytes.slice(at, at + len))) return null;
    at += len;
  }
  if (at !== bytes.length) return null;
  set.reencode();
  return set;
}

function u32(n: number): string {
  return String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

function readU32(s: string, at: number): number {
  return (s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8) | (s.charCodeAt(at + 2) << 16) | (s.charCodeAt(at + 3) << 24)) >>> 0;
}

export const SET_KIND: ContainerKind = registerKind({
  type: 'set',
  tag: 3,
  clone: (v) => (v as SetValue).clone(),
  encode,
  decode,
  encoding: (v) => ((v as SetValue).intset ? 'intset' : 'hashtable'),
  memoryUsage: (v, samples) => setMemory(v as SetValue, samples),
});

/** Redis 7.0's size of a set: an intset (a header, then every member at the widest width needed), or a dict of sds members. */
function setMemory(s: SetValue, samples: number): number {
  const members = s.members();
  if (s.intset) {
    let width = 2;
    for (const m of members) width = Math.max(width, intsetWidth(BigInt(m)));
    return ROBJ + jemallocSize(INTSET_HEADER + width * members.length);
  }
  return ROBJ + dictSize(s.size) + spreadSampled(members, samples, (m) => DICT_ENTRY + sdsSize(m.length));
}

/** An intset's encoding (u32) and length (u32). */
const INTSET_HEADER = 8;

function intsetWidth(n: bigint): number {
  if (n >= -32768n && n <= 32767n) return 2;
  return n >= -2147483648n && n <= 2147483647n ? 4 : 8;
}

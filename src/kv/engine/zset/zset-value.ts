// The sorted-set value (TYPE zset, tag 4): as in Redis, a map member -> score for O(1) score
// lookups, and an order-statistic B+ tree of (score, member) pairs (order-tree.ts, in place of
// Redis's skip list) for O(log n) rank and range operations.
// Not safe for concurrent use; the JS thread is the only one.
//
// The API other families build on (GEO stores its points here):
//   add(member, score)    insert or re-score; says whether it added, updated or did nothing
//   score(member)         the score, or undefined
//   rank(member, rev)     0-based rank, -1 when absent
//   remove(member)        true when it was there
//   firstInScore / lastInScore (range), first(), last(), byRank(i): cursors, walked with
//   next() / prev(); a cursor is valid until the set next changes
//   size
// Scores are never NaN: callers refuse NaN before calling add.
//
// `listpack` tracks the encoding Redis would use for the same history (at most 128 members
// of at most 64 bytes, kept until something makes it grow past that; Redis never converts
// back except when it builds a value whole). It answers OBJECT ENCODING, and it decides two
// behaviours that are visible: a listpack ZSCAN returns everything in one call, and a listpack
// walks lex ranges linearly (which differs from a descent of the tree, as from Redis's skip list,
// only when members carry different scores, where Redis documents the result as unspecified); a listpack also stores
// a score of -0 as 0.

import { LISTPACK_OVERHEAD, stringSize } from '../listpack-size.js';
import { DICT_ENTRY, dictSize, jemallocSize, ROBJ, sampled, sdsSize } from '../redis-memory.js';
import { formatG } from '../scripting/format-g.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';
import { emptyLexRange, emptyScoreRange, lexGteMin, lexLteMax, scoreGteMin, scoreLteMax, type LexRange, type ScoreRange } from './range.js';
import { OrderTree, type ZCursor } from '../../../collections/order-tree.js';
import { decodeEntries, encodeEntries } from './zset-codec.js';
import { seekSeq } from '../insertion-order.js';

export type { ZCursor } from '../../../collections/order-tree.js';

/** Redis's zset-max-listpack-entries and zset-max-listpack-value defaults. */
export const LISTPACK_MAX_ENTRIES = 128;
export const LISTPACK_MAX_VALUE = 64;

export const ADDED = 1;
export const UPDATED = 2;
export const UNCHANGED = 0;
export type AddResult = typeof ADDED | typeof UPDATED | typeof UNCHANGED;

/** A member's score and insertion rank (`seq`, the ZSCAN cursor). */
class ZEntry {
  constructor(
    readonly member: string,
    public score: number,
    readonly seq: number,
  ) {}
}

/** The tree's order: by score, then by member's bytes. */
function byScoreThenMember(a: ZEntry, b: ZEntry): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

export class ZSet implements Container {
  readonly kind: ContainerKind = ZSET_KIND;
  private readonly dict = new Map<string, ZEntry>();
  private readonly tree = new OrderTree();
  /** Every entry ever inserted, by `seq`, dead ones (no longer in `dict`) until compaction. */
  private order: ZEntry[] = [];
  private deadInOrder = 0;
  private nextSeq = 1;

  constructor(public listpack = true) {}

  /** A value built whole, encoded as Redis encodes a loaded or computed sorted set. */
  static of(entries: ReadonlyMap<string, number> | readonly (readonly [string, number])[]): ZSet {
    let longest = 0;
    let size = 0;
    for (const [member] of entries) {
      if (member.length > longest) longest = member.length;
      size++;
    }
    const z = new ZSet(size <= LISTPACK_MAX_ENTRIES && longest <= LISTPACK_MAX_VALUE);
    // The tree is loaded bottom up from the pairs in order (one sort, which merges the sorted
    // runs a union's pairs come in) rather than by one insert each.
    for (const [member, score] of entries) {
      const stored = z.listpack ? listpackScore(score) : score;
      const known = z.dict.get(member);
      if (known !== undefined) {
        known.score = stored; // a repeated member of an array: the last score stands, as with add
        continue;
      }
      const created = new ZEntry(member, stored, z.nextSeq++);
      z.order.push(created);
      z.dict.set(member, created);
    }
    const pairs = z.order.slice().sort(byScoreThenMember);
    const scores = new Float64Array(pairs.length);
    const members = new Array<string>(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      scores[i] = pairs[i].score;
      members[i] = pairs[i].member;
    }
    z.tree.load(scores, members, pairs.length);
    return z;
  }

  get size(): number {
    return this.dict.size;
  }

  /** A cursor on the lowest pair, null when empty. */
  first(): ZCursor | null {
    return this.tree.first();
  }

  /** A cursor on the highest pair, null when empty. */
  last(): ZCursor | null {
    return this.tree.last();
  }

  score(member: string): number | undefined {
    return this.dict.get(member)?.score;
  }

  add(member: string, score: number): AddResult {
    const entry = this.dict.get(member);
    if (entry !== undefined) {
      if (entry.score === score) return UNCHANGED;
      const to = this.listpack ? listpackScore(score) : score;
      this.tree.updateScore(entry.score, member, to);
      entry.score = to;
      return UPDATED;
    }
    if (this.listpack && (this.dict.size + 1 > LISTPACK_MAX_ENTRIES || member.length > LISTPACK_MAX_VALUE)) {
      this.listpack = false;
    }
    if (this.listpack) score = listpackScore(score);
    this.tree.insert(score, member);
    const created = new ZEntry(member, score, this.nextSeq++);
    this.order.push(created);
    this.dict.set(member, created);
    return ADDED;
  }

  remove(member: string): boolean {
    const entry = this.dict.get(member);
    if (entry === undefined) return false;
    this.tree.delete(entry.score, member);
    this.forget(member);
    return true;
  }

  /** 0-based rank from the lowest score (from the highest if `reverse`); -1 when absent. */
  rank(member: string, reverse = false): number {
    const entry = this.dict.get(member);
    if (entry === undefined) return -1;
    const rank = this.tree.rankOf(entry.score, member);
    return reverse ? this.size - 1 - rank : rank;
  }

  /** A cursor at 0-based rank `index` from the lowest score, null out of range. */
  byRank(index: number): ZCursor | null {
    return this.tree.byRank(index);
  }

  firstInScore(r: ScoreRange): ZCursor | null {
    if (emptyScoreRange(r)) return null;
    const x = this.tree.firstAfter((score) => !scoreGteMin(score, r));
    return x !== null && scoreLteMax(x.score, r) ? x : null;
  }

  lastInScore(r: ScoreRange): ZCursor | null {
    if (emptyScoreRange(r)) return null;
    const x = this.tree.lastBefore((score) => scoreLteMax(score, r));
    return x !== null && scoreGteMin(x.score, r) ? x : null;
  }

  firstInLex(r: LexRange): ZCursor | null {
    if (!this.meetsLex(r)) return null;
    let x: ZCursor | null;
    if (this.listpack) {
      x = this.tree.first();
      while (x !== null && !lexGteMin(x.member, r)) x = x.next();
    } else {
      x = this.tree.firstAfter((_, member) => !lexGteMin(member, r));
    }
    return x !== null && lexLteMax(x.member, r) ? x : null;
  }

  lastInLex(r: LexRange): ZCursor | null {
    if (!this.meetsLex(r)) return null;
    let x: ZCursor | null;
    if (this.listpack) {
      x = this.tree.last();
      while (x !== null && !lexLteMax(x.member, r)) x = x.prev();
    } else {
      x = this.tree.lastBefore((_, member) => lexLteMax(member, r));
    }
    return x !== null && lexGteMin(x.member, r) ? x : null;
  }

  countInScore(r: ScoreRange): number {
    if (emptyScoreRange(r)) return 0;
    const below = this.tree.countBefore((score) => !scoreGteMin(score, r));
    return Math.max(0, this.tree.countBefore((score) => scoreLteMax(score, r)) - below);
  }

  countInLex(r: LexRange): number {
    let count = 0;
    if (this.listpack) {
      for (let x = this.firstInLex(r); x !== null && lexLteMax(x.member, r); x = x.next()) count++;
      return count;
    }
    // Ranks of the first and last pairs in range, as Redis counts on a skip list.
    const first = this.firstInLex(r);
    if (first === null) return 0;
    const from = this.tree.rankOf(first.score, first.member);
    const last = this.lastInLex(r);
    return last === null ? this.size - from : Math.max(this.tree.rankOf(last.score, last.member) - from + 1, 0);
  }

  removeRangeByScore(r: ScoreRange): number {
    if (emptyScoreRange(r)) return 0;
    const start = this.tree.countBefore((score) => !scoreGteMin(score, r));
    return this.removeFrom(start, (x) => scoreLteMax(x.score, r));
  }

  removeRangeByLex(r: LexRange): number {
    const first = this.firstInLex(r);
    if (first === null) return 0;
    return this.removeFrom(this.tree.rankOf(first.score, first.member), (x) => lexLteMax(x.member, r));
  }

  /** Removes 0-based ranks start..end, both within bounds. */
  removeRangeByRank(start: number, end: number): number {
    const count = end - start + 1;
    this.tree.deleteRange(start, count, (member) => this.forget(member));
    return count;
  }

  /** A uniformly chosen pair of a non-empty set. */
  randomPair(): ZCursor {
    return this.tree.byRank(Math.floor(Math.random() * this.size))!;
  }

  /**
   * Visits members inserted from cursor `from` on, stopping after `count` visits; returns the
   * cursor to go on from, 0 at the end. A member present for a whole walk is visited once.
   */
  scan(from: number, count: number, visit: (member: string, score: number) => void): number {
    const order = this.order;
    let i = seekSeq(order, from);
    for (let seen = 0; i < order.length && seen < count; i++) {
      const x = order[i];
      if (this.dict.get(x.member) !== x) continue;
      visit(x.member, x.score);
      seen++;
    }
    return i < order.length ? order[i].seq : 0;
  }

  /** A copy whose tree is built whole, in linear time; its scan order is the score order. */
  clone(): ZSet {
    const copy = new ZSet(this.listpack);
    const scores = new Float64Array(this.size);
    const members = new Array<string>(this.size);
    let k = 0;
    for (let x = this.tree.first(); x !== null; x = x.next(), k++) {
      scores[k] = x.score;
      members[k] = x.member;
      const entry = new ZEntry(x.member, x.score, copy.nextSeq++);
      copy.order.push(entry);
      copy.dict.set(x.member, entry);
    }
    copy.tree.load(scores, members, k);
    return copy;
  }

  /** Removes the pairs from rank `start` on while `keep` holds for them. */
  private removeFrom(start: number, keep: (x: ZCursor) => boolean): number {
    let count = 0;
    for (let x = this.tree.byRank(start); x !== null && keep(x); x = x.next()) count++;
    this.tree.deleteRange(start, count, (member) => this.forget(member));
    return count;
  }

  /** Whether some pair can be in `r`: the range is not empty and overlaps first..last. */
  private meetsLex(r: LexRange): boolean {
    const first = this.tree.first();
    return !emptyLexRange(r) && first !== null && lexGteMin(this.tree.last()!.member, r) && lexLteMax(first.member, r);
  }

  private forget(member: string): void {
    this.dict.delete(member);
    if (++this.deadInOrder > 1024 && this.deadInOrder * 2 > this.order.length) {
      this.order = this.order.filter((x) => this.dict.get(x.member) === x);
      this.deadInOrder = 0;
    }
  }
}

/**
 * A score as a listpack keeps it: Redis 7 stores integral scores as integers there, so -0
 * becomes 0 (the skiplist encoding keeps -0, and ZSCORE then prints "-0").
 */
function listpackScore(score: number): number {
  return score === 0 ? 0 : score;
}

export const ZSET_KIND: ContainerKind = registerKind({
  type: 'zset',
  tag: 4,
  clone: (v) => (v as ZSet).clone(),
  encode(v) {
    const z = v as ZSet;
    const pairs = function* () {
      for (let x = z.first(); x !== null; x = x.next()) yield x;
    };
    return encodeEntries(z.size, pairs());
  },
  decode(bytes) {
    const entries = decodeEntries(bytes);
    if (entries === null) return null;
    const z = ZSet.of(entries);
    return z.size === entries.length ? z : null; // a repeated member is not a valid encoding
  },
  encoding: (v) => ((v as ZSet).listpack ? 'listpack' : 'skiplist'),
  memoryUsage: (v, samples) => zsetMemory(v as ZSet, samples),
});

/** sizeof(zset) + sizeof(zskiplist), and the skiplist's header node of 32 levels (536 bytes, allocated as 640). */
const SKIPLIST_FIXED = 16 + 32 + 640;
/**
 * A skiplist node is 24 bytes and 16 per level, its level random (a quarter go up each
 * level): this is the expected jemalloc size, as Larder keeps no levels to measure.
 */
const SKIPLIST_NODE = 53;

/**
 * Redis 7.0's size of a sorted set: one listpack of members and scores (each score as the
 * text d2string makes, stored as an integer when it reads as one), or a skiplist plus a dict.
 */
function zsetMemory(z: ZSet, samples: number): number {
  // Score order, the order Redis samples a skiplist in.
  const pairs = function* () {
    for (let x = z.first(); x !== null; x = x.next()) yield x;
  };
  if (z.listpack) {
    let bytes = LISTPACK_OVERHEAD;
    for (const x of pairs()) bytes += stringSize(x.member) + stringSize(formatG(listpackScore(x.score), 17));
    return ROBJ + jemallocSize(bytes);
  }
  const node = (x: ZCursor) => sdsSize(x.member.length) + DICT_ENTRY + SKIPLIST_NODE;
  return ROBJ + SKIPLIST_FIXED + dictSize(z.size) + sampled(pairs(), z.size, samples, node);
}

// The sorted-set value (TYPE zset, tag 4): as in Redis, a map member -> node for O(1) score
// lookups and a skip list ordered by (score, member) for O(log n) rank and range operations.
// Not safe for concurrent use; the JS thread is the only one.
//
// The API other families build on (GEO stores its points here):
//   add(member, score)    insert or re-score; says whether it added, updated or did nothing
//   score(member)         the score, or undefined
//   rank(member, rev)     0-based rank, -1 when absent
//   remove(member)        true when it was there
//   firstInScore / lastInScore (range) and node.forward / node.backward to walk a score range
//   size, first, last, byRank(i)
// Scores are never NaN: callers refuse NaN before calling add.
//
// `listpack` tracks the encoding Redis would use for the same history (at most 128 members
// of at most 64 bytes, kept until something makes it grow past that; Redis never converts
// back except when it builds a value whole). It answers OBJECT ENCODING, and it decides two
// behaviours that are visible: a listpack ZSCAN returns everything in one call, and a listpack
// walks lex ranges linearly (which differs from a skip-list descent only when members carry
// different scores, where Redis documents the result as unspecified); a listpack also stores
// a score of -0 as 0.

import { registerKind, type Container, type ContainerKind } from '../value.js';
import { lexGteMin, lexLteMax, type LexRange, type ScoreRange } from './range.js';
import { SkipList, type ZNode } from './skiplist.js';
import { decodeEntries, encodeEntries } from './zset-codec.js';
import { seekSeq } from '../insertion-order.js';

export type { ZNode } from './skiplist.js';

/** Redis's zset-max-listpack-entries and zset-max-listpack-value defaults. */
export const LISTPACK_MAX_ENTRIES = 128;
export const LISTPACK_MAX_VALUE = 64;

export const ADDED = 1;
export const UPDATED = 2;
export const UNCHANGED = 0;
export type AddResult = typeof ADDED | typeof UPDATED | typeof UNCHANGED;

export class ZSet implements Container {
  readonly kind: ContainerKind = ZSET_KIND;
  private readonly dict = new Map<string, ZNode>();
  private readonly list = new SkipList();
  /** Every node ever inserted, by `seq`, dead ones (no longer in `dict`) until compaction. */
  private order: ZNode[] = [];
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
    for (const [member, score] of entries) z.add(member, score);
    return z;
  }

  get size(): number {
    return this.dict.size;
  }

  get first(): ZNode | null {
    return this.list.first;
  }

  get last(): ZNode | null {
    return this.list.tail;
  }

  score(member: string): number | undefined {
    return this.dict.get(member)?.score;
  }

  add(member: string, score: number): AddResult {
    const node = this.dict.get(member);
    if (node !== undefined) {
      if (node.score === score) return UNCHANGED;
      this.list.updateScore(node, this.listpack ? listpackScore(score) : score);
      return UPDATED;
    }
    if (this.listpack && (this.dict.size + 1 > LISTPACK_MAX_ENTRIES || member.length > LISTPACK_MAX_VALUE)) {
      this.listpack = false;
    }
    if (this.listpack) score = listpackScore(score);
    const created = this.list.insert(score, member);
    created.seq = this.nextSeq++;
    this.order.push(created);
    this.dict.set(member, created);
    return ADDED;
  }

  remove(member: string): boolean {
    const node = this.dict.get(member);
    if (node === undefined) return false;
    this.list.delete(node);
    this.forget(node);
    return true;
  }

  /** 0-based rank from the lowest score (from the highest if `reverse`); -1 when absent. */
  rank(member: string, reverse = false): number {
    const node = this.dict.get(member);
    if (node === undefined) return -1;
    const rank = this.list.rankOf(node);
    return reverse ? this.size - rank : rank - 1;
  }

  /** The node at 0-based rank `index` from the lowest score. */
  byRank(index: number): ZNode | null {
    return this.list.byRank(index + 1);
  }

  firstInScore(r: ScoreRange): ZNode | null {
    return this.list.firstInScore(r);
  }

  lastInScore(r: ScoreRange): ZNode | null {
    return this.list.lastInScore(r);
  }

  firstInLex(r: LexRange): ZNode | null {
    if (!this.listpack) return this.list.firstInLex(r);
    if (!this.list.meetsLex(r)) return null;
    let x = this.list.first;
    while (x !== null && !lexGteMin(x.member, r)) x = x.forward;
    return x !== null && lexLteMax(x.member, r) ? x : null;
  }

  lastInLex(r: LexRange): ZNode | null {
    if (!this.listpack) return this.list.lastInLex(r);
    if (!this.list.meetsLex(r)) return null;
    let x = this.list.tail;
    while (x !== null && !lexLteMax(x.member, r)) x = x.backward;
    return x !== null && lexGteMin(x.member, r) ? x : null;
  }

  countInScore(r: ScoreRange): number {
    const first = this.list.firstInScore(r);
    return first === null ? 0 : this.list.rankOf(this.list.lastInScore(r)!) - this.list.rankOf(first) + 1;
  }

  countInLex(r: LexRange): number {
    let count = 0;
    if (this.listpack) {
      for (let x = this.firstInLex(r); x !== null && lexLteMax(x.member, r); x = x.forward) count++;
      return count;
    }
    // Ranks of the first and last nodes in range, as Redis counts on a skip list.
    const first = this.list.firstInLex(r);
    if (first === null) return 0;
    const last = this.list.lastInLex(r);
    count = this.size - this.list.rankOf(first) + 1;
    if (last !== null) count -= this.size - this.list.rankOf(last);
    return Math.max(count, 0);
  }

  removeRangeByScore(r: ScoreRange): number {
    return this.list.deleteRangeByScore(r, (x) => this.forget(x));
  }

  removeRangeByLex(r: LexRange): number {
    if (!this.listpack) return this.list.deleteRangeByLex(r, (x) => this.forget(x));
    let removed = 0;
    for (let x = this.firstInLex(r); x !== null && lexLteMax(x.member, r); removed++) {
      const next = x.forward;
      this.list.delete(x);
      this.forget(x);
      x = next;
    }
    return removed;
  }

  /** Removes 0-based ranks start..end, both within bounds. */
  removeRangeByRank(start: number, end: number): number {
    return this.list.deleteRangeByRank(start + 1, end + 1, (x) => this.forget(x));
  }

  /** A uniformly chosen node of a non-empty set. */
  randomNode(): ZNode {
    return this.list.byRank(1 + Math.floor(Math.random() * this.size))!;
  }

  /**
   * Visits nodes inserted from cursor `from` on, stopping after `count` visits; returns the
   * cursor to go on from, 0 at the end. A member present for a whole walk is visited once.
   */
  scan(from: number, count: number, visit: (x: ZNode) => void): number {
    const order = this.order;
    let i = seekSeq(order, from);
    for (let seen = 0; i < order.length && seen < count; i++) {
      const x = order[i];
      if (this.dict.get(x.member) !== x) continue;
      visit(x);
      seen++;
    }
    return i < order.length ? order[i].seq : 0;
  }

  clone(): ZSet {
    const copy = new ZSet(this.listpack);
    for (let x = this.list.first; x !== null; x = x.forward) copy.add(x.member, x.score);
    return copy;
  }

  private forget(x: ZNode): void {
    this.dict.delete(x.member);
    if (++this.deadInOrder > 1024 && this.deadInOrder * 2 > this.order.length) {
      this.order = this.order.filter((n) => this.dict.get(n.member) === n);
      this.deadInOrder = 0;
    }
  }
}

/**
 * A score as a listpack keeps it: Redis 7 stores integral scores as integers there, so -0
 * becomes 0 (a skip list keeps -0, and ZSCORE then prints "-0").
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
    const nodes = function* () {
      for (let x = z.first; x !== null; x = x.forward) yield x;
    };
    return encodeEntries(z.size, nodes());
  },
  decode(bytes) {
    const entries = decodeEntries(bytes);
    if (entries === null) return null;
    const z = ZSet.of(entries);
    return z.size === entries.length ? z : null; // a repeated member is not a valid encoding
  },
  encoding: (v) => ((v as ZSet).listpack ? 'listpack' : 'skiplist'),
});

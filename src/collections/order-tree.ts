// An order-statistic B+ tree of (score, member) pairs: the sorted-set index (as Dragonfly's
// bptree replaces Redis's skip list), and the order of what else is listed or searched by
// position (a search field's values, the queue's messages and dead letters). Leaves keep their entries sorted in parallel arrays
// (a Float64Array of scores, an array of members) and are linked both ways for iteration;
// inner nodes keep their children, the number of entries under each child (for ranks) and
// separator keys. A descent touches a handful of nodes with a few contiguous arrays each, where
// a skip list chases a pointer to a scattered node per step.
//
// Invariants: pairs are unique (the owning ZSet checks before inserting) and no score is NaN.
// Pairs order by score, then member as byte strings (JS string order for latin1 strings); -0
// and 0 are the same score. Separator i (i >= 1) of an inner node is <= every pair under child
// i and > every pair under child i - 1; a deletion may leave it below child i's first pair,
// which keeps that true. Deletions keep every node but the root at `min` entries or children
// or more; an append split may leave a smaller last node, which later appends fill. Every leaf
// but an empty root holds a pair, every inner node at least 2 children. The tree has `height`
// inner levels above its leaves.
// A cursor is valid until the next change to the tree. Not safe for concurrent use; the JS
// thread is the only one.

import {
  childFor,
  FIRST_ROOM,
  Inner,
  insertChild,
  insertInLeaf,
  Leaf,
  less,
  lowerBound,
  moveChildren,
  moveEntries,
  moveFrom,
  positionOf,
  removeChild,
  reserve,
  sumCounts,
  ZCursor,
  type Node,
} from './tree-nodes.js';

export { ZCursor } from './tree-nodes.js';

/** A predicate true for a prefix of the pairs in order (and false for the rest). */
export type Before = (score: number, member: string) => boolean;

/** The default fanout: a full leaf's scores are 1 KiB, searched in a few cache lines. */
const LEAF_CAP = 128;
const INNER_CAP = 128;

export class OrderTree {
  private root: Node;
  private height = 0;
  private head: Leaf;
  private tail: Leaf;
  size = 0;
  private readonly leafMin: number;
  private readonly innerMin: number;
  // The path of the last descent (node and child index per level), reused to spare allocations.
  private readonly pathNodes: Inner[] = [];
  private readonly pathIdx: number[] = [];
  // Where the last seek ended.
  private atLeaf: Leaf;
  private atPos = 0;
  private atRank = 0;

  /** Smaller capacities (at least 4) let tests reach splits and merges with few pairs. */
  constructor(
    private readonly leafCap = LEAF_CAP,
    private readonly innerCap = INNER_CAP,
  ) {
    this.leafMin = Math.max(1, leafCap >> 2);
    this.innerMin = Math.max(2, innerCap >> 2);
    this.root = this.head = this.tail = this.atLeaf = new Leaf(Math.min(FIRST_ROOM, leafCap));
  }

  first(): ZCursor | null {
    return this.size === 0 ? null : new ZCursor(this.head, 0);
  }

  last(): ZCursor | null {
    return this.size === 0 ? null : new ZCursor(this.tail, this.tail.n - 1);
  }

  /** Adds a pair known to be absent. */
  insert(score: number, member: string): void {
    let x = this.root;
    for (let d = 0; d < this.height; d++) {
      const p = x as Inner;
      const i = childFor(p, score, member);
      p.counts[i]++;
      this.pathNodes[d] = p;
      this.pathIdx[d] = i;
      x = p.children[i];
    }
    const leaf = x as Leaf;
    const pos = lowerBound(leaf, score, member);
    this.size++;
    if (leaf.n < this.leafCap) {
      insertInLeaf(leaf, pos, score, member, this.leafCap);
      return;
    }
    // An append leaves the full leaf as it is, so that ascending inserts fill leaves.
    const append = pos === leaf.n;
    const mid = append ? leaf.n : leaf.n >> 1;
    const right = new Leaf(this.leafCap);
    moveEntries(leaf, mid, right, 0, leaf.n - mid);
    right.n = leaf.n - mid;
    leaf.n = mid;
    if (append || pos > mid) insertInLeaf(right, pos - mid, score, member, this.leafCap);
    else insertInLeaf(leaf, pos, score, member, this.leafCap);
    right.next = leaf.next;
    right.prev = leaf;
    if (leaf.next !== null) leaf.next.prev = right;
    else this.tail = right;
    leaf.next = right;
    this.addChild(this.height - 1, leaf, right, right.scores[0], right.members[0], leaf.n, right.n);
  }

  /** Removes a pair known to be present. */
  delete(score: number, member: string): void {
    let x = this.root;
    for (let d = 0; d < this.height; d++) {
      const p = x as Inner;
      const i = childFor(p, score, member);
      p.counts[i]--;
      this.pathNodes[d] = p;
      this.pathIdx[d] = i;
      x = p.children[i];
    }
    const leaf = x as Leaf;
    const pos = lowerBound(leaf, score, member);
    if (pos === leaf.n || leaf.members[pos] !== member || leaf.scores[pos] !== score) {
      throw new Error('OrderTree.delete: pair not present');
    }
    moveEntries(leaf, pos + 1, leaf, pos, leaf.n - pos - 1);
    leaf.members[--leaf.n] = ''; // drops the reference the shift left behind
    this.size--;
    if (this.height > 0 && leaf.n < this.leafMin) this.rebalance(this.height - 1);
  }

  /** Moves a present pair to a new score, in place when its neighbours allow it. */
  updateScore(score: number, member: string, to: number): void {
    let x = this.root;
    for (let d = 0; d < this.height; d++) x = (x as Inner).children[childFor(x as Inner, score, member)];
    const leaf = x as Leaf;
    const pos = lowerBound(leaf, score, member);
    // Not the first pair of its leaf, so no separator can equal it; it stays between its neighbours.
    if (pos > 0 && pos < leaf.n - 1 && less(leaf.scores[pos - 1], leaf.members[pos - 1], to, member) && less(to, member, leaf.scores[pos + 1], leaf.members[pos + 1])) {
      leaf.scores[pos] = to;
      return;
    }
    this.delete(score, member);
    this.insert(to, member);
  }

  /** The 0-based rank of a present pair. */
  rankOf(score: number, member: string): number {
    let rank = 0;
    let x = this.root;
    for (let d = 0; d < this.height; d++) {
      const p = x as Inner;
      const i = childFor(p, score, member);
      const counts = p.counts;
      for (let j = 0; j < i; j++) rank += counts[j];
      x = p.children[i];
    }
    return rank + positionOf(x as Leaf, score, member);
  }

  /** The pair of 0-based rank `rank`, or null. */
  byRank(rank: number): ZCursor | null {
    if (rank < 0 || rank >= this.size) return null;
    let x = this.root;
    for (let d = 0; d < this.height; d++) {
      const p = x as Inner;
      let i = 0;
      while (rank >= p.counts[i]) rank -= p.counts[i++];
      x = p.children[i];
    }
    return new ZCursor(x as Leaf, rank);
  }

  /** The first pair for which `before` is false, or null when there is none. */
  firstAfter(before: Before): ZCursor | null {
    this.seek(before);
    return this.atPos < this.atLeaf.n ? new ZCursor(this.atLeaf, this.atPos) : null;
  }

  /** The last pair for which `before` is true, or null when there is none. */
  lastBefore(before: Before): ZCursor | null {
    this.seek(before);
    if (this.atRank === 0) return null;
    return this.atPos < this.atLeaf.n ? new ZCursor(this.atLeaf, this.atPos).prev() : this.last();
  }

  /** How many pairs `before` is true for. */
  countBefore(before: Before): number {
    this.seek(before);
    return this.atRank;
  }

  /**
   * Removes `count` pairs from 0-based rank `start` on, telling `removed` about each. A few
   * are deleted one by one; many rebuild the tree from what stays, in linear time.
   */
  deleteRange(start: number, count: number, removed: (member: string) => void): void {
    if (count <= 0) return;
    if (count * 16 < this.size) {
      const scores = new Float64Array(count);
      const members = new Array<string>(count);
      let c = this.byRank(start);
      for (let k = 0; k < count; k++, c = c!.next()) {
        scores[k] = c!.score;
        members[k] = c!.member;
      }
      for (let k = 0; k < count; k++) {
        this.delete(scores[k], members[k]);
        removed(members[k]);
      }
      return;
    }
    const keep = this.size - count;
    const scores = new Float64Array(keep);
    const members = new Array<string>(keep);
    let k = 0;
    let rank = 0;
    for (let leaf: Leaf | null = this.head; leaf !== null; leaf = leaf.next) {
      for (let i = 0; i < leaf.n; i++, rank++) {
        if (rank >= start && rank < start + count) {
          removed(leaf.members[i]);
        } else {
          scores[k] = leaf.scores[i];
          members[k++] = leaf.members[i];
        }
      }
    }
    this.load(scores, members, keep);
  }

  /** Replaces the content with `n` pairs given in order, building full nodes bottom up. */
  load(scores: Float64Array, members: string[], n: number): void {
    this.size = n;
    this.height = 0;
    const leafCount = Math.max(1, Math.ceil(n / this.leafCap));
    let level: Node[] = [];
    let firstScores: number[] = [];
    let firstMembers: string[] = [];
    let prev: Leaf | null = null;
    let at = 0;
    for (let l = 0; l < leafCount; l++) {
      // A lone leaf gets only the room it needs, as a new set's does.
      const leaf = new Leaf(leafCount === 1 ? Math.min(this.leafCap, Math.max(n, FIRST_ROOM)) : this.leafCap);
      // Spread evenly, so every leaf holds at least half of what a full one does.
      const take = Math.floor((n * (l + 1)) / leafCount) - at;
      moveFrom(scores, members, at, leaf, take);
      firstScores.push(scores[at]);
      firstMembers.push(members[at]);
      at += take;
      leaf.prev = prev;
      if (prev !== null) prev.next = leaf;
      else this.head = leaf;
      prev = leaf;
      level.push(leaf);
    }
    this.tail = prev!;
    let counts = level.map((x) => (x as Leaf).n);
    while (level.length > 1) {
      const groups = Math.ceil(level.length / this.innerCap);
      const up: Node[] = [];
      const upCounts: number[] = [];
      const upScores: number[] = [];
      const upMembers: string[] = [];
      let from = 0;
      for (let g = 0; g < groups; g++) {
        const to = Math.floor((level.length * (g + 1)) / groups);
        const p = new Inner(this.innerCap);
        let total = 0;
        for (let j = from; j < to; j++) {
          const i = p.n++;
          p.children[i] = level[j];
          p.counts[i] = counts[j];
          p.sepScores[i] = firstScores[j];
          p.sepMembers[i] = firstMembers[j];
          total += counts[j];
        }
        up.push(p);
        upCounts.push(total);
        upScores.push(firstScores[from]);
        upMembers.push(firstMembers[from]);
        from = to;
      }
      level = up;
      counts = upCounts;
      firstScores = upScores;
      firstMembers = upMembers;
      this.height++;
    }
    this.root = level[0];
    this.atLeaf = this.head;
  }

  /**
   * Finds the first pair `before` is false for: sets atLeaf/atPos (atPos === atLeaf.n past
   * the last pair) and atRank, the number of pairs before it.
   */
  private seek(before: Before): void {
    let rank = 0;
    let x = this.root;
    for (let d = 0; d < this.height; d++) {
      const p = x as Inner;
      let lo = 1;
      let hi = p.n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (before(p.sepScores[mid], p.sepMembers[mid])) lo = mid + 1;
        else hi = mid;
      }
      const i = lo - 1;
      for (let j = 0; j < i; j++) rank += p.counts[j];
      x = p.children[i];
    }
    let leaf = x as Leaf;
    let lo = 0;
    let hi = leaf.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(leaf.scores[mid], leaf.members[mid])) lo = mid + 1;
      else hi = mid;
    }
    rank += lo;
    if (lo === leaf.n && leaf.next !== null) {
      leaf = leaf.next;
      lo = 0;
    }
    this.atLeaf = leaf;
    this.atPos = lo;
    this.atRank = rank;
  }

  /**
   * Puts `right` after `left` under the parent at path level `d` (a new root when d < 0),
   * splitting the parent when it is full.
   */
  private addChild(d: number, left: Node, right: Node, sepScore: number, sepMember: string, leftCount: number, rightCount: number): void {
    if (d < 0) {
      const root = new Inner(this.innerCap);
      root.n = 2;
      root.children[0] = left;
      root.children[1] = right;
      root.counts[0] = leftCount;
      root.counts[1] = rightCount;
      root.sepScores[1] = sepScore;
      root.sepMembers[1] = sepMember;
      this.root = root;
      this.height++;
      return;
    }
    const p = this.pathNodes[d];
    const i = this.pathIdx[d];
    p.counts[i] = leftCount;
    if (p.n < this.innerCap) {
      insertChild(p, i + 1, right, rightCount, sepScore, sepMember);
      return;
    }
    const q = new Inner(this.innerCap);
    // As for leaves, an append moves just the last child (q needs two).
    const mid = i + 1 === p.n ? p.n - 1 : p.n >> 1;
    moveChildren(p, mid, q, 0, p.n - mid);
    q.n = p.n - mid;
    p.n = mid;
    // i + 1 === mid appends to p, so q keeps its first separator, the one that goes up.
    if (i + 1 <= mid) insertChild(p, i + 1, right, rightCount, sepScore, sepMember);
    else insertChild(q, i + 1 - mid, right, rightCount, sepScore, sepMember);
    this.addChild(d - 1, p, q, q.sepScores[0], q.sepMembers[0], sumCounts(p), sumCounts(q));
  }

  /** The child at path level `d` is under its minimum: merges it with a sibling or evens them. */
  private rebalance(d: number): void {
    const p = this.pathNodes[d];
    const li = this.pathIdx[d] > 0 ? this.pathIdx[d] - 1 : 0;
    const ri = li + 1;
    if (d === this.height - 1) this.rebalanceLeaves(p, li, p.children[li] as Leaf, p.children[ri] as Leaf);
    else this.rebalanceInners(p, li, p.children[li] as Inner, p.children[ri] as Inner);
    if (d === 0) {
      if (p.n === 1) {
        this.root = p.children[0];
        this.height--;
      }
    } else if (p.n < this.innerMin) {
      this.rebalance(d - 1);
    }
  }

  private rebalanceLeaves(p: Inner, li: number, left: Leaf, right: Leaf): void {
    const total = left.n + right.n;
    if (total <= this.leafCap) {
      reserve(left, total, this.leafCap);
      moveEntries(right, 0, left, left.n, right.n);
      left.n = total;
      left.next = right.next;
      if (right.next !== null) right.next.prev = left;
      else this.tail = left;
      p.counts[li] = total;
      removeChild(p, li + 1);
      return;
    }
    const want = total >> 1;
    if (left.n < want) {
      const k = want - left.n;
      reserve(left, want, this.leafCap);
      moveEntries(right, 0, left, left.n, k);
      moveEntries(right, k, right, 0, right.n - k);
      right.n -= k;
    } else {
      const k = left.n - want;
      reserve(right, right.n + k, this.leafCap);
      moveEntries(right, 0, right, k, right.n);
      moveEntries(left, want, right, 0, k);
      right.n += k;
    }
    left.n = want;
    p.counts[li] = left.n;
    p.counts[li + 1] = right.n;
    p.sepScores[li + 1] = right.scores[0];
    p.sepMembers[li + 1] = right.members[0];
  }

  private rebalanceInners(p: Inner, li: number, left: Inner, right: Inner): void {
    // Right's first child is keyed by the parent's separator while the two are one sequence.
    right.sepScores[0] = p.sepScores[li + 1];
    right.sepMembers[0] = p.sepMembers[li + 1];
    const total = left.n + right.n;
    if (total <= this.innerCap) {
      moveChildren(right, 0, left, left.n, right.n);
      left.n = total;
      p.counts[li] += p.counts[li + 1];
      removeChild(p, li + 1);
      return;
    }
    const want = total >> 1;
    if (left.n < want) {
      const k = want - left.n;
      moveChildren(right, 0, left, left.n, k);
      moveChildren(right, k, right, 0, right.n - k);
      right.n -= k;
    } else {
      const k = left.n - want;
      moveChildren(right, 0, right, k, right.n);
      moveChildren(left, want, right, 0, k);
      right.n += k;
    }
    left.n = want;
    p.counts[li] = sumCounts(left);
    p.counts[li + 1] = sumCounts(right);
    p.sepScores[li + 1] = right.sepScores[0];
    p.sepMembers[li + 1] = right.sepMembers[0];
  }
}

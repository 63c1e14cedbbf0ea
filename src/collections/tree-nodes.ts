// The nodes of the sorted-set B+ tree (order-tree.ts) and the array moves on them: leaves hold
// pairs in parallel arrays (scores in a Float64Array, members beside them), inner nodes hold
// children with their pair counts and separator keys. Moves copy like memmove, so that a
// node can shift its own entries. Not safe for concurrent use; the JS thread is the only one.

/** A new set's leaf starts this small (most sorted sets are small) and doubles as it fills. */
export const FIRST_ROOM = 4;

/** Whether (s1, m1) sorts before (s2, m2). */
export function less(s1: number, m1: string, s2: number, m2: string): boolean {
  return s1 < s2 || (s1 === s2 && m1 < m2);
}

export class Leaf {
  n = 0;
  /** Room for `scores.length` pairs, grown on demand up to the tree's leaf capacity. */
  scores: Float64Array;
  members: string[];
  prev: Leaf | null = null;
  next: Leaf | null = null;

  constructor(room: number) {
    this.scores = new Float64Array(room);
    this.members = new Array<string>(room).fill('');
  }
}

export class Inner {
  n = 0;
  readonly children: Node[];
  /** Pairs under each child. */
  readonly counts: Float64Array;
  /** Separator keys; index 0 is unused. */
  readonly sepScores: Float64Array;
  readonly sepMembers: string[];

  constructor(cap: number) {
    this.children = new Array<Node>(cap);
    this.counts = new Float64Array(cap);
    this.sepScores = new Float64Array(cap);
    this.sepMembers = new Array<string>(cap).fill('');
  }
}

export type Node = Leaf | Inner;

/** A position in the tree: read `member` and `score`, step with next() and prev(). */
export class ZCursor {
  constructor(
    private leaf: Leaf,
    private i: number,
  ) {}

  get member(): string {
    return this.leaf.members[this.i];
  }

  get score(): number {
    return this.leaf.scores[this.i];
  }

  /** Moves to the next pair; null (and the cursor spent) after the last. */
  next(): ZCursor | null {
    if (++this.i < this.leaf.n) return this;
    if (this.leaf.next === null) return null;
    this.leaf = this.leaf.next;
    this.i = 0;
    return this;
  }

  /** Moves to the previous pair; null (and the cursor spent) before the first. */
  prev(): ZCursor | null {
    if (--this.i >= 0) return this;
    if (this.leaf.prev === null) return null;
    this.leaf = this.leaf.prev;
    this.i = this.leaf.n - 1;
    return this;
  }
}

/** The child of `p` whose subtree holds (score, member) or would. */
export function childFor(p: Inner, score: number, member: string): number {
  const scores = p.sepScores;
  let lo = 1;
  let hi = p.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = scores[mid];
    if (score < s || (score === s && member < p.sepMembers[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/** The first position of `leaf` not before (score, member). */
export function lowerBound(leaf: Leaf, score: number, member: string): number {
  const scores = leaf.scores;
  let lo = 0;
  let hi = leaf.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = scores[mid];
    if (s < score || (s === score && leaf.members[mid] < member)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The position of a pair known to be in `leaf`. It reads a member only among pairs of equal
 * score, so a lookup by rank on distinct scores never loads the stored member string.
 */
export function positionOf(leaf: Leaf, score: number, member: string): number {
  const scores = leaf.scores;
  let lo = 0;
  let hi = leaf.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (scores[mid] < score) lo = mid + 1;
    else hi = mid;
  }
  hi = lo + 1;
  while (hi < leaf.n && scores[hi] === score) hi++;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (leaf.members[mid] <= member) lo = mid;
    else hi = mid;
  }
  return lo;
}

export function insertInLeaf(leaf: Leaf, pos: number, score: number, member: string, cap: number): void {
  reserve(leaf, leaf.n + 1, cap);
  moveEntries(leaf, pos, leaf, pos + 1, leaf.n - pos);
  leaf.scores[pos] = score;
  leaf.members[pos] = member;
  leaf.n++;
}

/** Grows the leaf's arrays to hold `need` pairs, doubling, up to `cap`. */
export function reserve(leaf: Leaf, need: number, cap: number): void {
  const room = leaf.scores.length;
  if (need <= room) return;
  const grown = Math.min(cap, Math.max(need, room * 2, FIRST_ROOM));
  const scores = new Float64Array(grown);
  scores.set(leaf.scores.subarray(0, leaf.n));
  leaf.scores = scores;
  for (let j = leaf.members.length; j < grown; j++) leaf.members.push('');
}

/** Copies `k` entries, overlapping ranges of one leaf included (as memmove). */
export function moveEntries(from: Leaf, at: number, to: Leaf, dest: number, k: number): void {
  if (k <= 0) return;
  if (from === to) to.scores.copyWithin(dest, at, at + k);
  else to.scores.set(from.scores.subarray(at, at + k), dest);
  const fm = from.members;
  const tm = to.members;
  if (from === to && dest > at) for (let j = k - 1; j >= 0; j--) tm[dest + j] = fm[at + j];
  else for (let j = 0; j < k; j++) tm[dest + j] = fm[at + j];
}

/** Fills an empty leaf with the `k` pairs of the arrays from `at` on. */
export function moveFrom(scores: Float64Array, members: string[], at: number, leaf: Leaf, k: number): void {
  leaf.scores.set(scores.subarray(at, at + k), 0);
  for (let j = 0; j < k; j++) leaf.members[j] = members[at + j];
  leaf.n = k;
}

/** Copies `k` children with their counts and separators, as memmove. */
export function moveChildren(from: Inner, at: number, to: Inner, dest: number, k: number): void {
  if (k <= 0) return;
  if (from === to) {
    to.counts.copyWithin(dest, at, at + k);
    to.sepScores.copyWithin(dest, at, at + k);
  } else {
    to.counts.set(from.counts.subarray(at, at + k), dest);
    to.sepScores.set(from.sepScores.subarray(at, at + k), dest);
  }
  const up = from === to && dest > at;
  for (let t = 0; t < k; t++) {
    const j = up ? k - 1 - t : t;
    to.children[dest + j] = from.children[at + j];
    to.sepMembers[dest + j] = from.sepMembers[at + j];
  }
}

export function insertChild(p: Inner, i: number, child: Node, count: number, sepScore: number, sepMember: string): void {
  moveChildren(p, i, p, i + 1, p.n - i);
  p.children[i] = child;
  p.counts[i] = count;
  p.sepScores[i] = sepScore;
  p.sepMembers[i] = sepMember;
  p.n++;
}

export function removeChild(p: Inner, i: number): void {
  moveChildren(p, i + 1, p, i, p.n - i - 1);
  p.n--;
  p.sepMembers[p.n] = '';
}

export function sumCounts(p: Inner): number {
  let total = 0;
  for (let j = 0; j < p.n; j++) total += p.counts[j];
  return total;
}

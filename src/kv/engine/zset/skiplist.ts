// Redis's sorted-set skip list (t_zset.c zsl*): nodes ordered by (score, member), each level's
// forward pointer with a span (how many nodes it jumps), and a backward pointer on level 0.
// Spans make rank queries O(log n): the rank of a node is the sum of the spans walked to it.
//
// Invariants: (score, member) pairs are unique (the owning ZSet checks before inserting); no
// score is NaN; `head` is a sentinel of MAX_LEVEL levels whose spans count to the first node
// of each level. Not safe for concurrent use; the JS thread is the only one.

import { lexGteMin, lexLteMax, emptyLexRange, emptyScoreRange, scoreGteMin, scoreLteMax } from './range.js';
import type { LexRange, ScoreRange } from './range.js';

const MAX_LEVEL = 32; //  Redis ZSKIPLIST_MAXLEVEL
const P = 0.25; //        Redis ZSKIPLIST_P: the chance a node reaches the next level

export class ZNode {
  backward: ZNode | null = null;
  /** Forward pointer per level; the node's level is their number. */
  readonly next: (ZNode | null)[];
  /** How many nodes each forward pointer jumps. */
  readonly span: number[];
  /** Owned by the ZSet holding the node: its insertion rank, the ZSCAN cursor. */
  seq = 0;

  constructor(
    readonly member: string,
    public score: number,
    level: number,
  ) {
    this.next = new Array<ZNode | null>(level).fill(null);
    this.span = new Array<number>(level).fill(0);
  }

  /** The next node in order, null after the last. */
  get forward(): ZNode | null {
    return this.next[0];
  }
}

/** Whether node `n` sorts before (score, member). */
function precedes(n: ZNode, score: number, member: string): boolean {
  return n.score < score || (n.score === score && n.member < member);
}

function randomLevel(): number {
  let level = 1;
  while (level < MAX_LEVEL && Math.random() < P) level++;
  return level;
}

export class SkipList {
  private readonly head = new ZNode('', 0, MAX_LEVEL);
  private level = 1;
  tail: ZNode | null = null;
  length = 0;
  // Scratch space of one insertion or deletion, reused to spare allocations.
  private readonly update: ZNode[] = new Array<ZNode>(MAX_LEVEL);
  private readonly rank: number[] = new Array<number>(MAX_LEVEL).fill(0);

  get first(): ZNode | null {
    return this.head.next[0];
  }

  /** Adds a (score, member) pair known to be absent. */
  insert(score: number, member: string): ZNode {
    const node = new ZNode(member, score, randomLevel());
    this.link(node);
    return node;
  }

  /** Removes a node of this list. */
  delete(x: ZNode): void {
    this.pathTo(x.score, x.member);
    this.unlink(x);
  }

  /** Moves `x` to `score`, in place when its neighbours allow it (Redis zslUpdateScore). */
  updateScore(x: ZNode, score: number): void {
    const prev = x.backward;
    const next = x.next[0];
    if ((prev === null || prev.score < score) && (next === null || next.score > score)) {
      x.score = score;
      return;
    }
    this.pathTo(x.score, x.member);
    this.unlink(x);
    x.score = score;
    this.link(x);
  }

  /** The 1-based rank of node `x` (Redis zslGetRank). */
  rankOf(x: ZNode): number {
    let rank = 0;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && (f.score < x.score || (f.score === x.score && f.member <= x.member)); f = p.next[i]) {
        rank += p.span[i];
        p = f;
      }
      if (p === x) return rank;
    }
    return 0;
  }

  /** The node of 1-based rank `rank`, or null (Redis zslGetElementByRank). */
  byRank(rank: number): ZNode | null {
    let traversed = 0;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && traversed + p.span[i] <= rank; f = p.next[i]) {
        traversed += p.span[i];
        p = f;
      }
      if (traversed === rank) return p === this.head ? null : p;
    }
    return null;
  }

  firstInScore(r: ScoreRange): ZNode | null {
    if (!this.meetsScore(r)) return null;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && !scoreGteMin(f.score, r); f = p.next[i]) p = f;
    }
    const x = p.next[0]!;
    return scoreLteMax(x.score, r) ? x : null;
  }

  lastInScore(r: ScoreRange): ZNode | null {
    if (!this.meetsScore(r)) return null;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && scoreLteMax(f.score, r); f = p.next[i]) p = f;
    }
    return scoreGteMin(p.score, r) ? p : null;
  }

  firstInLex(r: LexRange): ZNode | null {
    if (!this.meetsLex(r)) return null;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && !lexGteMin(f.member, r); f = p.next[i]) p = f;
    }
    const x = p.next[0]!;
    return lexLteMax(x.member, r) ? x : null;
  }

  lastInLex(r: LexRange): ZNode | null {
    if (!this.meetsLex(r)) return null;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && lexLteMax(f.member, r); f = p.next[i]) p = f;
    }
    return lexGteMin(p.member, r) ? p : null;
  }

  /** Removes every node with a score in `r`, telling `removed` about each. */
  deleteRangeByScore(r: ScoreRange, removed: (x: ZNode) => void): number {
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && (r.minex ? f.score <= r.min : f.score < r.min); f = p.next[i]) p = f;
      this.update[i] = p;
    }
    return this.deleteWhile(p.next[0], (x) => scoreLteMax(x.score, r), removed);
  }

  /** Removes every node whose member is in `r`, telling `removed` about each. */
  deleteRangeByLex(r: LexRange, removed: (x: ZNode) => void): number {
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && !lexGteMin(f.member, r); f = p.next[i]) p = f;
      this.update[i] = p;
    }
    return this.deleteWhile(p.next[0], (x) => lexLteMax(x.member, r), removed);
  }

  /** Removes the nodes of 1-based ranks start..end, telling `removed` about each. */
  deleteRangeByRank(start: number, end: number, removed: (x: ZNode) => void): number {
    let traversed = 0;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && traversed + p.span[i] < start; f = p.next[i]) {
        traversed += p.span[i];
        p = f;
      }
      this.update[i] = p;
    }
    let rank = traversed + 1;
    return this.deleteWhile(p.next[0], () => rank++ <= end, removed);
  }

  /** Unlinks nodes from `x` on while `keep` holds; `update` must lead to `x`. */
  private deleteWhile(x: ZNode | null, keep: (x: ZNode) => boolean, removed: (x: ZNode) => void): number {
    let count = 0;
    while (x !== null && keep(x)) {
      const next = x.next[0];
      this.unlink(x);
      removed(x);
      count++;
      x = next;
    }
    return count;
  }

  /** Whether some node can be in `r`: the range is not empty and overlaps first..last. */
  private meetsScore(r: ScoreRange): boolean {
    const first = this.head.next[0];
    return !emptyScoreRange(r) && first !== null && scoreGteMin(this.tail!.score, r) && scoreLteMax(first.score, r);
  }

  /** As meetsScore, for a lex range; the owning ZSet's linear walks ask it too. */
  meetsLex(r: LexRange): boolean {
    const first = this.head.next[0];
    return !emptyLexRange(r) && first !== null && lexGteMin(this.tail!.member, r) && lexLteMax(first.member, r);
  }

  /** Fills `update` with the last node before (score, member) on each level. */
  private pathTo(score: number, member: string): void {
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      for (let f = p.next[i]; f !== null && precedes(f, score, member); f = p.next[i]) p = f;
      this.update[i] = p;
    }
  }

  /** Links `x` at its place, on as many levels as it has (Redis zslInsert). */
  private link(x: ZNode): void {
    const update = this.update;
    const rank = this.rank;
    let p = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      rank[i] = i === this.level - 1 ? 0 : rank[i + 1];
      for (let f = p.next[i]; f !== null && precedes(f, x.score, x.member); f = p.next[i]) {
        rank[i] += p.span[i];
        p = f;
      }
      update[i] = p;
    }
    const level = x.next.length;
    if (level > this.level) {
      for (let i = this.level; i < level; i++) {
        rank[i] = 0;
        update[i] = this.head;
        this.head.span[i] = this.length;
      }
      this.level = level;
    }
    for (let i = 0; i < level; i++) {
      x.next[i] = update[i].next[i];
      update[i].next[i] = x;
      x.span[i] = update[i].span[i] - (rank[0] - rank[i]);
      update[i].span[i] = rank[0] - rank[i] + 1;
    }
    for (let i = level; i < this.level; i++) update[i].span[i]++;
    x.backward = update[0] === this.head ? null : update[0];
    if (x.next[0] !== null) x.next[0].backward = x;
    else this.tail = x;
    this.length++;
  }

  /** Unlinks `x`, given `update` leading to it (Redis zslDeleteNode). */
  private unlink(x: ZNode): void {
    const update = this.update;
    for (let i = 0; i < this.level; i++) {
      if (update[i].next[i] === x) {
        update[i].span[i] += x.span[i] - 1;
        update[i].next[i] = x.next[i];
      } else {
        update[i].span[i] -= 1;
      }
    }
    if (x.next[0] !== null) x.next[0].backward = x.backward;
    else this.tail = x.backward;
    while (this.level > 1 && this.head.next[this.level - 1] === null) this.level--;
    this.length--;
  }
}

// A list of distinct values kept in ascending order (JavaScript's < : numbers by value, text by
// UTF-16 code unit, false before true), for binary searches by position: a term dictionary's
// prefixes and a field's value ranges. Kept in the sorted sets' order-statistic B+ tree
// (collections/order-tree.ts), a number or boolean as a score, text as a member: one sorted
// array shifted its tail for every new distinct value, so indexing documents that each bring
// one (a unique number, a unique word) took time quadratic in them (100k: 15 s).
// A list holds one kind of value, a field's. Not safe for concurrent use (its index's owner,
// the database's JS thread, is the only user).

import { OrderTree } from '../../collections/order-tree.js';

type Kind = 'string' | 'number' | 'boolean';

export class SortedList<T extends string | number | boolean> {
  private tree = new OrderTree();
  /** The kind of every value, known from the first. */
  private kind: Kind | undefined;

  get length(): number {
    return this.tree.size;
  }

  at(i: number): T {
    const c = this.tree.byRank(i)!;
    return this.valueOf(c.score, c.member);
  }

  /** Adds `v`, which the list must not hold. */
  insert(v: T): void {
    this.kind ??= typeof v as Kind;
    this.tree.insert(scoreOf(v), memberOf(v));
  }

  /** Removes `v`, which the list must hold. */
  delete(v: T): void {
    this.tree.delete(scoreOf(v), memberOf(v));
  }

  clear(): void {
    this.tree = new OrderTree();
    this.kind = undefined;
  }

  /** The index of the first value >= v. */
  firstAtLeast(v: T): number {
    return this.search((x) => x < v);
  }

  /** The index of the first value > v. */
  firstAbove(v: T): number {
    return this.search((x) => x <= v);
  }

  /** The first index from `from` on whose value is not `before`; `before` must hold for a prefix of those values and no further. */
  search(before: (x: T) => boolean, from = 0): number {
    if (from >= this.length) return from;
    if (from === 0) return this.tree.countBefore((s, m) => before(this.valueOf(s, m)));
    // The values before index `from` are those below its value (values are distinct).
    const pivot = this.at(from);
    return this.tree.countBefore((s, m) => {
      const x = this.valueOf(s, m);
      return x < pivot || before(x);
    });
  }

  /** The values at indexes from..to-1. */
  slice(from: number, to: number): T[] {
    const out: T[] = [];
    for (const v of this.between(from, to)) out.push(v);
    return out;
  }

  /** The values at indexes from..to-1, in order. */
  *between(from: number, to: number): Generator<T> {
    let c = this.tree.byRank(from);
    for (let i = from; i < to && c !== null; i++, c = c.next()) yield this.valueOf(c.score, c.member);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.between(0, this.length);
  }

  private valueOf(score: number, member: string): T {
    return (this.kind === 'string' ? member : this.kind === 'number' ? score : score === 1) as T;
  }
}

function scoreOf(v: string | number | boolean): number {
  return typeof v === 'number' ? v : v === true ? 1 : 0;
}

function memberOf(v: string | number | boolean): string {
  return typeof v === 'string' ? v : '';
}

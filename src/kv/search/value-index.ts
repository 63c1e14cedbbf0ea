// The keys holding each value of one non-TEXT field, so that equality and ranges read only
// the matching keys instead of every document. Not safe for concurrent use (the database's
// JS thread owns it, as the InvertedIndex that holds it).
//
// Invariants:
// - `keys` maps every value some document holds in the field to those documents' keys, and
//   holds no empty set.
// - `sorted` holds the keys of `keys`, ascending (numbers, DATE milliseconds, or KEYWORD text
//   by code unit), so a range is two binary searches. A new value is spliced in: O(values),
//   paid once per distinct value, not per document.

import type { FieldValue } from './document.js';

export interface Bounds {
  readonly gt?: FieldValue;
  readonly gte?: FieldValue;
  readonly lt?: FieldValue;
  readonly lte?: FieldValue;
}

export class ValueIndex {
  private readonly keys = new Map<FieldValue, Set<string>>();
  private readonly sorted: FieldValue[] = [];

  add(value: FieldValue, key: string): void {
    let keys = this.keys.get(value);
    if (keys === undefined) {
      this.keys.set(value, (keys = new Set()));
      this.sorted.splice(this.firstAtLeast(value), 0, value);
    }
    keys.add(key);
  }

  remove(value: FieldValue, key: string): void {
    const keys = this.keys.get(value);
    if (keys === undefined || !keys.delete(key) || keys.size > 0) return;
    this.keys.delete(value);
    this.sorted.splice(this.firstAtLeast(value), 1);
  }

  clear(): void {
    this.keys.clear();
    this.sorted.length = 0;
  }

  /** The keys holding `value`. */
  equal(value: FieldValue): ReadonlySet<string> {
    return this.keys.get(value) ?? EMPTY;
  }

  /** The sets of keys whose values lie within `b` (a key holding several such values is in several). */
  *range(b: Bounds): Iterable<ReadonlySet<string>> {
    let from = 0;
    if (b.gte !== undefined) from = this.firstAtLeast(b.gte);
    if (b.gt !== undefined) from = Math.max(from, this.firstAbove(b.gt));
    let to = this.sorted.length;
    if (b.lte !== undefined) to = this.firstAbove(b.lte);
    if (b.lt !== undefined) to = Math.min(to, this.firstAtLeast(b.lt));
    for (let i = from; i < to; i++) yield this.keys.get(this.sorted[i])!;
  }

  /** The index of the first value >= v. */
  private firstAtLeast(v: FieldValue): number {
    return this.search((x) => x < v);
  }

  /** The index of the first value > v. */
  private firstAbove(v: FieldValue): number {
    return this.search((x) => x <= v);
  }

  /** The first index whose value is not `before` (values are ordered, so `before` holds for a prefix). */
  private search(before: (x: FieldValue) => boolean): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.sorted[mid])) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

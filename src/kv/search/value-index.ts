// The keys holding each value of one non-TEXT field, so that equality and ranges read only
// the matching keys instead of every document. Not safe for concurrent use (the database's
// JS thread owns it, as the InvertedIndex that holds it).
//
// Invariants:
// - `keys` maps every value some document holds in the field to those documents' keys, and
//   holds no empty set.
// - `sorted` holds the keys of `keys`, ascending (numbers, DATE milliseconds, or KEYWORD text
//   by code unit), so a range is two binary searches.

import type { FieldValue } from './document.js';
import { SortedList } from './sorted-list.js';

export interface Bounds {
  readonly gt?: FieldValue;
  readonly gte?: FieldValue;
  readonly lt?: FieldValue;
  readonly lte?: FieldValue;
}

export class ValueIndex {
  private readonly keys = new Map<FieldValue, Set<string>>();
  private readonly sorted = new SortedList<FieldValue>();

  add(value: FieldValue, key: string): void {
    let keys = this.keys.get(value);
    if (keys === undefined) {
      this.keys.set(value, (keys = new Set()));
      this.sorted.insert(value);
    }
    keys.add(key);
  }

  remove(value: FieldValue, key: string): void {
    const keys = this.keys.get(value);
    if (keys === undefined || !keys.delete(key) || keys.size > 0) return;
    this.keys.delete(value);
    this.sorted.delete(value);
  }

  clear(): void {
    this.keys.clear();
    this.sorted.clear();
  }

  /** The keys holding `value`. */
  equal(value: FieldValue): ReadonlySet<string> {
    return this.keys.get(value) ?? EMPTY;
  }

  /** The sets of keys whose values lie within `b` (a key holding several such values is in several). */
  *range(b: Bounds): Iterable<ReadonlySet<string>> {
    let from = 0;
    if (b.gte !== undefined) from = this.sorted.firstAtLeast(b.gte);
    if (b.gt !== undefined) from = Math.max(from, this.sorted.firstAbove(b.gt));
    let to = this.sorted.length;
    if (b.lte !== undefined) to = this.sorted.firstAbove(b.lte);
    if (b.lt !== undefined) to = Math.min(to, this.sorted.firstAtLeast(b.lt));
    for (const v of this.sorted.between(from, to)) yield this.keys.get(v)!;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

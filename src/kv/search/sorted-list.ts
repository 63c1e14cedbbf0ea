// A list of distinct values kept in ascending order (JavaScript's < : numbers by value, text by
// UTF-16 code unit), for binary searches: a term dictionary's prefixes and a field's value
// ranges. Inserting or deleting shifts the tail, O(n), paid once per distinct value rather than
// per document. Not safe for concurrent use (its index's owner, the database's JS thread, is the
// only user).

export class SortedList<T extends string | number | boolean> {
  private readonly items: T[] = [];

  get length(): number {
    return this.items.length;
  }

  at(i: number): T {
    return this.items[i];
  }

  /** Adds `v`, which the list must not hold. */
  insert(v: T): void {
    this.items.splice(this.firstAtLeast(v), 0, v);
  }

  /** Removes `v`, which the list must hold. */
  delete(v: T): void {
    this.items.splice(this.firstAtLeast(v), 1);
  }

  clear(): void {
    this.items.length = 0;
  }

  /** The index of the first value >= v. */
  firstAtLeast(v: T): number {
    return this.search((x) => x < v);
  }

  /** The index of the first value > v. */
  firstAbove(v: T): number {
    return this.search((x) => x <= v);
  }

  /** The first index whose value is not `before`; `before` must hold for a prefix of the list and no further. */
  search(before: (x: T) => boolean, from = 0): number {
    let lo = from;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.items[mid])) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  slice(from: number, to: number): T[] {
    return this.items.slice(from, to);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.items[Symbol.iterator]();
  }
}

// One field's values by document ordinal (Tantivy's "fast field": a column per FAST field), so
// aggregations read a document's values with an array index, never through its field map or
// its key. Not safe for concurrent use (the InvertedIndex that holds it is the only writer).
//
// Documents holding one value (most do) share one array per distinct value: reading the
// column then touches a few arrays instead of one per document, and grouping by value meets
// the same value object again and again. Under Bun that makes an aggregation's pass several
// times faster (docs/benchmarks.md, Redis Search).
//
// Invariants:
// - `byOrdinal[o]` holds the values of the document with ordinal `o` in this field, and is
//   undefined when it holds none or `o` is free.
// - A one-value entry is the `values` of `alone`'s entry for that value, whose `uses` counts
//   the ordinals holding it; `alone` holds no value no document holds alone.

import type { FieldValue } from './document.js';

interface Shared {
  readonly values: readonly FieldValue[];
  uses: number;
}

export class Column {
  private readonly byOrdinal: (readonly FieldValue[] | undefined)[] = [];
  private readonly alone = new Map<FieldValue, Shared>();

  /** The values of the document with ordinal `ordinal`; undefined when it holds none. */
  at(ordinal: number): readonly FieldValue[] | undefined {
    return this.byOrdinal[ordinal];
  }

  set(ordinal: number, values: readonly FieldValue[] | undefined): void {
    this.release(this.byOrdinal[ordinal]);
    this.byOrdinal[ordinal] = values?.length === 1 ? this.share(values[0]) : values;
  }

  clear(): void {
    this.byOrdinal.length = 0;
    this.alone.clear();
  }

  private share(value: FieldValue): readonly FieldValue[] {
    let shared = this.alone.get(value);
    if (shared === undefined) this.alone.set(value, (shared = { values: [value], uses: 0 }));
    shared.uses++;
    return shared.values;
  }

  private release(values: readonly FieldValue[] | undefined): void {
    if (values?.length !== 1) return;
    const shared = this.alone.get(values[0])!;
    if (--shared.uses === 0) this.alone.delete(values[0]);
  }
}

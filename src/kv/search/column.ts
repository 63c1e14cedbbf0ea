// One field's values by document ordinal (Tantivy's "fast field": a column per FAST field), so
// aggregations read a document's values with an array index, never through its field map or
// its key. Not safe for concurrent use (the InvertedIndex that holds it is the only writer).
//
// Invariant: `byOrdinal[o]` holds the values of the document with ordinal `o` in this field
// (the same array as its field map's), and is undefined when it holds none or `o` is free.

import type { FieldValue } from './document.js';

export class Column {
  private readonly byOrdinal: (readonly FieldValue[] | undefined)[] = [];

  /** The values of the document with ordinal `ordinal`; undefined when it holds none. */
  at(ordinal: number): readonly FieldValue[] | undefined {
    return this.byOrdinal[ordinal];
  }

  set(ordinal: number, values: readonly FieldValue[] | undefined): void {
    this.byOrdinal[ordinal] = values;
  }

  clear(): void {
    this.byOrdinal.length = 0;
  }
}

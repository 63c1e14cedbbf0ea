// One index's documents and postings. Not safe for concurrent use, and needs none: it is
// changed only by the database's JS thread, right after the write that changed the key.
//
// Invariants:
// - `docs` holds every key under the index's prefixes whose value is a document of the
//   index's data type, with the fields read from it (document.ts).
// - For every TEXT field, `postings` maps each term to the keys holding it and how often
//   (term frequency), and `lengths` holds each document's term count in that field, with
//   `totalLength` their sum: what BM25 needs.
// - Other field types are matched by reading `docs` (a full scan per condition for now).

import { analyze } from './analysis.js';
import type { DocFields, FieldValue } from './document.js';
import type { FieldDef, IndexDef } from './schema.js';

interface TextField {
  readonly postings: Map<string, Map<string, number>>;
  readonly lengths: Map<string, number>;
  totalLength: number;
}

export class InvertedIndex {
  readonly docs = new Map<string, DocFields>();
  private readonly text = new Map<string, TextField>();

  constructor(readonly def: IndexDef) {
    for (const f of def.fields) if (f.type === 'TEXT') this.text.set(f.name, { postings: new Map(), lengths: new Map(), totalLength: 0 });
  }

  /** Whether `key` is under one of the index's prefixes. */
  covers(key: string): boolean {
    return this.def.prefixes.some((p) => key.startsWith(p));
  }

  /** Replaces what the index holds for `key`: its document now, or nothing (null). */
  put(key: string, doc: DocFields | null): void {
    this.remove(key);
    if (doc === null) return;
    this.docs.set(key, doc);
    for (const f of this.def.fields) {
      const values = doc.get(f.name);
      if (f.type === 'TEXT' && values !== undefined) this.addText(f, key, values);
    }
  }

  clear(): void {
    this.docs.clear();
    for (const t of this.text.values()) {
      t.postings.clear();
      t.lengths.clear();
      t.totalLength = 0;
    }
  }

  /** The keys holding `term` in TEXT field `field`, with its frequency in each. */
  postings(field: string, term: string): ReadonlyMap<string, number> | undefined {
    return this.text.get(field)?.postings.get(term);
  }

  /** A document's term count in a TEXT field, and the average over documents having the field. */
  fieldLength(field: string, key: string): { length: number; average: number } {
    const t = this.text.get(field);
    if (t === undefined || t.lengths.size === 0) return { length: 0, average: 0 };
    return { length: t.lengths.get(key) ?? 0, average: t.totalLength / t.lengths.size };
  }

  private addText(f: FieldDef, key: string, values: readonly FieldValue[]): void {
    const t = this.text.get(f.name)!;
    let length = 0;
    for (const v of values) {
      for (const term of analyze(f, String(v))) {
        let keys = t.postings.get(term);
        if (keys === undefined) t.postings.set(term, (keys = new Map()));
        keys.set(key, (keys.get(key) ?? 0) + 1);
        length++;
      }
    }
    t.lengths.set(key, length);
    t.totalLength += length;
  }

  private remove(key: string): void {
    const doc = this.docs.get(key);
    if (doc === undefined) return;
    this.docs.delete(key);
    for (const [name, t] of this.text) {
      const values = doc.get(name);
      if (values === undefined) continue;
      const f = this.def.fields.find((d) => d.name === name)!;
      for (const v of values) {
        for (const term of analyze(f, String(v))) {
          const keys = t.postings.get(term);
          if (keys?.delete(key) && keys.size === 0) t.postings.delete(term);
        }
      }
      t.totalLength -= t.lengths.get(key) ?? 0;
      t.lengths.delete(key);
    }
  }
}

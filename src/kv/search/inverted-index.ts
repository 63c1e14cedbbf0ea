// One index's documents, postings and value maps. Not safe for concurrent use, and needs none:
// it is changed only by the database's JS thread, right after the write that changed the key.
//
// Invariants:
// - `docs` holds every key under the index's prefixes whose value is a document of the
//   index's data type, with the fields read from it (document.ts).
// - For every TEXT field, `postings` maps each term to the keys holding it and the positions
//   it holds there (their count is the term frequency); `lengths` holds each document's term
//   count in that field, with `totalLength` their sum: what BM25 and phrases need. The values
//   of a multi-valued field are POSITION_GAP apart, so a phrase does not span two of them.
//   `dictionary` holds the same terms as `postings`, sorted.
//   Memory: a term found once in a document (most are) keeps its one position as a bare
//   number in the map entry; only repeated terms cost an array.
// - For every other field, a ValueIndex maps each value to the keys holding it.
// - Every document has an ordinal, a small number unique among the index's documents (freed
//   ones are reused, so the columns stay dense): `ordinals` maps its key to it and `keyAt`
//   back; `keyAt` is undefined at the ordinals in `freeOrdinals`.
// - Every FAST field and every FACET field (the fields aggregations read) has a Column holding
//   each document's values by ordinal.

import { Analyzer } from './analysis.js';
import { Column } from './column.js';
import type { DocFields } from './document.js';
import type { FieldDef, IndexDef } from './schema.js';
import { SortedList } from './sorted-list.js';
import { ValueIndex } from './value-index.js';

/** How far apart the positions of two values of one field are. */
const POSITION_GAP = 100;

/** Where a term stands in one document's field: one position, or several in ascending order. */
export type Positions = number | number[];

/** A term's postings in one field: key to the term's positions in that document. */
export type Postings = ReadonlyMap<string, Positions>;

/** How often the term occurs. */
export function termFrequency(p: Positions): number {
  return typeof p === 'number' ? 1 : p.length;
}

export function positionList(p: Positions): readonly number[] {
  return typeof p === 'number' ? [p] : p;
}

interface TextField {
  readonly analyzer: Analyzer;
  readonly postings: Map<string, Map<string, Positions>>;
  /** The keys of `postings`, sorted: fuzzy and prefix matching walk it (term-match.ts). */
  readonly dictionary: SortedList<string>;
  readonly lengths: Map<string, number>;
  totalLength: number;
}

export class InvertedIndex {
  readonly docs = new Map<string, DocFields>();
  private readonly text = new Map<string, TextField>();
  private readonly values = new Map<string, ValueIndex>();
  private readonly columns = new Map<string, Column>();
  private readonly ordinals = new Map<string, number>();
  private readonly keyAt: (string | undefined)[] = [];
  private readonly freeOrdinals: number[] = [];

  constructor(readonly def: IndexDef) {
    for (const f of def.fields) {
      if (f.type === 'TEXT') this.text.set(f.name, { analyzer: new Analyzer(f, def.language), postings: new Map(), dictionary: new SortedList(), lengths: new Map(), totalLength: 0 });
      else this.values.set(f.name, new ValueIndex());
      if (f.type !== 'TEXT' && (f.fast || f.type === 'FACET')) this.columns.set(f.name, new Column());
    }
  }

  /** Whether `key` is under one of the index's prefixes, or is a STREAM index's stream key. */
  covers(key: string): boolean {
    if (this.def.dataType === 'STREAM') return key === this.def.prefixes[0];
    return this.def.prefixes.some((p) => key.startsWith(p));
  }

  /** Replaces what the index holds for `key`: its document now, or nothing (null). */
  put(key: string, doc: DocFields | null): void {
    this.remove(key);
    if (doc === null) return;
    this.docs.set(key, doc);
    const ordinal = this.freeOrdinals.pop() ?? this.keyAt.length;
    this.ordinals.set(key, ordinal);
    this.keyAt[ordinal] = key;
    for (const [name, column] of this.columns) column.set(ordinal, doc.get(name));
    for (const [name, values] of doc) {
      const t = this.text.get(name);
      if (t !== undefined) this.addText(t, key, values.map(String));
      else for (const v of values) this.values.get(name)!.add(v, key);
    }
  }

  clear(): void {
    this.docs.clear();
    this.ordinals.clear();
    this.keyAt.length = 0;
    this.freeOrdinals.length = 0;
    for (const c of this.columns.values()) c.clear();
    for (const t of this.text.values()) {
      t.postings.clear();
      t.dictionary.clear();
      t.lengths.clear();
      t.totalLength = 0;
    }
    for (const v of this.values.values()) v.clear();
  }

  /** The analyzer of TEXT field `field`. */
  analyzer(field: FieldDef): Analyzer {
    return this.text.get(field.name)!.analyzer;
  }

  /** The keys holding `term` in TEXT field `field`, with its positions in each. */
  postings(field: string, term: string): Postings | undefined {
    return this.text.get(field)?.postings.get(term);
  }

  /** Every term TEXT field `field` holds, sorted. */
  dictionary(field: string): SortedList<string> {
    return this.text.get(field)!.dictionary;
  }

  /** The ordinal of the document `key`, which the index holds. */
  ordinalOf(key: string): number {
    return this.ordinals.get(key)!;
  }

  /**
   * The ordinals of the documents whose key `keep` accepts, ascending: every document, without
   * a score map or a key lookup ({}). `keep` may take the key it is given out of the index.
   */
  ordinalsWhere(keep: (key: string) => boolean): number[] {
    const out: number[] = [];
    for (let ordinal = 0; ordinal < this.keyAt.length; ordinal++) {
      const key = this.keyAt[ordinal];
      if (key !== undefined && keep(key)) out.push(ordinal);
    }
    return out;
  }

  /** The column of FAST or FACET field `field`. */
  column(field: string): Column {
    return this.columns.get(field)!;
  }

  /** The value map of non-TEXT field `field`. */
  valuesOf(field: string): ValueIndex {
    return this.values.get(field)!;
  }

  /** A document's term count in a TEXT field, and the average over documents having the field. */
  fieldLength(field: string, key: string): { length: number; average: number } {
    const t = this.text.get(field);
    if (t === undefined || t.lengths.size === 0) return { length: 0, average: 0 };
    return { length: t.lengths.get(key) ?? 0, average: t.totalLength / t.lengths.size };
  }

  private addText(t: TextField, key: string, values: readonly string[]): void {
    let length = 0;
    let position = 0;
    for (const v of values) {
      for (const term of t.analyzer.terms(v)) {
        let keys = t.postings.get(term);
        if (keys === undefined) {
          t.postings.set(term, (keys = new Map()));
          t.dictionary.insert(term);
        }
        const positions = keys.get(key);
        if (positions === undefined) keys.set(key, position);
        else if (typeof positions === 'number') keys.set(key, [positions, position]);
        else positions.push(position);
        position++;
        length++;
      }
      position += POSITION_GAP;
    }
    t.lengths.set(key, length);
    t.totalLength += length;
  }

  private remove(key: string): void {
    const doc = this.docs.get(key);
    if (doc === undefined) return;
    this.docs.delete(key);
    const ordinal = this.ordinals.get(key)!;
    this.ordinals.delete(key);
    this.keyAt[ordinal] = undefined;
    this.freeOrdinals.push(ordinal);
    for (const column of this.columns.values()) column.set(ordinal, undefined);
    for (const [name, values] of doc) {
      const t = this.text.get(name);
      if (t === undefined) {
        for (const v of values) this.values.get(name)!.remove(v, key);
        continue;
      }
      for (const v of values) {
        for (const term of t.analyzer.terms(String(v))) {
          const keys = t.postings.get(term);
          if (keys?.delete(key) && keys.size === 0) {
            t.postings.delete(term);
            t.dictionary.delete(term);
          }
        }
      }
      t.totalLength -= t.lengths.get(key) ?? 0;
      t.lengths.delete(key);
    }
  }
}

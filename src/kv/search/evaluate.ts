// Evaluates a filter tree over one index: the matching keys, each with its relevance score.
// TEXT terms score by BM25 (k1 = 1.2, b = 0.75, Lucene's and Tantivy's defaults) from the
// postings; every other condition that holds adds a constant 1, so a match on more clauses
// ranks higher. $mustNot and range/equality clauses read the documents.

import type { FieldValue } from './document.js';
import type { Bounds, Filter } from './filter.js';
import type { InvertedIndex } from './inverted-index.js';

const K1 = 1.2;
const B = 0.75;
const CONSTANT_SCORE = 1;

export type Scores = Map<string, number>;

export function evaluate(f: Filter, index: InvertedIndex): Scores {
  switch (f.kind) {
    case 'terms':
      return termsScores(index, f.field.name, f.terms);
    case 'any':
      return union(f.any.map((g) => evaluate(g, index)));
    case 'equals':
      return scan(index, f.field.name, (v) => f.values.some((w) => w === v));
    case 'range':
      return scan(index, f.field.name, (v) => inRange(v, f.bounds));
    case 'bool':
      return boolScores(f, index);
  }
}

function boolScores(f: Extract<Filter, { kind: 'bool' }>, index: InvertedIndex): Scores {
  let out: Scores;
  if (f.must.length > 0) {
    out = evaluate(f.must[0], index);
    for (const g of f.must.slice(1)) out = intersect(out, evaluate(g, index));
    for (const g of f.should) addScores(out, evaluate(g, index));
  } else if (f.should.length > 0) {
    out = union(f.should.map((g) => evaluate(g, index)));
  } else {
    out = new Map([...index.docs.keys()].map((k) => [k, 0]));
  }
  for (const g of f.mustNot) for (const key of evaluate(g, index).keys()) out.delete(key);
  return out;
}

/** Documents holding every term in the field, scored by the sum of each term's BM25. */
function termsScores(index: InvertedIndex, field: string, terms: readonly string[]): Scores {
  if (terms.length === 0) return new Map();
  const n = index.docs.size;
  let out: Scores | null = null;
  for (const term of terms) {
    const postings = index.postings(field, term);
    if (postings === undefined) return new Map();
    const idf = Math.log(1 + (n - postings.size + 0.5) / (postings.size + 0.5));
    const scores: Scores = new Map();
    for (const [key, tf] of postings) {
      if (out !== null && !out.has(key)) continue;
      const { length, average } = index.fieldLength(field, key);
      const norm = tf + K1 * (1 - B + (B * length) / average);
      scores.set(key, (out?.get(key) ?? 0) + (idf * tf * (K1 + 1)) / norm);
    }
    out = scores;
  }
  return out!;
}

function scan(index: InvertedIndex, field: string, holds: (v: FieldValue) => boolean): Scores {
  const out: Scores = new Map();
  for (const [key, doc] of index.docs) if (doc.get(field)?.some(holds)) out.set(key, CONSTANT_SCORE);
  return out;
}

function inRange(v: FieldValue, b: Bounds): boolean {
  if (typeof v === 'boolean') return false;
  return (
    (b.gt === undefined || v > b.gt) && (b.gte === undefined || v >= b.gte) && (b.lt === undefined || v < b.lt) && (b.lte === undefined || v <= b.lte)
  );
}

function intersect(a: Scores, b: Scores): Scores {
  const out: Scores = new Map();
  for (const [key, s] of a) {
    const t = b.get(key);
    if (t !== undefined) out.set(key, s + t);
  }
  return out;
}

function union(all: readonly Scores[]): Scores {
  const out: Scores = new Map();
  for (const s of all) addScores(out, s, true);
  return out;
}

/** Adds `from`'s scores to the keys of `into`; with `insert`, adds its missing keys too. */
function addScores(into: Scores, from: Scores, insert = false): void {
  for (const [key, s] of from) {
    const have = into.get(key);
    if (have !== undefined) into.set(key, have + s);
    else if (insert) into.set(key, s);
  }
}

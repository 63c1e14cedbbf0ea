// Evaluates a filter tree over one index: the matching keys, each with its relevance score.
// TEXT terms and phrases score by BM25 (k1 = 1.2, b = 0.75, Lucene's and Tantivy's defaults)
// from the postings; fuzzy, prefix and regex matches, and every other condition that holds,
// add a constant 1, so a match on more clauses ranks higher; a boolean node's $boost
// multiplies what it adds. Equality and ranges read the value maps (value-index.ts), never
// the documents; only the empty filter {} walks them all.

import type { Filter, PhraseSlot } from './filter.js';
import { positionList, termFrequency, type InvertedIndex, type Postings } from './inverted-index.js';

const K1 = 1.2;
const B = 0.75;
const CONSTANT_SCORE = 1;

export type Scores = Map<string, number>;

/** Whether `f` is {}, which matches every document (callers that need no scores skip evaluating it). */
export function matchesAll(f: Filter): boolean {
  return f.kind === 'bool' && f.must.length === 0 && f.should.length === 0 && f.mustNot.length === 0;
}

export function evaluate(f: Filter, index: InvertedIndex): Scores {
  switch (f.kind) {
    case 'term':
      return termScores(index, f.field.name, f.term) ?? new Map();
    case 'expand':
      return constant(f.pattern.expand(index.dictionary(f.field.name)).map((term) => index.postings(f.field.name, term)!.keys()));
    case 'phrase':
      return phraseScores(index, f);
    case 'equals': {
      const values = index.valuesOf(f.field.name);
      return constant(f.values.map((v) => values.equal(v)));
    }
    case 'range':
      return constant(index.valuesOf(f.field.name).range(f.bounds));
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
  } else if (f.mustNot.length > 0) {
    return new Map(); // the reference: $mustNot alone has no base set to filter
  } else {
    out = new Map([...index.docs.keys()].map((k) => [k, 0])); // {}: every document
  }
  for (const g of f.mustNot) for (const key of evaluate(g, index).keys()) out.delete(key);
  if (f.boost !== 1) for (const [key, s] of out) out.set(key, s * f.boost);
  return out;
}

/** The documents holding `term` in `field`, scored by its BM25; undefined when none does. */
function termScores(index: InvertedIndex, field: string, term: string): Scores | undefined {
  const postings = index.postings(field, term);
  if (postings === undefined) return undefined;
  const scores: Scores = new Map();
  for (const key of postings.keys()) scores.set(key, bm25(index, field, postings, key));
  return scores;
}

/** The BM25 of a term (its `postings`) in the document `key`, which holds it. */
function bm25(index: InvertedIndex, field: string, postings: Postings, key: string): number {
  const idf = Math.log(1 + (index.docs.size - postings.size + 0.5) / (postings.size + 0.5));
  const tf = termFrequency(postings.get(key)!);
  const { length, average } = index.fieldLength(field, key);
  return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / average));
}

/**
 * Documents holding the phrase: every slot's terms, in order, with at most `slop` positions
 * between them in all. Scored by the BM25 of its exact terms.
 */
function phraseScores(index: InvertedIndex, f: Extract<Filter, { kind: 'phrase' }>): Scores {
  const field = f.field.name;
  const slots = f.slots.map((slot) => slotPostings(index, field, slot));
  if (slots.some((s) => s.length === 0)) return new Map();
  const exact = f.slots.flatMap((slot, i) => (typeof slot === 'string' ? [slots[i][0]] : []));
  const out: Scores = new Map();
  for (const key of candidates(slots)) {
    const positions = slots.map((postings) => mergedPositions(postings, key));
    if (phraseAt(positions, f.slop)) out.set(key, exact.reduce((sum, postings) => sum + bm25(index, field, postings, key), 0));
  }
  return out;
}

/** The postings of each term that may stand in a slot. */
function slotPostings(index: InvertedIndex, field: string, slot: PhraseSlot): Postings[] {
  const terms = typeof slot === 'string' ? [slot] : slot.expand(index.dictionary(field));
  return terms.map((t) => index.postings(field, t)).filter((p): p is Postings => p !== undefined);
}

/** The keys present in every slot (read from the smallest slot's keys). */
function candidates(slots: readonly Postings[][]): string[] {
  const sizes = slots.map((s) => s.reduce((n, p) => n + p.size, 0));
  const smallest = slots[sizes.indexOf(Math.min(...sizes))];
  const keys = new Set(smallest.flatMap((p) => [...p.keys()]));
  return [...keys].filter((key) => slots.every((s) => s.some((p) => p.has(key))));
}

function mergedPositions(postings: readonly Postings[], key: string): readonly number[] {
  if (postings.length === 1) return positionList(postings[0].get(key)!);
  let all: number[] = [];
  for (const p of postings) {
    const at = p.get(key);
    if (at !== undefined) all = all.concat(positionList(at));
  }
  return all.sort((a, b) => a - b);
}

/**
 * Whether positions p0 < p1 < ... (one from each list, in order) exist with
 * (p_last - p0) - (n - 1) <= slop. From each start, taking the earliest later position of each
 * next slot gives the shortest span, so trying every start decides it. A later start only
 * moves each slot's earliest position forward, so each list is read once, by a cursor that
 * never goes back: searching each list from its beginning again took the starts times the
 * list's length (a 40-word phrase over 20,000 words: 3 s; a 300-word smart query: minutes).
 */
function phraseAt(positions: readonly (readonly number[])[], slop: number): boolean {
  const cursors = new Array<number>(positions.length).fill(0);
  for (const start of positions[0]) {
    let at = start;
    for (let i = 1; i < positions.length; i++) {
      const list = positions[i];
      let c = cursors[i];
      while (c < list.length && list[c] <= at) c++;
      cursors[i] = c;
      if (c === list.length) return false; // later starts only push every position further
      at = list[c];
    }
    if (at - start - (positions.length - 1) <= slop) return true;
  }
  return false;
}

/** Every key of `groups`, each scoring the constant once. */
function constant(groups: Iterable<Iterable<string>>): Scores {
  const out: Scores = new Map();
  for (const keys of groups) for (const key of keys) out.set(key, CONSTANT_SCORE);
  return out;
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

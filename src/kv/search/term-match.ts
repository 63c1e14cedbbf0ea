// Which indexed terms a query word matches when it is not matched exactly: fuzzily (edit
// distance), by prefix, by fuzzy prefix, or by a regular expression. A pattern answers for one
// term (highlighting) and lists the terms of a field's sorted dictionary it matches
// (evaluation). A word is tried as typed (lower-cased) and as its stem, since the index holds
// stems: "wireles" is 1 edit from the indexed "wireless", while its stem "wirel" is 3.
// Edits are counted in UTF-16 code units, as the dictionary is ordered.
//
// Fuzzy listing walks the dictionary as a trie: terms sharing a prefix share the rows of the
// edit-distance table computed for it, a prefix already too far from the word skips every term
// under it (one binary search), and in fuzzy-prefix mode a prefix close enough takes every
// term under it at once. So a query costs about the prefixes within reach of the word, not
// the dictionary's size.

import { RE2JS, RE2JSException } from 're2js';
import type { Analyzer } from './analysis.js';
import type { SortedList } from './sorted-list.js';

export interface TermPattern {
  /** Whether one term matches. */
  matches(term: string): boolean;
  /** The terms of `dictionary` that match. */
  expand(dictionary: SortedList<string>): string[];
}

export interface FuzzyOptions {
  /** The most edits allowed (the reference: 0 to 2). */
  readonly distance: number;
  /** Whether swapping two adjacent characters is one edit (else two). */
  readonly transpositions: boolean;
  /** Whether the word may match the start of a term (fuzzy prefix). */
  readonly prefix: boolean;
}

/** The forms of a query word tried against the index: as typed and as stemmed. */
function forms(analyzer: Analyzer, word: string): string[] {
  const stem = analyzer.stemOf(word);
  return stem === word ? [word] : [word, stem];
}

export function fuzzyPattern(analyzer: Analyzer, word: string, o: FuzzyOptions): TermPattern {
  const wanted = forms(analyzer, word);
  return {
    matches: (term) => wanted.some((w) => editDistance(w, term, o) <= o.distance),
    expand: (dictionary) => union(wanted.map((w) => fuzzyTerms(dictionary, w, o))),
  };
}

export function prefixPattern(analyzer: Analyzer, word: string): TermPattern {
  const wanted = forms(analyzer, word);
  return {
    matches: (term) => wanted.some((w) => term.startsWith(w)),
    expand: (dictionary) => union(wanted.map((w) => dictionary.slice(...prefixRange(dictionary, w, 0)))),
  };
}

/**
 * A regular expression (RE2's syntax, close to the Tantivy engine Upstash builds on) that must
 * match a whole text, or null when it is not a valid one. RE2 matches in time linear in the
 * text whatever the pattern, so a crafted pattern such as (a+)+b cannot stall the database's
 * thread as JavaScript's backtracking engine would.
 */
export function wholeMatch(pattern: string): ((text: string) => boolean) | null {
  try {
    const re = RE2JS.compile(pattern);
    return (text) => re.matches(text);
  } catch (e) {
    if (e instanceof RE2JSException) return null;
    throw e;
  }
}

/** A pattern that must match a whole term (the reference: "matched against individual terms"); null when invalid. */
export function regexPattern(pattern: string): TermPattern | null {
  const matches = wholeMatch(pattern);
  if (matches === null) return null;
  return {
    matches,
    expand: (dictionary) => [...dictionary].filter(matches),
  };
}

function union(lists: string[][]): string[] {
  return lists.length === 1 ? lists[0] : [...new Set(lists.flat())];
}

/** [from, to): the terms starting with `prefix`, from index `from` on. */
function prefixRange(dictionary: SortedList<string>, prefix: string, from: number): [number, number] {
  const start = dictionary.search((t) => t < prefix, from);
  return [start, dictionary.search((t) => t.startsWith(prefix), start)];
}

/**
 * The edit distance between `word` and `term`, or with `prefix` between `word` and the closest
 * beginning of `term`; Damerau's adjacent swaps count as one edit with `transpositions`.
 * Gives up early (returns distance + 1) once every path is over `distance`.
 */
export function editDistance(word: string, term: string, o: FuzzyOptions): number {
  const over = o.distance + 1;
  if (!o.prefix && Math.abs(word.length - term.length) > o.distance) return over;
  let best = o.prefix ? word.length : over;
  let before: Int32Array | null = null;
  let row = firstRow(word, o.distance);
  for (let k = 0; k < term.length; k++) {
    const next = nextRow(word, term, k, row, before, o);
    before = row;
    row = next;
    if (o.prefix) best = Math.min(best, lastCell(row, k + 1, word.length, o.distance));
    if (rowMin(row) > o.distance) return Math.min(best, over);
  }
  return o.prefix ? best : lastCell(row, term.length, word.length, o.distance);
}

/** The terms of `dictionary` within `o.distance` of `word` (or, with `o.prefix`, starting within it). */
function fuzzyTerms(dictionary: SortedList<string>, word: string, o: FuzzyOptions): string[] {
  const m = word.length;
  if (o.prefix && m <= o.distance) return [...dictionary]; // the empty beginning is close enough
  const out: string[] = [];
  // rows[k]: the table's row for the first k characters of `at`; valid up to `depth`.
  const rows: Int32Array[] = [firstRow(word, o.distance)];
  let at = '';
  let depth = 0;
  let i = 0;
  while (i < dictionary.length) {
    const term = dictionary.at(i);
    let k = Math.min(commonPrefix(at, term), depth);
    let verdict: 'reached' | 'beyond' | null = null;
    while (k < term.length && verdict === null) {
      rows[k + 1] = nextRow(word, term, k, rows[k], k > 0 ? rows[k - 1] : null, o);
      k++;
      if (o.prefix && lastCell(rows[k], k, m, o.distance) <= o.distance) verdict = 'reached';
      else if (rowMin(rows[k]) > o.distance) verdict = 'beyond';
    }
    at = term;
    depth = k;
    if (verdict === null) {
      if (!o.prefix && lastCell(rows[k], k, m, o.distance) <= o.distance) out.push(term);
      i++;
      continue;
    }
    // Every term under this prefix is decided alike: all in (reached) or all out (beyond).
    const [, end] = prefixRange(dictionary, term.slice(0, k), i);
    if (verdict === 'reached') for (const t of dictionary.between(i, end)) out.push(t);
    i = end;
  }
  return out;
}

// A row of the edit-distance table keeps only its band: the cells of the term's first k
// characters against the word's first j, for j from k - distance to k + distance, at
// [j - k + distance]. A cell off the band is over the distance (it takes at least |j - k|
// edits), and so is one past either end of the word; both are stored as distance + 1, as is
// any cell over it. So a row costs 2 * distance + 1 cells whatever the word's length: a
// 20,000-letter word against an indexed 20,000-letter term took the full table's 400 million
// cells and 1.6 GB, and stalled the database's thread.

function firstRow(word: string, distance: number): Int32Array {
  return Int32Array.from({ length: 2 * distance + 1 }, (_, b) => {
    const j = b - distance;
    return j >= 0 && j <= word.length ? Math.min(j, distance + 1) : distance + 1;
  });
}

/** The band for the term's first k + 1 characters, from the bands for k (`row`) and k - 1 (`before`). */
function nextRow(word: string, term: string, k: number, row: Int32Array, before: Int32Array | null, o: FuzzyOptions): Int32Array {
  const over = o.distance + 1;
  const width = 2 * o.distance + 1;
  const next = new Int32Array(width).fill(over);
  const c = term.charCodeAt(k);
  for (let b = 0; b < width; b++) {
    const j = k + 1 - o.distance + b;
    if (j < 0 || j > word.length) continue;
    if (j === 0) {
      next[b] = Math.min(k + 1, over);
      continue;
    }
    // The cells (k, j), (k + 1, j - 1), (k, j - 1) and (k - 1, j - 2) sit at these places of their bands.
    const w = word.charCodeAt(j - 1);
    let d = Math.min(b + 1 < width ? row[b + 1] + 1 : over, b > 0 ? next[b - 1] + 1 : over, row[b] + (w === c ? 0 : 1));
    if (o.transpositions && before !== null && j > 1 && w === term.charCodeAt(k - 1) && word.charCodeAt(j - 2) === c) d = Math.min(d, before[b] + 1);
    next[b] = Math.min(d, over);
  }
  return next;
}

/** The cell of the band for the term's first k characters against the whole word. */
function lastCell(row: Int32Array, k: number, m: number, distance: number): number {
  const b = m - k + distance;
  return b >= 0 && b < row.length ? row[b] : distance + 1;
}

function rowMin(row: Int32Array): number {
  let min = row[0];
  for (let j = 1; j < row.length; j++) if (row[j] < min) min = row[j];
  return min;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

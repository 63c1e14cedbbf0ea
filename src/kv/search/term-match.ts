// Which indexed terms a query word matches when it is not matched exactly: fuzzily (edit
// distance), by prefix, by fuzzy prefix, or by a regular expression. Each builds a predicate
// that the evaluator runs over a field's term dictionary. A word is tried as typed
// (lower-cased) and as its stem, since the index holds stems: "wireles" is 1 edit from the
// indexed "wireless", while its stem "wirel" is 3.

import type { Analyzer } from './analysis.js';

/** Whether an indexed term matches. */
export type TermMatcher = (term: string) => boolean;

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

export function fuzzyMatcher(analyzer: Analyzer, word: string, o: FuzzyOptions): TermMatcher {
  const wanted = forms(analyzer, word).map((w) => [...w]);
  return (term) => {
    const t = [...term];
    return wanted.some((w) => editDistance(w, t, o.transpositions, o.prefix, o.distance) <= o.distance);
  };
}

export function prefixMatcher(analyzer: Analyzer, word: string): TermMatcher {
  const wanted = forms(analyzer, word);
  return (term) => wanted.some((w) => term.startsWith(w));
}

/** A pattern that must match a whole term (the reference: "matched against individual terms"). */
export function regexMatcher(pattern: string): TermMatcher | null {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
  return (term) => re.test(term);
}

/**
 * The edit distance between `a` and `b` (code points), or with `prefix` between `a` and the
 * closest prefix of `b`; Damerau's adjacent swaps count as one edit with `transpositions`.
 * Gives up early (returns max + 1) once every path is over `max`.
 */
export function editDistance(a: readonly string[], b: readonly string[], transpositions: boolean, prefix: boolean, max: number): number {
  if (!prefix && Math.abs(a.length - b.length) > max) return max + 1;
  // rows[j]: distance from a[0..i) to b[0..j); kept for the current row and the two before it.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = prev;
    prev = row;
  }
  return prefix ? Math.min(...prev) : prev[b.length];
}

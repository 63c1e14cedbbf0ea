// SCOREFUNC: relevance adjusted by numeric FAST fields (popularity, recency). Each FIELDVALUE
// gives FACTOR x MODIFIER(value); the results combine (COMBINEMODE) and then apply to the
// query's score (SCOREMODE). Defaults as the SEARCH.QUERY reference states them: MODIFIER
// NONE, FACTOR 1, MISSING 0, SCOREMODE SUM, COMBINEMODE SUM.

import type { Scores } from './evaluate.js';
import type { InvertedIndex } from './inverted-index.js';
import type { FieldDef } from './schema.js';

export const MODIFIERS = {
  none: (x: number) => x,
  log: Math.log10,
  log1p: (x: number) => Math.log10(1 + x),
  log2p: (x: number) => Math.log10(2 + x),
  ln: Math.log,
  ln1p: Math.log1p,
  ln2p: (x: number) => Math.log(2 + x),
  square: (x: number) => x * x,
  sqrt: Math.sqrt,
  reciprocal: (x: number) => 1 / x,
} as const;
export type Modifier = keyof typeof MODIFIERS;
export const SCORE_MODES = ['sum', 'multiply', 'replace'] as const;
export const COMBINE_MODES = ['sum', 'multiply'] as const;

export interface FieldValueTerm {
  readonly field: FieldDef;
  modifier: Modifier;
  factor: number;
  missing: number;
}

export interface ScoreFunction {
  readonly terms: FieldValueTerm[];
  scoreMode: (typeof SCORE_MODES)[number];
  combineMode: (typeof COMBINE_MODES)[number];
}

/** The scores of `matches` with `fn` applied. */
export function applyScoreFunction(fn: ScoreFunction, index: InvertedIndex, matches: Scores): Scores {
  const out: Scores = new Map();
  for (const [key, score] of matches) {
    const parts = fn.terms.map((t) => contribution(t, index.docs.get(key)?.get(t.field.name)?.[0]));
    const combined = fn.combineMode === 'sum' ? parts.reduce((a, b) => a + b, 0) : parts.reduce((a, b) => a * b, 1);
    out.set(key, fn.scoreMode === 'sum' ? score + combined : fn.scoreMode === 'multiply' ? score * combined : combined);
  }
  return out;
}

/**
 * FACTOR x MODIFIER(value); a value missing or invalid for the modifier (log of 0, sqrt of a
 * negative) takes MISSING through the modifier instead, and when that is invalid too, the
 * reference says the contribution is MISSING x FACTOR.
 */
function contribution(t: FieldValueTerm, value: unknown): number {
  const modify = MODIFIERS[t.modifier];
  const fromValue = typeof value === 'number' ? modify(value) : NaN;
  if (Number.isFinite(fromValue)) return t.factor * fromValue;
  const fromMissing = modify(t.missing);
  return t.factor * (Number.isFinite(fromMissing) ? fromMissing : t.missing);
}

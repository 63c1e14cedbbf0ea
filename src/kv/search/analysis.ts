// Text analysis: how a TEXT field's value and a query's text become terms. Both sides go
// through the same function, so a query term matches exactly the terms indexed from the same
// words. Stemming per LANGUAGE is not done yet (docs/search.md): the field's NOSTEM flag is
// kept for when it is.

import type { FieldDef } from './schema.js';

/** Runs of letters and digits, in any script; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The terms of `text` in order: lower-cased words, or the whole value with NOTOKENIZE. */
export function analyze(field: FieldDef, text: string): string[] {
  const lower = text.toLowerCase();
  if (field.noTokenize) return lower === '' ? [] : [lower];
  return lower.match(WORD) ?? [];
}

// The operators of a TEXT field, turned into filter clauses: smart matching (a plain value or
// $smart), $eq, $phrase, $fuzzy, $prefix, $contains and $regex. Query text is analysed as the
// field's documents were (analysis.ts); fuzzy and prefix matching start from the words as
// typed and their stems (term-match.ts).
//
// Smart matching follows the reference's description; its weights are Larder's own:
//   one word:     the exact term (BM25 x EXACT_BOOST), or a term 1 edit away, or a term
//                 starting with something 1 edit away (each a constant 1)
//   several:      any of: the exact phrase (BM25 x PHRASE_BOOST), the phrase with up to
//                 SMART_SLOP moves (BM25 x SLOP_BOOST), each term (BM25), each word fuzzily,
//                 and the last word by fuzzy prefix (constant 1 each); so a document with
//                 some of the words matches, and one with the phrase ranks first
//   "quoted":     the exact phrase only

import { ReplyError } from '../errors.js';
import type { Analyzer } from './analysis.js';
import * as E from './errors.js';
import type { Filter, Json, PhraseSlot } from './filter.js';
import { fuzzyPattern, prefixPattern, regexPattern, type FuzzyOptions } from './term-match.js';

const EXACT_BOOST = 4;
const PHRASE_BOOST = 4;
const SLOP_BOOST = 2;
const SMART_SLOP = 3;
const SMART_FUZZY: FuzzyOptions = { distance: 1, transpositions: true, prefix: false };
const SMART_FUZZY_PREFIX: FuzzyOptions = { ...SMART_FUZZY, prefix: true };
/** The reference: "The default is 1, and the maximum allowed value is 2." */
const MAX_FUZZY_DISTANCE = 2;

export function any(should: Filter[], boost = 1): Filter {
  return { kind: 'bool', must: [], should, mustNot: [], boost };
}

export function all(must: Filter[]): Filter {
  return { kind: 'bool', must, should: [], mustNot: [], boost: 1 };
}

/** A plain value or $smart. */
export function smartText(a: Analyzer, text: string): Filter {
  const quoted = text.length >= 2 && text.startsWith('"') && text.endsWith('"');
  if (quoted) return phrase(a, a.terms(text.slice(1, -1)), 0);
  const words = a.words(text);
  const terms = a.terms(text);
  if (words.length === 0) return any([]);
  const field = a.field;
  const fuzzy = (w: string, o: FuzzyOptions): Filter => ({ kind: 'expand', field, pattern: fuzzyPattern(a, w, o) });
  if (words.length === 1) {
    return any([any([{ kind: 'term', field, term: terms[0] }], EXACT_BOOST), fuzzy(words[0], SMART_FUZZY), fuzzy(words[0], SMART_FUZZY_PREFIX)]);
  }
  return any([
    any([phrase(a, terms, 0)], PHRASE_BOOST),
    any([phrase(a, terms, SMART_SLOP)], SLOP_BOOST),
    ...terms.map((term): Filter => ({ kind: 'term', field, term })),
    ...words.map((w) => fuzzy(w, SMART_FUZZY)),
    fuzzy(words[words.length - 1], SMART_FUZZY_PREFIX),
  ]);
}

/** $eq: one word is a term; several are an exact phrase (the reference's $eq page). */
export function eqText(a: Analyzer, text: string): Filter {
  const terms = a.terms(text);
  return terms.length === 1 ? { kind: 'term', field: a.field, term: terms[0] } : phrase(a, terms, 0);
}

// $phrase: "words" | { value, slop } | { value, prefix }
export function phraseText(a: Analyzer, operand: Json): Filter | ReplyError {
  const o = operandObject('$phrase', operand, ['value', 'slop', 'prefix']);
  if (o instanceof ReplyError) return o;
  const slop = o.options.slop ?? 0;
  if (!Number.isInteger(slop) || (slop as number) < 0) return E.invalidFilter('$phrase slop must be a non-negative integer');
  const prefix = o.options.prefix ?? false;
  if (typeof prefix !== 'boolean') return E.invalidFilter('$phrase prefix must be a boolean');
  if (prefix && o.options.slop !== undefined) return E.invalidFilter('$phrase takes slop or prefix, not both');
  if (!prefix) return phrase(a, a.terms(o.text), slop as number);
  const words = a.words(o.text);
  if (words.length === 0) return any([]);
  const slots: PhraseSlot[] = a.terms(words.slice(0, -1).join(' '));
  slots.push(prefixPattern(a, words[words.length - 1]));
  return { kind: 'phrase', field: a.field, slots, slop: 0 };
}

// $fuzzy: "words" | { value, distance, transpositionCostOne, prefix }; every word must match.
export function fuzzyText(a: Analyzer, operand: Json): Filter | ReplyError {
  const o = operandObject('$fuzzy', operand, ['value', 'distance', 'transpositionCostOne', 'prefix']);
  if (o instanceof ReplyError) return o;
  const distance = o.options.distance ?? 1;
  if (!Number.isInteger(distance) || (distance as number) < 0 || (distance as number) > MAX_FUZZY_DISTANCE) {
    return E.invalidFilter(`$fuzzy distance must be an integer from 0 to ${MAX_FUZZY_DISTANCE}`);
  }
  const transpositions = o.options.transpositionCostOne ?? true;
  const prefix = o.options.prefix ?? false;
  if (typeof transpositions !== 'boolean' || typeof prefix !== 'boolean') return E.invalidFilter('$fuzzy transpositionCostOne and prefix must be booleans');
  const options: FuzzyOptions = { distance: distance as number, transpositions, prefix };
  const words = a.words(o.text);
  if (words.length === 0) return any([]);
  return all(words.map((w): Filter => ({ kind: 'expand', field: a.field, pattern: fuzzyPattern(a, w, options) })));
}

/** $prefix: every word starts a term. */
export function prefixText(a: Analyzer, text: string): Filter {
  const words = a.words(text);
  if (words.length === 0) return any([]);
  return all(words.map((w): Filter => ({ kind: 'expand', field: a.field, pattern: prefixPattern(a, w) })));
}

/** $contains: every word is a term, the last one may be a term's start. */
export function containsText(a: Analyzer, text: string): Filter {
  const words = a.words(text);
  if (words.length === 0) return any([]);
  const last: Filter = { kind: 'expand', field: a.field, pattern: prefixPattern(a, words[words.length - 1]) };
  return all([...a.terms(words.slice(0, -1).join(' ')).map((term): Filter => ({ kind: 'term', field: a.field, term })), last]);
}

/** $regex: a term matches the pattern as a whole. */
export function regexText(a: Analyzer, pattern: string): Filter | ReplyError {
  const compiled = regexPattern(pattern);
  if (compiled === null) return E.invalidFilter(`$regex ${JSON.stringify(pattern)} is not a valid regular expression`);
  return { kind: 'expand', field: a.field, pattern: compiled };
}

function phrase(a: Analyzer, terms: string[], slop: number): Filter {
  if (terms.length === 0) return any([]);
  if (terms.length === 1) return { kind: 'term', field: a.field, term: terms[0] };
  return { kind: 'phrase', field: a.field, slots: terms, slop };
}

/** An operator's operand: its text alone, or an object with `value` and options. */
function operandObject(op: string, operand: Json, keys: readonly string[]): { text: string; options: Record<string, Json | undefined> } | ReplyError {
  if (typeof operand === 'string') return { text: operand, options: {} };
  if (typeof operand !== 'object' || operand === null || Array.isArray(operand) || typeof operand.value !== 'string') {
    return E.invalidFilter(`${op} takes text or an object with a text value`);
  }
  const unknown = Object.keys(operand).find((k) => !keys.includes(k));
  if (unknown !== undefined) return E.invalidFilter(`${op} has no option ${unknown}`);
  return { text: operand.value, options: operand };
}

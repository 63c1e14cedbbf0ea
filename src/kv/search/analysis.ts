// Text analysis: how a TEXT field's value and a query's text become terms. Documents and
// queries go through the same functions, so a query word matches exactly the terms indexed
// from the same word: lower-cased, split into words, and stemmed in the index's LANGUAGE
// (@orama/stemmers, Snowball's algorithms) unless the field says NOSTEM. NOTOKENIZE keeps the
// whole value as one term, and stems nothing. Every stemmer is loaded at start (static
// imports), so no query waits on a module load.

import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import type { FieldDef } from './schema.js';

/** The languages the reference lists for LANGUAGE, each with its stemmer. */
const STEMMERS: ReadonlyMap<string, (word: string) => string> = new Map([
  ['arabic', arabic], ['danish', danish], ['dutch', dutch], ['english', english], ['finnish', finnish],
  ['french', french], ['german', german], ['greek', greek], ['hungarian', hungarian], ['italian', italian],
  ['norwegian', norwegian], ['portuguese', portuguese], ['romanian', romanian], ['russian', russian],
  ['spanish', spanish], ['swedish', swedish], ['tamil', tamil], ['turkish', turkish],
]);

export const LANGUAGES: readonly string[] = [...STEMMERS.keys()];

/** Runs of letters and digits (with their combining marks), in any script; everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** A word of a text: where it sits (UTF-16 offsets) and the term it gives. */
export interface Token {
  readonly start: number;
  readonly end: number;
  readonly term: string;
}

/**
 * How many stems an Analyzer remembers. Words follow Zipf's law, so a small cache answers most
 * lookups: stemming is most of the cost of indexing text, and a document's old text is
 * analysed again when it changes. Emptied when full (simpler than LRU, and refills at once).
 */
const STEM_CACHE_SIZE = 20_000;

/** How one field's text becomes terms. Not safe for concurrent use (its stem cache), like its index. */
export class Analyzer {
  private readonly stem: ((word: string) => string) | null;
  private readonly stems = new Map<string, string>();

  constructor(
    readonly field: FieldDef,
    language: string,
  ) {
    this.stem = field.noStem || field.noTokenize ? null : (STEMMERS.get(language) ?? null);
  }

  /** The terms of `text` in order (their positions are their indexes). */
  terms(text: string): string[] {
    return this.tokens(text).map((t) => t.term);
  }

  /** The words of `text` with their terms, for highlighting. */
  tokens(text: string): Token[] {
    if (this.field.noTokenize) return text === '' ? [] : [{ start: 0, end: text.length, term: text.toLowerCase() }];
    const out: Token[] = [];
    for (const m of text.matchAll(WORD)) out.push({ start: m.index, end: m.index + m[0].length, term: this.term(m[0]) });
    return out;
  }

  /** The words of a query's text, lower-cased, not stemmed: fuzzy, prefix and phrase-prefix matching start from these. */
  words(text: string): string[] {
    if (this.field.noTokenize) return text === '' ? [] : [text.toLowerCase()];
    return text.toLowerCase().match(WORD) ?? [];
  }

  /** A lower-cased word's term: its stem, unless the field is not stemmed. */
  stemOf(word: string): string {
    if (this.stem === null) return word;
    let stem = this.stems.get(word);
    if (stem === undefined) {
      if (this.stems.size >= STEM_CACHE_SIZE) this.stems.clear();
      this.stems.set(word, (stem = this.stem(word)));
    }
    return stem;
  }

  private term(word: string): string {
    return this.stemOf(word.toLowerCase());
  }
}

// SEARCH.QUERY's options after the filter, read into one typed request. Here, with the other
// argument readers, so search/ needs nothing from commands/.
//
// [LIMIT n] [OFFSET n] [NOCONTENT] [ORDERBY field [ASC|DESC]] [SELECT n field...]
// [HIGHLIGHT FIELDS n field... [TAGS open close]]
// [SCOREFUNC [SCOREMODE m] [COMBINEMODE m] FIELDVALUE field [MODIFIER m] [FACTOR x] [MISSING x] [FIELDVALUE ...]]

import { utf8Text } from '../../bytes.js';
import { ReplyError, SYNTAX } from '../../errors.js';
import * as E from '../../search/errors.js';
import { DEFAULT_TAGS, type HighlightRequest } from '../../search/highlight.js';
import type { InvertedIndex } from '../../search/inverted-index.js';
import type { FieldDef } from '../../search/schema.js';
import { COMBINE_MODES, MODIFIERS, SCORE_MODES, type Modifier, type ScoreFunction } from '../../search/score-function.js';
import { ArgReader } from '../args.js';

/** LIMIT when none is given, and the largest allowed (the reference: 1 to 1000). */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;
/** The reference: OFFSET "must be between 0 and 10,000". */
const MAX_OFFSET = 10_000;
/** The field types SCOREFUNC reads (the reference: FAST U64, I64 or F64). */
const SCORE_TYPES = new Set(['U64', 'I64', 'F64']);

export interface QueryOptions {
  limit: number;
  offset: number;
  noContent: boolean;
  orderBy: { field: FieldDef; descending: boolean } | null;
  /** The document fields content holds (the document's names, not FROM aliases); null: the whole document. */
  select: string[] | null;
  highlight: HighlightRequest | null;
  scoreFunction: ScoreFunction | null;
}

const WORDS = ['limit', 'offset', 'nocontent', 'orderby', 'select', 'highlight', 'scorefunc'] as const;

export function readQueryOptions(r: ArgReader, index: InvertedIndex): QueryOptions | ReplyError {
  const opts: QueryOptions = { limit: DEFAULT_LIMIT, offset: 0, noContent: false, orderBy: null, select: null, highlight: null, scoreFunction: null };
  const field = fieldReader(r, index);
  for (let w = r.word(...WORDS); w !== undefined && r.error === null; w = r.word(...WORDS)) {
    if (w === 'limit') opts.limit = r.int(E.LIMIT_RANGE);
    else if (w === 'offset') opts.offset = r.int(E.QUERY_OFFSET_RANGE);
    else if (w === 'nocontent') opts.noContent = true;
    else if (w === 'orderby') {
      const f = field();
      // The reference: "The direction defaults to DESC when omitted."
      const descending = r.word('asc', 'desc') !== 'asc';
      if (f !== undefined && !f.fast) r.fail(E.notFast(f.name));
      if (f !== undefined) opts.orderBy = { field: f, descending };
    } else if (w === 'select') opts.select = nameList(r);
    else if (w === 'highlight') opts.highlight = readHighlight(r, field);
    else opts.scoreFunction = readScoreFunction(r, field);
  }
  if (!r.done) r.fail(SYNTAX);
  if (opts.limit < 1 || opts.limit > MAX_LIMIT) r.fail(E.LIMIT_RANGE);
  if (opts.offset < 0 || opts.offset > MAX_OFFSET) r.fail(E.QUERY_OFFSET_RANGE);
  if (opts.noContent && (opts.select !== null || opts.highlight !== null)) r.fail(E.NOCONTENT_WITH_SELECT);
  if (opts.orderBy !== null && opts.scoreFunction !== null) r.fail(E.SCOREFUNC_WITH_ORDERBY);
  return r.error ?? opts;
}

/** Reads a schema field's name; an unknown one fails the reader. */
function fieldReader(r: ArgReader, index: InvertedIndex): () => FieldDef | undefined {
  return () => {
    const name = r.next();
    const f = index.def.fields.find((d) => d.name === name);
    if (f === undefined) r.fail(E.unknownField(utf8Text(name)));
    return f;
  };
}

// SELECT n name...: names of the document's fields, which need not be in the schema (the
// reference: "When the schema uses FROM, specify the source document field").
function nameList(r: ArgReader): string[] {
  const n = r.int();
  const out: string[] = [];
  for (let i = 0; i < n && r.error === null; i++) out.push(r.next());
  return out;
}

function fieldList(r: ArgReader, field: () => FieldDef | undefined): FieldDef[] {
  const n = r.int();
  const out: FieldDef[] = [];
  for (let i = 0; i < n && r.error === null; i++) {
    const f = field();
    if (f !== undefined) out.push(f);
  }
  return out;
}

// HIGHLIGHT FIELDS n field... [TAGS open close]
// Tags are kept as text: documents are marked as text and shown as their UTF-8 bytes.
function readHighlight(r: ArgReader, field: () => FieldDef | undefined): HighlightRequest {
  if (r.word('fields') === undefined) r.fail(SYNTAX);
  const fields = fieldList(r, field);
  if (r.word('tags') === undefined) return { fields, ...DEFAULT_TAGS };
  return { fields, open: utf8Text(r.next()), close: utf8Text(r.next()) };
}

// SCOREFUNC [SCOREMODE m] [COMBINEMODE m] FIELDVALUE field [MODIFIER m] [FACTOR x] [MISSING x] [FIELDVALUE ...]
// The modes may stand anywhere in the clause (the SDK sends SCOREMODE before FIELDVALUE);
// MODIFIER, FACTOR and MISSING belong to the FIELDVALUE before them.
function readScoreFunction(r: ArgReader, field: () => FieldDef | undefined): ScoreFunction {
  const fn: ScoreFunction = { terms: [], scoreMode: 'sum', combineMode: 'sum' };
  const words = ['fieldvalue', 'modifier', 'factor', 'missing', 'scoremode', 'combinemode'] as const;
  for (let w = r.word(...words); w !== undefined && r.error === null; w = r.word(...words)) {
    const last = fn.terms[fn.terms.length - 1];
    if (w === 'scoremode') fn.scoreMode = oneOf(r, SCORE_MODES) ?? fn.scoreMode;
    else if (w === 'combinemode') fn.combineMode = oneOf(r, COMBINE_MODES) ?? fn.combineMode;
    else if (w === 'fieldvalue') {
      const f = field();
      if (f !== undefined && !(f.fast && SCORE_TYPES.has(f.type))) r.fail(E.notScoreField(f.name));
      if (f !== undefined) fn.terms.push({ field: f, modifier: 'none', factor: 1, missing: 0 });
    } else if (last === undefined) r.fail(E.SCOREFUNC_NEEDS_FIELD);
    else if (w === 'modifier') last.modifier = oneOf(r, Object.keys(MODIFIERS) as Modifier[]) ?? last.modifier;
    else if (w === 'factor') last.factor = r.float();
    else last.missing = r.float();
  }
  if (fn.terms.length === 0) r.fail(E.SCOREFUNC_NEEDS_FIELD);
  return fn;
}

/** The next argument, one of `choices` in any case; a syntax error otherwise. */
function oneOf<W extends string>(r: ArgReader, choices: readonly W[]): W | undefined {
  const w = r.word(...choices);
  if (w === undefined) r.fail(SYNTAX);
  return w;
}

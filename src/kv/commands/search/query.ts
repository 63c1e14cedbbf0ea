// SEARCH.QUERY and SEARCH.COUNT: a JSON filter evaluated over an index (../../search/).

import { utf8Text } from '../../bytes.js';
import { isError, ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { documentContent, type FieldValue } from '../../search/document.js';
import * as E from '../../search/errors.js';
import { evaluate, matchesAll, type Scores } from '../../search/evaluate.js';
import { parseFilter, type Filter } from '../../search/filter.js';
import { marker } from '../../search/highlight.js';
import type { InvertedIndex } from '../../search/inverted-index.js';
import { applyScoreFunction } from '../../search/score-function.js';
import { ArgReader, formatFloat } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { readQueryOptions, type QueryOptions } from './query-options.js';

const NUMERIC_TYPES = new Set(['U64', 'I64', 'F64']);

// SEARCH.QUERY name filter [LIMIT n] [OFFSET n] [NOCONTENT] [ORDERBY field [ASC|DESC]] [SELECT n field...]
//   [HIGHLIGHT FIELDS n field... [TAGS open close]] [SCOREFUNC ...]   (options: query-options.ts)
// Replies [key, score, [[field, value]...]] per match (no content with NOCONTENT); null without the index.
export function queryCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  if (index === undefined) return null;
  const opts = readQueryOptions(new ArgReader(argv, 3), index);
  if (isError(opts)) return opts;
  if (ctx.inTransaction && !opts.noContent) return E.NOCONTENT_REQUIRED;
  const filter = parseFilter(utf8Text(argv[2]), index.def);
  if (isError(filter)) return filter;
  let matches = liveScores(ctx, index, filter);
  if (opts.scoreFunction !== null) matches = applyScoreFunction(opts.scoreFunction, index, matches);
  const ranked = rank(index, matches, opts.orderBy).slice(opts.offset, opts.offset + opts.limit);
  const highlight = opts.highlight === null ? null : { fields: opts.highlight.fields, mark: marker(opts.highlight, filter, index.def) };
  return ranked.map(([key, relevance]) => {
    const score = shownScore(index, key, relevance, opts.orderBy);
    if (opts.noContent) return [key, formatFloat(score)];
    return [key, formatFloat(score), documentContent(index.def, ctx.search.stored(index, key), opts.select, highlight)];
  });
}

// SEARCH.COUNT name filter
export function countCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  if (index === undefined) return null;
  const docs = liveDocs(ctx, index, argv[2]);
  return isError(docs) ? docs : docs.length;
}

/**
 * The ordinals of the documents the filter argument `filterArg` matches, unscored, leaving out
 * those whose key's time has passed (as liveScores); or why it is no filter. {} reads no
 * postings and builds no score map.
 */
export function liveDocs(ctx: Ctx, index: InvertedIndex, filterArg: string): number[] | ReplyError {
  const filter = parseFilter(utf8Text(filterArg), index.def);
  if (isError(filter)) return filter;
  const live = (doc: string) => ctx.search.isLive(index, doc);
  // Every document of the index is live unless some key or hash field can expire.
  if (matchesAll(filter)) return index.ordinalsWhere(ctx.ks.anyExpiry ? live : () => true);
  return [...evaluate(filter, index).keys()].filter(live).map((doc) => index.ordinalOf(doc));
}

/**
 * The matches of `filter`, leaving out documents whose key's time has passed: looking at the
 * key deletes it, which takes its documents out of the index too (the database's expiry hook).
 */
function liveScores(ctx: Ctx, index: InvertedIndex, filter: Filter): Scores {
  const scores = evaluate(filter, index);
  for (const doc of [...scores.keys()]) if (!ctx.search.isLive(index, doc)) scores.delete(doc);
  return scores;
}

/**
 * The score a result shows. The reference: "When using orderBy, the score in results reflects
 * the sort field's value rather than relevance": so for a numeric sort field, its value; for
 * other fields (and documents lacking it), the relevance score still (Larder's choice, the
 * reference saying nothing of them).
 */
function shownScore(index: InvertedIndex, key: string, relevance: number, orderBy: QueryOptions['orderBy']): number {
  if (orderBy === null || !NUMERIC_TYPES.has(orderBy.field.type)) return relevance;
  const value = index.docs.get(key)?.get(orderBy.field.name)?.[0];
  return typeof value === 'number' ? value : relevance;
}

/** Matches in reply order: by score, highest first, or by a FAST field; ties by key. */
function rank(index: InvertedIndex, matches: Scores, orderBy: QueryOptions['orderBy']): [string, number][] {
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const all = [...matches];
  if (orderBy === null) return all.sort((a, b) => b[1] - a[1] || byKey(a[0], b[0]));
  const sortValue = (key: string): FieldValue | undefined => index.docs.get(key)?.get(orderBy.field.name)?.[0];
  const sign = orderBy.descending ? -1 : 1;
  return all.sort((a, b) => {
    const x = sortValue(a[0]);
    const y = sortValue(b[0]);
    // Documents without the field come last either way.
    if (x === undefined || y === undefined) return x === y ? byKey(a[0], b[0]) : x === undefined ? 1 : -1;
    return (x < y ? -sign : x > y ? sign : 0) || byKey(a[0], b[0]);
  });
}

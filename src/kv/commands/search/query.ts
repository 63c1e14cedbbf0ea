// SEARCH.QUERY and SEARCH.COUNT: a JSON filter evaluated over an index (../../search/).

import { utf8Text } from '../../bytes.js';
import { isError, ReplyError, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { documentContent, type FieldValue } from '../../search/document.js';
import * as E from '../../search/errors.js';
import { evaluate, type Scores } from '../../search/evaluate.js';
import { parseFilter } from '../../search/filter.js';
import type { InvertedIndex } from '../../search/inverted-index.js';
import type { FieldDef } from '../../search/schema.js';
import { ArgReader, formatFloat } from '../args.js';
import type { Args, Ctx } from '../spec.js';

/** LIMIT when none is given, and the largest allowed (the reference: 1 to 1000). */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

interface QueryOptions {
  limit: number;
  offset: number;
  noContent: boolean;
  orderBy: { field: FieldDef; descending: boolean } | null;
  /** The fields content holds; null: every schema field. */
  select: FieldDef[] | null;
}

// SEARCH.QUERY name filter [LIMIT n] [OFFSET n] [NOCONTENT] [ORDERBY field ASC|DESC] [SELECT n field...]
// Replies [key, score, [[field, value]...]] per match (no content with NOCONTENT); null without the index.
export function queryCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  if (index === undefined) return null;
  const opts = readQueryOptions(new ArgReader(argv, 3), index);
  if (isError(opts)) return opts;
  const matches = liveMatches(ctx, index, argv[2]);
  if (isError(matches)) return matches;
  const ranked = rank(index, matches, opts.orderBy).slice(opts.offset, opts.offset + opts.limit);
  return ranked.map(([key, score]) => {
    if (opts.noContent) return [key, formatFloat(score)];
    const value = ctx.ks.peek(key)!.value;
    return [key, formatFloat(score), documentContent(index.def, value, opts.select)];
  });
}

// SEARCH.COUNT name filter
export function countCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  if (index === undefined) return null;
  const matches = liveMatches(ctx, index, argv[2]);
  return isError(matches) ? matches : matches.size;
}

/**
 * The matches of `filterArg`, leaving out keys whose time has passed: looking at each deletes
 * it, which takes it out of the index too (the database's expiry hook).
 */
export function liveMatches(ctx: Ctx, index: InvertedIndex, filterArg: string): Scores | ReplyError {
  const filter = parseFilter(utf8Text(filterArg), index.def);
  if (isError(filter)) return filter;
  const scores = evaluate(filter, index);
  for (const key of [...scores.keys()]) if (ctx.ks.peek(key) === undefined) scores.delete(key);
  return scores;
}

function readQueryOptions(r: ArgReader, index: InvertedIndex): QueryOptions | ReplyError {
  const opts: QueryOptions = { limit: DEFAULT_LIMIT, offset: 0, noContent: false, orderBy: null, select: null };
  const field = (name: string): FieldDef | undefined => {
    const f = index.def.fields.find((d) => d.name === name);
    if (f === undefined) r.fail(E.unknownField(name));
    return f;
  };
  const words = ['limit', 'offset', 'nocontent', 'orderby', 'select', 'highlight', 'scorefunc'] as const;
  for (let w = r.word(...words); w !== undefined && r.error === null; w = r.word(...words)) {
    if (w === 'limit') opts.limit = r.int(E.LIMIT_RANGE);
    else if (w === 'offset') opts.offset = r.int(E.OFFSET_RANGE);
    else if (w === 'nocontent') opts.noContent = true;
    else if (w === 'orderby') {
      const f = field(r.next());
      const descending = r.word('asc', 'desc') === 'desc';
      if (f !== undefined && !f.fast) r.fail(E.notFast(f.name));
      if (f !== undefined) opts.orderBy = { field: f, descending };
    } else if (w === 'select') {
      const n = r.int();
      opts.select = [];
      for (let i = 0; i < n && r.error === null; i++) {
        const f = field(r.next());
        if (f !== undefined) opts.select.push(f);
      }
    } else r.fail(E.notYet(w.toUpperCase()));
  }
  if (!r.done) r.fail(SYNTAX);
  if (opts.limit < 1 || opts.limit > MAX_LIMIT) r.fail(E.LIMIT_RANGE);
  if (opts.offset < 0) r.fail(E.OFFSET_RANGE);
  if (opts.noContent && opts.select !== null) r.fail(E.NOCONTENT_WITH_SELECT);
  return r.error ?? opts;
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

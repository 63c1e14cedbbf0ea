// SEARCH.AGGREGATE: metrics and buckets (../../search/aggregate.ts) over the documents a filter
// selects, the filter evaluated as SEARCH.QUERY evaluates it; the documents are read from the
// index's columns by their ordinals.

import { utf8Text } from '../../bytes.js';
import { isError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { aggregate, type AggReply } from '../../search/aggregate.js';
import { parseAggregations } from '../../search/aggregate-request.js';
import { formatFloat } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { liveDocs } from './query.js';

// SEARCH.AGGREGATE name filter aggregations
// Replies [alias, result...]; null without the index (as SEARCH.QUERY and SEARCH.COUNT).
export function aggregateCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  if (index === undefined) return null;
  const aggs = parseAggregations(utf8Text(argv[3]), index.def);
  if (isError(aggs)) return aggs;
  const docs = liveDocs(ctx, index, argv[2]);
  if (isError(docs)) return docs;
  const result = aggregate(aggs, docs, (field) => index.column(field));
  return isError(result) ? result : result.map(toReply);
}

/** Integers as RESP integers, other numbers as RESP2 floats (bulk strings), which the SDK reads back as numbers. */
function toReply(r: AggReply): Reply {
  if (typeof r === 'number') return Number.isSafeInteger(r) ? r : formatFloat(r);
  return Array.isArray(r) ? r.map(toReply) : (r as string | null);
}

// The query endpoints: query (one query or a batch), resumable-query and its -next and -end.
// The *-data forms need an embedding model, which no index has yet.

import { NO_EMBEDDING_MODEL, NO_VECTOR, badRequest, resumableQueryNotFound, VectorError } from '../errors.js';
import type { Filter } from '../filter/ast.js';
import type { Query } from '../index/vector-index.js';
import { FilterSyntaxError, parseFilter } from '../filter/parser.js';
import type { Ctx, Endpoint } from './endpoint.js';
import { isObject, readCount, readDense, readSparse, readString, type Json } from './request-body.js';
import { readInclude, vectorJson, type Include } from './vector-json.js';

const DEFAULT_TOP_K = 10;

interface QueryRequest extends Query {
  readonly include: Include;
}

const MODES = ['HYBRID', 'DENSE', 'SPARSE'] as const;
const FUSIONS = ['RRF', 'DBSF'] as const;

function readQuery(b: unknown): QueryRequest | VectorError {
  if (!isObject(b)) return badRequest('a query must be an object');
  if (b.vector === undefined && b.sparseVector === undefined) return NO_VECTOR;
  const vector = b.vector === undefined ? null : readDense(b.vector);
  if (vector instanceof VectorError) return vector;
  const sparse = b.sparseVector === undefined ? null : readSparse(b.sparseVector);
  if (sparse instanceof VectorError) return sparse;
  const mode = b.queryMode ?? 'HYBRID';
  if (!MODES.includes(mode as never)) return badRequest('queryMode must be HYBRID, DENSE or SPARSE');
  const fusion = b.fusionAlgorithm ?? 'RRF';
  if (!FUSIONS.includes(fusion as never)) return badRequest('fusionAlgorithm must be RRF or DBSF');
  const weighting = b.weightingStrategy ?? null;
  if (weighting !== null && weighting !== 'IDF') return badRequest('weightingStrategy must be IDF');
  const topK = readCount(b.topK, 'topK', DEFAULT_TOP_K);
  if (topK instanceof VectorError) return topK;
  const text = readString(b.filter, 'filter');
  if (text instanceof VectorError) return text;
  let filter: Filter | null = null;
  if (text !== undefined && text.trim() !== '') {
    const parsed = parseFilter(text);
    if (parsed instanceof FilterSyntaxError) return badRequest(parsed.message);
    filter = parsed;
  }
  const include = readInclude(b);
  if (include instanceof VectorError) return include;
  return { vector, sparse, topK, filter, include, mode: mode as Query['mode'], fusion: fusion as Query['fusion'], weighting };
}

function run(ctx: Ctx, q: QueryRequest, skip?: ReadonlySet<string>): Json[] | VectorError {
  const hits = ctx.index.query(ctx.ns, { ...q, topK: q.topK + (skip?.size ?? 0) });
  if (hits instanceof VectorError) return hits;
  const fresh = skip === undefined ? hits : hits.filter((h) => !skip.has(h.record.id)).slice(0, q.topK);
  return fresh.map((h) => vectorJson(h.record, q.include, h.score));
}

// POST /query[/ns]  one query object, or an array of them (a batch of one answers flat, as the service does)
function queryEndpoint(ctx: Ctx): unknown {
  if (!Array.isArray(ctx.body)) {
    const q = readQuery(ctx.body);
    return q instanceof VectorError ? q : run(ctx, q);
  }
  const answers: Json[][] = [];
  for (const item of ctx.body) {
    const q = readQuery(item);
    if (q instanceof VectorError) return q;
    const a = run(ctx, q);
    if (a instanceof VectorError) return a;
    answers.push(a);
  }
  return answers.length === 1 ? answers[0] : answers;
}

// POST /resumable-query[/ns]  a query plus maxIdle (seconds)
function resumableQueryEndpoint(ctx: Ctx): unknown {
  const q = readQuery(ctx.body);
  if (q instanceof VectorError) return q;
  const maxIdle = readCount((ctx.body as Json).maxIdle, 'maxIdle', 3600);
  if (maxIdle instanceof VectorError) return maxIdle;
  const first = run(ctx, q);
  if (first instanceof VectorError) return first;
  const { uuid, session } = ctx.resumable.start({ ns: ctx.ns, query: q, maxIdleMs: maxIdle * 1000 });
  for (const hit of first) session.returned.add(hit.id as string);
  return { uuid, scores: first };
}

// POST /resumable-query-next  {uuid, additionalK}
function resumableQueryNextEndpoint(ctx: Ctx): unknown {
  const b = ctx.body;
  if (!isObject(b) || typeof b.uuid !== 'string') return badRequest('uuid must be a string');
  const session = ctx.resumable.get(b.uuid);
  if (session === undefined) return resumableQueryNotFound(b.uuid);
  const k = readCount(b.additionalK, 'additionalK', DEFAULT_TOP_K);
  if (k instanceof VectorError) return k;
  const next = run({ ...ctx, ns: session.ns }, { ...(session.query as QueryRequest), topK: k }, session.returned);
  if (next instanceof VectorError) return next;
  for (const hit of next) session.returned.add(hit.id as string);
  return next;
}

// POST /resumable-query-end  {uuid}
function resumableQueryEndEndpoint(ctx: Ctx): unknown {
  const b = ctx.body;
  if (!isObject(b) || typeof b.uuid !== 'string') return badRequest('uuid must be a string');
  return ctx.resumable.end(b.uuid) ? 'Success' : resumableQueryNotFound(b.uuid);
}

const noModel = (): VectorError => NO_EMBEDDING_MODEL;

export const QUERY_ENDPOINTS: Record<string, Endpoint> = {
  query: { write: false, run: queryEndpoint },
  'query-data': { write: false, run: noModel },
  'resumable-query': { write: false, run: resumableQueryEndpoint },
  'resumable-query-data': { write: false, run: noModel },
  'resumable-query-next': { write: false, run: resumableQueryNextEndpoint },
  'resumable-query-end': { write: false, run: resumableQueryEndEndpoint },
};

// The query endpoints: query (one query or a batch), resumable-query and its -next and -end,
// and their *-data forms, whose text the index's embedding models turn into vectors first.

import { NO_EMBEDDING_MODEL, NO_VECTOR, badRequest, resumableQueryNotFound, VectorError } from '../errors.js';
import type { Filter } from '../filter/ast.js';
import { FilterSyntaxError, parseFilter } from '../filter/parser.js';
import type { Query } from '../engine/vector-index.js';
import type { Ctx, Endpoint } from './endpoint.js';
import { isObject, readCount, readDense, readSparse, readString, type Json } from './request-body.js';
import { readInclude, vectorJson, type Include } from './vector-json.js';

const DEFAULT_TOP_K = 10;
const MODES = ['HYBRID', 'DENSE', 'SPARSE'] as const;
const FUSIONS = ['RRF', 'DBSF'] as const;

/** A query as read from a request, with what to include in its results. */
export interface QueryRequest extends Query {
  readonly include: Include;
}

/** Reads a query; with `data`, its text goes in `text` and the vectors are left for `embedQueries`. */
function readQuery(b: unknown, withData: boolean, maxNestingDepth: number): (QueryRequest & { text?: string }) | VectorError {
  if (!isObject(b)) return badRequest('a query must be an object');
  let text: string | undefined;
  if (withData) {
    if (typeof b.data !== 'string') return badRequest('data must be a string');
    text = b.data;
  } else if (b.vector === undefined && b.sparseVector === undefined) return NO_VECTOR;
  const vector = b.vector === undefined || withData ? null : readDense(b.vector);
  if (vector instanceof VectorError) return vector;
  const sparse = b.sparseVector === undefined || withData ? null : readSparse(b.sparseVector);
  if (sparse instanceof VectorError) return sparse;
  const mode = b.queryMode ?? 'HYBRID';
  if (!MODES.includes(mode as never)) return badRequest('queryMode must be HYBRID, DENSE or SPARSE');
  const fusion = b.fusionAlgorithm ?? 'RRF';
  if (!FUSIONS.includes(fusion as never)) return badRequest('fusionAlgorithm must be RRF or DBSF');
  const weighting = b.weightingStrategy ?? null;
  if (weighting !== null && weighting !== 'IDF') return badRequest('weightingStrategy must be IDF');
  const topK = readCount(b.topK, 'topK', DEFAULT_TOP_K);
  if (topK instanceof VectorError) return topK;
  const filterText = readString(b.filter, 'filter');
  if (filterText instanceof VectorError) return filterText;
  let filter: Filter | null = null;
  if (filterText !== undefined && filterText.trim() !== '') {
    const parsed = parseFilter(filterText, maxNestingDepth);
    if (parsed instanceof FilterSyntaxError) return badRequest(parsed.message);
    filter = parsed;
  }
  const include = readInclude(b);
  if (include instanceof VectorError) return include;
  const q = { vector, sparse, topK, filter, include, mode: mode as Query['mode'], fusion: fusion as Query['fusion'], weighting: weighting as Query['weighting'] };
  return text === undefined ? q : { ...q, text };
}

/** Reads one query or a batch; *-data forms get their vectors from the embedding models. */
async function readQueries(ctx: Ctx, items: readonly unknown[], withData: boolean): Promise<QueryRequest[] | VectorError> {
  const queries: (QueryRequest & { text?: string })[] = [];
  for (const item of items) {
    const q = readQuery(item, withData, ctx.maxNestingDepth);
    if (q instanceof VectorError) return q;
    queries.push(q);
  }
  if (!withData) return queries;
  if (ctx.embedder === null) return NO_EMBEDDING_MODEL;
  const embedded = await ctx.embedder.embed(queries.map((q) => q.text!), 'query');
  if (embedded instanceof VectorError) return embedded;
  // BM25 weighs its query terms by IDF unless the query says otherwise.
  const bm25 = ctx.embedder.sparseModel === 'BM25';
  return queries.map(({ text: _, ...q }, i) => ({
    ...q,
    vector: embedded.vectors[i],
    sparse: embedded.sparse[i],
    weighting: q.weighting ?? (bm25 && embedded.sparse[i] !== null ? 'IDF' : null),
  }));
}

/** Runs a query; a resumable one passes the ids it has `returned` so far. */
function run(ctx: Ctx, q: QueryRequest, returned?: ReadonlySet<string>): Json[] | VectorError {
  const hits = ctx.index.query(ctx.ns, q, returned);
  return hits instanceof VectorError ? hits : hits.map((h) => vectorJson(h.record, q.include, h.score));
}

/** What a resumable query has returned before its first piece. */
const NOTHING_RETURNED: ReadonlySet<string> = new Set();

// POST /query[/ns] and /query-data[/ns]  one query object, or an array of them (a batch of one
// answers flat, as the service does)
async function query(ctx: Ctx, withData: boolean): Promise<unknown> {
  const batch = Array.isArray(ctx.body);
  const queries = await readQueries(ctx, batch ? (ctx.body as unknown[]) : [ctx.body], withData);
  if (queries instanceof VectorError) return queries;
  const answers: Json[][] = [];
  for (const q of queries) {
    const a = run(ctx, q);
    if (a instanceof VectorError) return a;
    answers.push(a);
  }
  return batch && answers.length !== 1 ? answers : answers[0];
}

// POST /resumable-query[/ns] and /resumable-query-data[/ns]  a query plus maxIdle (seconds)
async function resumableQuery(ctx: Ctx, withData: boolean): Promise<unknown> {
  const queries = await readQueries(ctx, [ctx.body], withData);
  if (queries instanceof VectorError) return queries;
  const q = queries[0];
  const maxIdle = readCount((ctx.body as Json).maxIdle, 'maxIdle', 3600);
  if (maxIdle instanceof VectorError) return maxIdle;
  const first = run(ctx, q, NOTHING_RETURNED);
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
  const next = run({ ...ctx, ns: session.ns }, { ...session.query, topK: k }, session.returned);
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

export const QUERY_ENDPOINTS: Record<string, Endpoint> = {
  query: { write: false, run: (ctx) => query(ctx, false) },
  'query-data': { write: false, run: (ctx) => query(ctx, true) },
  'resumable-query': { write: false, run: (ctx) => resumableQuery(ctx, false) },
  'resumable-query-data': { write: false, run: (ctx) => resumableQuery(ctx, true) },
  'resumable-query-next': { write: false, run: resumableQueryNextEndpoint },
  'resumable-query-end': { write: false, run: resumableQueryEndEndpoint },
};

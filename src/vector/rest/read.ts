// The reading endpoints: fetch, range, random, info and list-namespaces.

import { FETCH_IDS_OR_PREFIX, badRequest, VectorError } from '../errors.js';
import { FETCH_PREFIX_LIMIT } from '../engine/vector-index.js';
import type { Ctx, Endpoint } from './endpoint.js';
import { isObject, readCount, readId, readIds, readString } from './request-body.js';
import { INCLUDE_VECTORS, readInclude, vectorJson } from './vector-json.js';

// POST /fetch[/ns]  {ids | prefix, includeVectors?, includeMetadata?, includeData?}
function fetchEndpoint(ctx: Ctx): unknown {
  const b = Array.isArray(ctx.body) ? { ids: ctx.body } : ctx.body;
  if (!isObject(b)) return badRequest('the body must be an object with ids or prefix');
  if (b.ids !== undefined && b.prefix !== undefined) return FETCH_IDS_OR_PREFIX;
  const include = readInclude(b);
  if (include instanceof VectorError) return include;
  if (b.prefix !== undefined) {
    const prefix = readString(b.prefix, 'prefix');
    if (prefix instanceof VectorError) return prefix;
    return ctx.index.withPrefix(ctx.ns, prefix!, FETCH_PREFIX_LIMIT).map((r) => vectorJson(r, include));
  }
  const ids = readIds(b.ids ?? []);
  if (ids instanceof VectorError) return ids;
  return ids.map((id) => {
    const r = ctx.index.get(ctx.ns, id);
    return r === null ? null : vectorJson(r, include);
  });
}

// POST /range[/ns]  {cursor, limit, prefix?, includeVectors?, includeMetadata?, includeData?}
function rangeEndpoint(ctx: Ctx): unknown {
  const b = ctx.body;
  if (!isObject(b)) return badRequest('the body must be an object with cursor and limit');
  const cursorText = b.cursor === undefined || b.cursor === '' ? '0' : readId(b.cursor, 'cursor');
  if (cursorText instanceof VectorError) return cursorText;
  const cursor = /^\d+$/.test(cursorText) ? Number(cursorText) : NaN;
  if (!Number.isSafeInteger(cursor)) return badRequest('cursor must be a cursor returned by range, or 0');
  const limit = readCount(b.limit, 'limit', 0);
  if (limit instanceof VectorError) return limit;
  // The service refuses an empty page (its Python SDK's tests expect it): its cursor would never move.
  if (limit === 0) return badRequest('limit must be a positive integer');
  const prefix = readString(b.prefix, 'prefix');
  if (prefix instanceof VectorError) return prefix;
  const include = readInclude(b);
  if (include instanceof VectorError) return include;
  const page = ctx.index.range(ctx.ns, cursor, limit, prefix ?? '');
  return { nextCursor: page.next === null ? '' : String(page.next), vectors: page.records.map((r) => vectorJson(r, include)) };
}

// GET /random[/ns]
function randomEndpoint(ctx: Ctx): unknown {
  const r = ctx.index.random(ctx.ns);
  return r === null ? null : vectorJson(r, INCLUDE_VECTORS);
}

// GET /info
function infoEndpoint(ctx: Ctx): unknown {
  const { vectorCount, indexSize, namespaces } = ctx.index.info();
  const { type, similarity } = ctx.index.settings;
  const dimension = ctx.index.dimension ?? 0;
  const result: Record<string, unknown> = {
    vectorCount,
    pendingVectorCount: 0,
    indexSize,
    dimension: type === 'SPARSE' ? 0 : dimension,
    similarityFunction: similarity,
    indexType: type,
  };
  const dense: Record<string, unknown> = { dimension, similarityFunction: similarity };
  const sparse: Record<string, unknown> = {};
  if (ctx.embedder?.denseModel) dense.embeddingModel = ctx.embedder.denseModel;
  if (ctx.embedder?.sparseModel) sparse.embeddingModel = ctx.embedder.sparseModel;
  if (type !== 'SPARSE') result.denseIndex = dense;
  if (type !== 'DENSE') result.sparseIndex = sparse;
  result.namespaces = Object.fromEntries([...namespaces].map(([name, count]) => [name, { vectorCount: count, pendingVectorCount: 0 }]));
  return result;
}

// GET /list-namespaces
function listNamespacesEndpoint(ctx: Ctx): unknown {
  return ctx.index.namespaceNames();
}

export const READ_ENDPOINTS: Record<string, Endpoint> = {
  fetch: { write: false, run: fetchEndpoint },
  range: { write: false, run: rangeEndpoint },
  random: { write: false, run: randomEndpoint },
  info: { write: false, run: infoEndpoint },
  'list-namespaces': { write: false, run: listNamespacesEndpoint },
};

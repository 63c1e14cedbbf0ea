// The writing endpoints: upsert, update, delete, reset and the namespace admin ones.

import { DELETE_ONE_CRITERION, NO_EMBEDDING_MODEL, badRequest, VectorError } from '../errors.js';
import { parseFilter, FilterSyntaxError } from '../filter/parser.js';
import { compileFilter } from '../filter/evaluate.js';
import type { VectorData } from '../engine/record.js';
import type { MetadataChange } from '../engine/vector-index.js';
import type { Ctx, Endpoint } from './endpoint.js';
import { isObject, readBool, readDense, readId, readIds, readMetadata, readSparse, readString, readVectorData } from './request-body.js';

// POST /upsert[/ns]  one vector object or an array of them
function upsertEndpoint(ctx: Ctx): unknown {
  const items = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
  const records: VectorData[] = [];
  for (const item of items) {
    const r = readVectorData(item);
    if (r instanceof VectorError) return r;
    records.push(r);
  }
  return ctx.index.upsert(ctx.ns, records) ?? 'Success';
}

// POST /upsert-data[/ns]  {id, data, metadata?} or an array of them: data embedded by the index's models
async function upsertDataEndpoint(ctx: Ctx): Promise<unknown> {
  if (ctx.embedder === null) return NO_EMBEDDING_MODEL;
  const items = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
  const parsed: VectorData[] = [];
  for (const item of items) {
    const r = readVectorData(item);
    if (r instanceof VectorError) return r;
    if (r.data === undefined) return badRequest('data must be a string');
    parsed.push(r);
  }
  const embedded = await ctx.embedder.embed(parsed.map((r) => r.data!), 'document');
  if (embedded instanceof VectorError) return embedded;
  const records = parsed.map((r, i) => ({ ...r, vector: embedded.vectors[i], sparse: embedded.sparse[i] }));
  return ctx.index.upsert(ctx.ns, records) ?? 'Success';
}

// POST /update[/ns]  {id, vector?, sparseVector?, metadata?, metadataUpdateMode?, data?}
// (with data: re-embedded by the index's models, and stored)
async function updateEndpoint(ctx: Ctx): Promise<unknown> {
  const b = ctx.body;
  if (!isObject(b)) return badRequest('the body must be an object');
  const id = readId(b.id);
  if (id instanceof VectorError) return id;
  let vector = b.vector === undefined ? undefined : readDense(b.vector);
  if (vector instanceof VectorError) return vector;
  let sparse = b.sparseVector === undefined ? undefined : readSparse(b.sparseVector);
  if (sparse instanceof VectorError) return sparse;
  const data = readString(b.data, 'data');
  if (data instanceof VectorError) return data;
  if (data !== undefined) {
    if (ctx.embedder === null) return NO_EMBEDDING_MODEL;
    const embedded = await ctx.embedder.embed([data], 'document');
    if (embedded instanceof VectorError) return embedded;
    vector = embedded.vectors[0] ?? undefined;
    sparse = embedded.sparse[0] ?? undefined;
  }
  let metadata: MetadataChange | undefined;
  if (b.metadata !== undefined) {
    const m = readMetadata(b.metadata);
    if (m instanceof VectorError) return m;
    const mode = b.metadataUpdateMode ?? 'OVERWRITE';
    if (mode !== 'PATCH' && mode !== 'OVERWRITE') return badRequest('metadataUpdateMode must be PATCH or OVERWRITE');
    metadata = { metadata: m ?? {}, mode };
  }
  const updated = ctx.index.update(ctx.ns, { id, vector, sparse, metadata, data });
  return updated instanceof VectorError ? updated : { updated };
}

// POST /delete[/ns]  [ids...] | {ids} | {prefix} | {filter}
function deleteEndpoint(ctx: Ctx): unknown {
  const b = Array.isArray(ctx.body) ? { ids: ctx.body } : ctx.body;
  if (!isObject(b)) return badRequest('the body must be an array of ids or an object with ids, prefix or filter');
  const given = ['ids', 'prefix', 'filter'].filter((k) => b[k] !== undefined);
  if (given.length !== 1) return DELETE_ONE_CRITERION;
  if (b.ids !== undefined) {
    const ids = readIds(b.ids);
    return ids instanceof VectorError ? ids : { deleted: ctx.index.deleteIds(ctx.ns, ids) };
  }
  if (b.prefix !== undefined) {
    const prefix = readString(b.prefix, 'prefix');
    if (prefix instanceof VectorError) return prefix;
    return { deleted: ctx.index.deleteWhere(ctx.ns, (r) => r.id.startsWith(prefix!)) };
  }
  const text = readString(b.filter, 'filter');
  if (text instanceof VectorError) return text;
  const filter = parseFilter(text!, ctx.maxNestingDepth);
  if (filter instanceof FilterSyntaxError) return badRequest(filter.message);
  const accept = compileFilter(filter);
  return { deleted: ctx.index.deleteWhere(ctx.ns, (r) => accept(r.metadata)) };
}

// POST /reset[/ns] | /reset?all
function resetEndpoint(ctx: Ctx): unknown {
  const all = /(^|&)all(=|&|$)/.test(ctx.query);
  ctx.index.reset(all ? null : ctx.ns);
  return 'Success';
}

// POST /delete-namespace/ns
function deleteNamespaceEndpoint(ctx: Ctx): unknown {
  return ctx.index.dropNamespace(ctx.ns) ?? 'Success';
}

// POST /rename-namespace  {namespace, newNamespace, deleteExisting?}
function renameNamespaceEndpoint(ctx: Ctx): unknown {
  const b = ctx.body;
  if (!isObject(b) || typeof b.namespace !== 'string' || typeof b.newNamespace !== 'string') {
    return badRequest('namespace and newNamespace must be strings');
  }
  const deleteExisting = readBool(b.deleteExisting, 'deleteExisting');
  if (deleteExisting instanceof VectorError) return deleteExisting;
  return ctx.index.renameNamespace(b.namespace, b.newNamespace, deleteExisting) ?? { renamed: true };
}

export const WRITE_ENDPOINTS: Record<string, Endpoint> = {
  upsert: { write: true, run: upsertEndpoint },
  'upsert-data': { write: true, run: upsertDataEndpoint },
  update: { write: true, run: updateEndpoint },
  delete: { write: true, run: deleteEndpoint },
  reset: { write: true, run: resetEndpoint },
  'delete-namespace': { write: true, run: deleteNamespaceEndpoint },
  'rename-namespace': { write: true, run: renameNamespaceEndpoint },
};

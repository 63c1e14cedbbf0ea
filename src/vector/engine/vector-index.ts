// The engine of one vector index: its namespaces and every operation the REST surface offers,
// on plain values (no HTTP). Writes are applied through `apply`, the same function that
// replays the log, and handed to the journal first, so what is answered is what is logged.
// The default namespace is '' and always exists.
// Not safe for concurrent use; the server's JS thread owns it.

import type { Filter } from '../filter/ast.js';
import {
  DEFAULT_NAMESPACE_DELETE,
  DEFAULT_NAMESPACE_RENAME,
  DENSE_ONLY,
  HYBRID_NEEDS_BOTH,
  invalidDimension,
  namespaceExists,
  namespaceNotFound,
  NO_VECTOR,
  SPARSE_ONLY,
  VectorError,
} from '../errors.js';
import { fuse, type Fusion } from './fusion.js';
import { Namespace, type Hit } from './namespace.js';
import type { Op } from './ops.js';
import type { IndexType, Similarity, SparseVector, VectorData, VectorRecord } from './record.js';

export interface IndexSettings {
  readonly name: string;
  readonly type: IndexType;
  readonly similarity: Similarity;
  /** null until the first upsert fixes it (an index declared without one). */
  readonly dimension: number | null;
}

/** Where writes go before they are applied; throws when the write cannot be made durable. */
export interface Journal {
  write(op: Op): void;
}

export interface Query {
  readonly vector: Float32Array | null;
  readonly sparse: SparseVector | null;
  readonly topK: number;
  readonly filter: Filter | null;
  /** Which part of a hybrid query counts; both when HYBRID. */
  readonly mode: 'HYBRID' | 'DENSE' | 'SPARSE';
  readonly fusion: Fusion;
  /** IDF weights each sparse query dimension by its rarity; null weighs all alike. */
  readonly weighting: 'IDF' | null;
}

export interface MetadataChange {
  readonly metadata: Record<string, unknown>;
  /** PATCH merges into the stored metadata (a null value removes a field); OVERWRITE replaces it. */
  readonly mode: 'PATCH' | 'OVERWRITE';
}

export interface Update {
  readonly id: string;
  readonly vector?: Float32Array;
  readonly sparse?: VectorData['sparse'];
  readonly metadata?: MetadataChange;
  readonly data?: string;
}

/** Largest answer of a fetch by prefix, as the service documents. */
export const FETCH_PREFIX_LIMIT = 1000;

/**
 * How deep each part's ranking goes into a hybrid query's fusion, unless topK is larger. The
 * service's answers rank a vector third in the dense part of a topK-1 query, so it fuses more
 * than topK of each; how many more it does not say. 100 keeps the graph search cheap.
 */
const FUSION_DEPTH = 100;

export class VectorIndex {
  journal: Journal | null = null;
  private readonly namespaces = new Map<string, Namespace>();
  private dim: number | null;
  /** While true (a load), namespaces defer their graphs to `finishLoad`. */
  private loading = false;

  constructor(readonly settings: IndexSettings) {
    this.dim = settings.dimension;
    this.namespaces.set('', new Namespace(settings.similarity));
  }

  /** Starts a load: the ops applied until `finishLoad` only fill the records. */
  beginLoad(): void {
    this.loading = true;
    for (const space of this.namespaces.values()) space.defer();
  }

  /** Ends a load: each namespace loads its saved graph (`graphs`, by name) or builds one. */
  finishLoad(graphs: ReadonlyMap<string, string>, onUnreadable: (ns: string, err: unknown) => void): void {
    this.loading = false;
    for (const [name, space] of this.namespaces) space.finishLoad(graphs.get(name), (err) => onUnreadable(name, err));
  }

  /** Saves each namespace's graph through `pathFor`; returns the paths by namespace. */
  saveGraphs(pathFor: (i: number) => string): Map<string, string> {
    const saved = new Map<string, string>();
    let i = 0;
    for (const [name, space] of this.namespaces) {
      const path = pathFor(i++);
      if (space.saveGraph(path)) saved.set(name, path);
    }
    return saved;
  }

  get dimension(): number | null {
    return this.dim;
  }

  // ---- writes ----

  upsert(ns: string, records: readonly VectorData[]): VectorError | null {
    // An index declared without a dimension takes the first vector's.
    const fixes = this.dim === null ? records.find((r) => r.vector !== null)?.vector?.length : undefined;
    const expected = this.dim ?? fixes ?? null;
    for (const r of records) {
      const bad = this.checkShape(r.vector, r.sparse, true, expected);
      if (bad !== null) return bad;
    }
    if (fixes !== undefined) this.write({ op: 'dimension', dimension: fixes });
    // Ids repeated within one request: the last one wins.
    const byId = new Map(records.map((r) => [r.id, r]));
    this.write({ op: 'upsert', ns, records: [...byId.values()] });
    return null;
  }

  /** Returns how many vectors were updated: 0 when the id is absent. */
  update(ns: string, u: Update): VectorError | number {
    const bad = this.checkShape(u.vector ?? null, u.sparse ?? null, false, this.dim);
    if (bad !== null) return bad;
    const old = this.namespaces.get(ns)?.get(u.id);
    if (old === undefined) return 0;
    let metadata = old.metadata;
    if (u.metadata !== undefined) {
      metadata = u.metadata.mode === 'OVERWRITE' ? u.metadata.metadata : patch(old.metadata ?? {}, u.metadata.metadata);
    }
    const next: VectorData = {
      id: old.id,
      vector: u.vector ?? old.vector,
      sparse: u.sparse ?? old.sparse,
      metadata,
      data: u.data ?? old.data,
    };
    this.write({ op: 'upsert', ns, records: [next] });
    return 1;
  }

  deleteIds(ns: string, ids: readonly string[]): number {
    const space = this.namespaces.get(ns);
    if (space === undefined) return 0;
    const present = [...new Set(ids)].filter((id) => space.get(id) !== undefined);
    if (present.length > 0) this.write({ op: 'delete', ns, ids: present });
    return present.length;
  }

  deleteWhere(ns: string, accept: (r: VectorRecord) => boolean): number {
    const space = this.namespaces.get(ns);
    if (space === undefined) return 0;
    const ids: string[] = [];
    for (const r of space.records()) if (accept(r)) ids.push(r.id);
    if (ids.length > 0) this.write({ op: 'delete', ns, ids });
    return ids.length;
  }

  reset(ns: string | null): void {
    this.write({ op: 'reset', ns });
  }

  dropNamespace(ns: string): VectorError | null {
    if (ns === '') return DEFAULT_NAMESPACE_DELETE;
    if (!this.namespaces.has(ns)) return namespaceNotFound(ns);
    this.write({ op: 'drop', ns });
    return null;
  }

  renameNamespace(ns: string, to: string, deleteExisting: boolean): VectorError | null {
    if (ns === '' || to === '') return DEFAULT_NAMESPACE_RENAME;
    if (!this.namespaces.has(ns)) return namespaceNotFound(ns);
    if (this.namespaces.has(to) && !deleteExisting) return namespaceExists(to);
    if (ns !== to) this.write({ op: 'rename', ns, to });
    return null;
  }

  // ---- reads ----

  get(ns: string, id: string): VectorRecord | null {
    return this.namespaces.get(ns)?.get(id) ?? null;
  }

  withPrefix(ns: string, prefix: string, limit: number): VectorRecord[] {
    const space = this.namespaces.get(ns);
    return space === undefined ? [] : space.range(0, limit, prefix).records;
  }

  range(ns: string, cursor: number, limit: number, prefix: string): { records: VectorRecord[]; next: number | null } {
    const space = this.namespaces.get(ns);
    if (space === undefined) return { records: [], next: null };
    return space.range(cursor, limit, prefix);
  }

  random(ns: string): VectorRecord | null {
    const space = this.namespaces.get(ns);
    return space?.random() ?? null;
  }

  /**
   * The topK best vectors among those matching the filter: by dense similarity, by sparse inner
   * product, or both fused (a hybrid index given both parts, unless `mode` picks one). A piece
   * of a resumable query passes the ids it has `returned`: each part then ranks only the others,
   * and only its topK best are fused, as the service's resumable answers show.
   */
  query(ns: string, q: Query, returned?: ReadonlySet<string>): VectorError | Hit[] {
    const type = this.settings.type;
    if (type === 'DENSE' && q.sparse !== null) return DENSE_ONLY;
    if (type === 'SPARSE' && q.vector !== null) return SPARSE_ONLY;
    if (q.vector !== null && this.dim !== null && q.vector.length !== this.dim) return invalidDimension(q.vector.length, this.dim);
    const useDense = q.vector !== null && q.mode !== 'SPARSE';
    const useSparse = q.sparse !== null && q.mode !== 'DENSE';
    if (!useDense && !useSparse) return NO_VECTOR;
    const space = this.namespaces.get(ns);
    if (space === undefined) return [];
    const selection = q.filter === null ? undefined : space.select(q.filter);
    const accept =
      returned === undefined || returned.size === 0 ? selection?.accept : (r: VectorRecord) => !returned.has(r.id) && (selection?.accept(r) ?? true);
    const depth = useDense && useSparse && returned === undefined ? Math.max(q.topK, FUSION_DEPTH) : q.topK;
    const dense = useDense ? space.nearest(q.vector!, depth, accept, selection?.among) : null;
    const sparse = useSparse ? space.sparseNearest(q.sparse!, depth, q.weighting === 'IDF', accept) : null;
    if (dense === null || sparse === null) return dense ?? sparse!;
    const lists = [dense, sparse].map((hits) => hits.map((h) => ({ item: h.record, key: h.record.id, score: h.score })));
    return fuse(lists, q.fusion).slice(0, q.topK).map((f) => ({ record: f.item, score: f.score }));
  }

  namespaceNames(): string[] {
    return [...this.namespaces.keys()];
  }

  info(): { vectorCount: number; indexSize: number; namespaces: Map<string, number> } {
    let vectorCount = 0;
    let indexSize = 0;
    const namespaces = new Map<string, number>();
    for (const [name, space] of this.namespaces) {
      vectorCount += space.size;
      indexSize += space.bytes;
      namespaces.set(name, space.size);
    }
    return { vectorCount, indexSize, namespaces };
  }

  /** Every namespace with its records in label order, as they are now, and its next label, for a snapshot. */
  *contents(): IterableIterator<[string, Iterable<VectorRecord>, number]> {
    for (const [name, space] of this.namespaces) yield [name, space.frozen(), space.nextLabel];
  }

  // ---- applying logged writes ----

  apply(op: Op): void {
    switch (op.op) {
      case 'dimension':
        this.dim = op.dimension;
        return;
      case 'namespace':
        if (op.next !== undefined) this.space(op.ns).nextLabel = op.next;
        else this.space(op.ns);
        return;
      case 'upsert':
        this.space(op.ns).put(op.records);
        return;
      case 'delete': {
        const space = this.namespaces.get(op.ns);
        if (space !== undefined) for (const id of op.ids) space.delete(id);
        return;
      }
      case 'reset':
        if (op.ns === null) for (const space of this.namespaces.values()) space.clear();
        else this.namespaces.get(op.ns)?.clear();
        return;
      case 'drop':
        this.namespaces.delete(op.ns);
        return;
      case 'rename': {
        const space = this.namespaces.get(op.ns);
        if (space === undefined) return;
        this.namespaces.delete(op.ns);
        this.namespaces.set(op.to, space);
        return;
      }
    }
  }

  private write(op: Op): void {
    this.journal?.write(op);
    this.apply(op);
  }

  private space(ns: string): Namespace {
    let space = this.namespaces.get(ns);
    if (space === undefined) this.namespaces.set(ns, (space = new Namespace(this.settings.similarity, this.loading)));
    return space;
  }

  /** Whether a dense and a sparse part fit the index type and dimension (`required`: an upsert). */
  private checkShape(vector: Float32Array | null, sparse: VectorData['sparse'], required: boolean, dim: number | null): VectorError | null {
    const type = this.settings.type;
    if (type === 'DENSE' && sparse !== null) return DENSE_ONLY;
    if (type === 'SPARSE' && vector !== null) return SPARSE_ONLY;
    if (required) {
      if (vector === null && sparse === null) return NO_VECTOR;
      if (type === 'HYBRID' && (vector === null || sparse === null)) return HYBRID_NEEDS_BOTH;
      if (type === 'DENSE' && vector === null) return NO_VECTOR;
    }
    if (vector !== null && dim !== null && vector.length !== dim) return invalidDimension(vector.length, dim);
    return null;
  }
}

/** PATCH semantics (JSON merge patch, RFC 7386): objects merge, null removes, the rest replaces. */
function patch(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k])) {
      out[k] = patch(out[k] as Record<string, unknown>, v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}

// One namespace of an index: its records by id, their ids in order (for range), and the
// ANN graph of their dense vectors. Queries go to the graph unless an exact scan is cheaper
// or needed: small namespaces, selective filters, and a filtered graph search that came back
// short, so a filtered query returns topK whenever at least topK vectors match.
// Not safe for concurrent use; the index's JS thread owns it.

import type { Filter } from '../filter/ast.js';
import { compileFilter } from '../filter/evaluate.js';
import { HnswAnn, type AnnIndex } from './ann.js';
import { MetadataIndex } from './metadata-index.js';
import type { Similarity, SparseVector, VectorData, VectorRecord } from './record.js';
import { denseScore } from './similarity.js';
import { SparseIndex } from './sparse-index.js';
import { VectorSlab } from './vector-slab.js';

/** Below this many vectors a query scans them all: exact, and as fast as the graph. */
const EXACT_BELOW = 256;
/** A filter that lets through fewer than this share of the vectors is answered by a scan. */
const SELECTIVE_SHARE = 0.05;

export interface Hit {
  readonly record: VectorRecord;
  readonly score: number;
}

/** What a filter lets through: `accept` decides; `among`, when not null, holds every record it accepts. */
export interface Selection {
  readonly accept: (r: VectorRecord) => boolean;
  readonly among: Iterable<VectorRecord> | null;
}

export class Namespace {
  readonly records = new Map<string, VectorRecord>();
  /**
   * The ids in ascending order (UTF-16 code units), for range; null after an id came or went,
   * sorted again by the next range. Bulk writes thus cost nothing here, and a walk through
   * the pages of an unchanging namespace sorts once.
   */
  private sortedIds: string[] | null = null;
  private ann: AnnIndex | null = null;
  private sparse = new SparseIndex();
  /** The records' dense vectors; made by the first one, which fixes the dimension. */
  private slab: VectorSlab | null = null;
  private readonly byLabel = new Map<number, VectorRecord>();
  private readonly metadata = new MetadataIndex();
  /** The next new record's label. */
  nextLabel = 0;
  /** While an index loads, the graph waits: `finishLoad` loads or builds it once. */
  private deferred: boolean;

  constructor(
    private readonly similarity: Similarity,
    deferred = false,
  ) {
    this.deferred = deferred;
  }

  /** Starts a load: records fill in, the graph waits for `finishLoad`. */
  defer(): void {
    this.deferred = true;
    this.ann = null;
  }

  /** Ends a load: loads the graph saved at `saved`, or (absent, or unreadable) builds it from the records. */
  finishLoad(saved: string | undefined, onUnreadable: (err: unknown) => void): void {
    this.deferred = false;
    const withVectors = [...this.records.values()].filter((r) => r.vector !== null);
    if (withVectors.length === 0) return;
    if (saved !== undefined) {
      try {
        this.ann = new HnswAnn(this.similarity, withVectors[0].vector!.length, { path: saved, live: withVectors.map((r) => r.label) });
        return;
      } catch (err) {
        onUnreadable(err);
      }
    }
    this.ann = new HnswAnn(this.similarity, withVectors[0].vector!.length);
    for (const r of withVectors) this.ann.add(r.label, r.vector!);
  }

  /** Saves the graph to `path`; false when there is none. */
  saveGraph(path: string): boolean {
    if (this.ann === null) return false;
    this.ann.save(path);
    return true;
  }

  get size(): number {
    return this.records.size;
  }

  /** Approximate bytes held by vectors, metadata and the graph. */
  get bytes(): number {
    let n = this.ann?.bytes ?? 0;
    for (const r of this.records.values()) {
      n += 64 + r.id.length * 2 + (r.vector?.byteLength ?? 0) + (r.sparse === null ? 0 : r.sparse.indices.byteLength * 2);
      n += r.data === undefined ? 0 : r.data.length * 2;
    }
    return n;
  }

  get(id: string): VectorRecord | undefined {
    return this.records.get(id);
  }

  /**
   * Inserts or replaces each record of `batch` (ids distinct); a replaced record keeps its place
   * in insertion order, and its label. The graph takes the batch's vectors in one call, on every core.
   */
  put(batch: readonly VectorData[]): void {
    const labels: number[] = [];
    const vectors: Float32Array[] = [];
    for (const data of batch) {
      const { record, old } = this.store(data);
      if (this.deferred) continue;
      if (record.vector !== null) {
        labels.push(record.label);
        vectors.push(record.vector);
      } else if (old?.vector) this.ann?.remove(record.label);
    }
    if (vectors.length > 0) {
      this.ann ??= new HnswAnn(this.similarity, vectors[0].length);
      this.ann.addMany(labels, vectors);
    }
    this.compactVectors();
  }

  /** Files one record everywhere but in the graph; returns it with the record it replaced. */
  private store(data: VectorData): { record: VectorRecord; old: VectorRecord | undefined } {
    const old = this.records.get(data.id);
    const label = old?.label ?? data.label ?? this.nextLabel;
    this.nextLabel = Math.max(this.nextLabel, label + 1);
    const vector = data.vector === null ? null : (this.slab ??= new VectorSlab(data.vector.length)).store(data.vector, label);
    const record: VectorRecord = { ...data, vector, label };
    this.records.set(data.id, record);
    if (old === undefined) this.sortedIds = null;
    this.byLabel.set(label, record);
    if (old !== undefined) this.metadata.remove(label, old.metadata);
    if (old?.vector) this.slab!.release(old.vector);
    this.metadata.add(label, record.metadata);
    if (old?.sparse) this.sparse.remove(label, old.sparse);
    if (record.sparse !== null) this.sparse.add(label, record.sparse);
    return { record, old };
  }

  delete(id: string): boolean {
    const old = this.records.get(id);
    if (old === undefined) return false;
    this.records.delete(id);
    this.byLabel.delete(old.label);
    this.metadata.remove(old.label, old.metadata);
    if (old.sparse !== null) this.sparse.remove(old.label, old.sparse);
    this.sortedIds = null;
    if (old.vector !== null) {
      this.slab!.release(old.vector);
      if (!this.deferred) this.ann?.remove(old.label);
    }
    this.compactVectors();
    return true;
  }

  /** Moves the vectors of the slab's chunks it gave up into its newest one (see vector-slab.ts). */
  private compactVectors(): void {
    if (this.slab === null) return;
    for (const label of this.slab.takeMoves()) {
      const r = this.byLabel.get(label)!;
      const moved: VectorRecord = { ...r, vector: this.slab.store(r.vector!, label) };
      this.records.set(r.id, moved);
      this.byLabel.set(label, moved);
    }
  }

  /**
   * Up to `limit` records whose id starts with `prefix`, from position `cursor` among them in id
   * order; `next` is the position after them, or null when none is left. A position stays
   * meaningful while the namespace changes, as the service's cursors do.
   */
  range(cursor: number, limit: number, prefix: string): { records: VectorRecord[]; next: number | null } {
    const ids = (this.sortedIds ??= [...this.records.keys()].sort());
    const out: VectorRecord[] = [];
    // The ids starting with `prefix` are contiguous from the first id not below it.
    let i = firstAtLeast(ids, prefix) + cursor;
    for (; i < ids.length && ids[i].startsWith(prefix) && out.length < limit; i++) out.push(this.records.get(ids[i])!);
    const more = i < ids.length && ids[i].startsWith(prefix);
    return { records: out, next: more ? cursor + out.length : null };
  }

  /** The filter compiled once for a query, with the records the metadata index bounds it to. */
  select(filter: Filter): Selection {
    const matches = compileFilter(filter);
    const bound = this.metadata.bound(filter, () => this.records.values());
    return {
      accept: (r) => matches(r.metadata),
      among: bound === null ? null : [...bound].map((label) => this.byLabel.get(label)!),
    };
  }

  /**
   * The `k` records nearest `query` among those `accept` lets through (all when absent), best
   * first; `among`, when given, holds every record `accept` lets through, so only those are checked.
   */
  nearest(query: Float32Array, k: number, accept?: (r: VectorRecord) => boolean, among?: Iterable<VectorRecord> | null): Hit[] {
    if (k <= 0 || this.ann === null) return [];
    let candidates: VectorRecord[] | null = null;
    if (accept !== undefined) {
      candidates = [];
      for (const r of among ?? this.records.values()) if (r.vector !== null && accept(r)) candidates.push(r);
    }
    const matching = candidates?.length ?? this.ann.size;
    const want = Math.min(k, matching);
    if (this.ann.size >= EXACT_BELOW && (candidates === null || candidates.length >= SELECTIVE_SHARE * this.ann.size)) {
      const allowed = candidates === null ? undefined : new Set(candidates.map((r) => r.label));
      const labels = this.ann.search(query, want, allowed === undefined ? undefined : (l) => allowed.has(l));
      if (labels.length >= want) return this.score(labels.map((l) => this.byLabel.get(l)!), query).slice(0, want);
    }
    const pool = candidates ?? [...this.records.values()].filter((r) => r.vector !== null);
    return this.score(pool, query).slice(0, want);
  }

  /** The `k` records with the largest sparse inner product with `query` (IDF-weighted when asked). */
  sparseNearest(query: SparseVector, k: number, idf: boolean, accept?: (r: VectorRecord) => boolean): Hit[] {
    const scored = this.sparse.search(query, idf, accept === undefined ? undefined : (l) => accept(this.byLabel.get(l)!));
    return scored.slice(0, k).map((s) => ({ record: this.byLabel.get(s.label)!, score: s.score }));
  }

  /** Scores `records` against `query` exactly, best first; ties keep insertion order. */
  score(records: readonly VectorRecord[], query: Float32Array): Hit[] {
    const hits = records.map((record) => ({ record, score: denseScore(this.similarity, query, record.vector!) }));
    return hits.sort((a, b) => b.score - a.score || a.record.label - b.record.label);
  }

  clear(): void {
    this.records.clear();
    this.byLabel.clear();
    this.metadata.clear();
    this.sparse = new SparseIndex();
    this.slab = null;
    this.sortedIds = null;
    this.ann = null;
  }
}

/** The position of the first of the ascending `ids` that is not below `id`. */
function firstAtLeast(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

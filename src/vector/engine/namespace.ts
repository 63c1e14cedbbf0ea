// One namespace of an index: its records by id, their ids in order (for range), and the
// ANN graph of their dense vectors. Queries go to the graph unless an exact scan is cheaper
// or needed: small namespaces, selective filters, and a filtered graph search that came back
// short, so a filtered query returns topK whenever at least topK vectors match.
// Not safe for concurrent use; the index's JS thread owns it.

import type { Filter } from '../filter/ast.js';
import { compileFilter } from '../filter/evaluate.js';
import { HnswAnn, type AnnIndex } from './ann.js';
import { FreeLabels } from './free-labels.js';
import { IdTable } from './id-table.js';
import { MetadataIndex } from './metadata-index.js';
import type { Similarity, SparseVector, VectorData, VectorRecord } from './record.js';
import { denseScore } from '../../similarity/dense-score.js';
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

/** A namespace's records by label, column by column. */
interface Columns {
  readonly idOf: (label: number) => string | undefined;
  readonly sparseOf: ReadonlyMap<number, SparseVector>;
  readonly metadataOf: ReadonlyMap<number, Record<string, unknown>>;
  readonly dataOf: ReadonlyMap<number, string>;
  readonly vectorOf: (label: number) => Float32Array | null;
}

/** The record under `label`, which must be present. */
function recordAt(c: Columns, label: number): VectorRecord {
  return { id: c.idOf(label)!, vector: c.vectorOf(label), sparse: c.sparseOf.get(label) ?? null, metadata: c.metadataOf.get(label), data: c.dataOf.get(label), label };
}

export class Namespace {
  // A record is kept in columns by its label and made into a VectorRecord only when read: an
  // object per record, its id's second map entry and a view of its vector cost about 380 bytes
  // a vector at 1M (issue 20's memory bound), and a JS string and Map entry per id 170 more
  // (id-table.ts). A deleted record's label goes to the next new record (free-labels.ts), so
  // the columns by label grow with the records, not with churn.
  /** Each record's id by label, and label by id. */
  private ids = new IdTable();
  /** The records' dense vectors by label; made by the first one, which fixes the dimension. */
  private slab: VectorSlab | null = null;
  /** The other parts, by label, for the records that have them. */
  private readonly sparseOf = new Map<number, SparseVector>();
  private readonly metadataOf = new Map<number, Record<string, unknown>>();
  private readonly dataOf = new Map<number, string>();
  /**
   * The ids in ascending order (UTF-16 code units), for range; null after an id came or went,
   * sorted again by the next range. Bulk writes thus cost nothing here, and a walk through
   * the pages of an unchanging namespace sorts once. Labels, so ids are not held as strings.
   */
  private sortedIds: Int32Array | null = null;
  private ann: AnnIndex | null = null;
  private sparse = new SparseIndex();
  private readonly metadata = new MetadataIndex();
  /** The labels below `next` that no record holds; `freeKnown` false when they are to be found again. */
  private readonly free = new FreeLabels();
  private freeKnown = true;
  /** The label after the highest ever taken. */
  private next = 0;
  /** While an index loads, the graph waits: `finishLoad` loads or builds it once. */
  private deferred: boolean;
  /** The columns as `record` reads them. */
  private readonly live: Columns = {
    idOf: (label) => this.ids.idOf(label),
    sparseOf: this.sparseOf,
    metadataOf: this.metadataOf,
    dataOf: this.dataOf,
    vectorOf: (label) => this.slab?.get(label) ?? null,
  };

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
    const withVectors = [...this.ids.labels()].filter((label) => this.slab?.has(label));
    if (withVectors.length === 0) return;
    if (saved !== undefined) {
      try {
        this.ann = new HnswAnn(this.similarity, this.slab!.dimension, { path: saved, live: withVectors });
        return;
      } catch (err) {
        onUnreadable(err);
      }
    }
    this.ann = new HnswAnn(this.similarity, this.slab!.dimension);
    for (const label of withVectors) this.ann.add(label, this.slab!.get(label)!);
  }

  /** Saves the graph to `path`; false when there is none. */
  saveGraph(path: string): boolean {
    if (this.ann === null) return false;
    this.ann.save(path);
    return true;
  }

  get size(): number {
    return this.ids.size;
  }

  get nextLabel(): number {
    return this.next;
  }

  /** Set by a snapshot, before its records: the labels below it that none of them takes are free. */
  set nextLabel(next: number) {
    this.next = next;
    this.freeKnown = false;
  }

  /** Approximate bytes held by vectors, metadata and the graph. */
  get bytes(): number {
    let n = (this.ann?.bytes ?? 0) + (this.slab?.bytes ?? 0) + this.ids.bytes;
    for (const s of this.sparseOf.values()) n += s.indices.byteLength * 2;
    for (const d of this.dataOf.values()) n += d.length * 2;
    return n;
  }

  get(id: string): VectorRecord | undefined {
    const label = this.ids.labelOf(id);
    return label === undefined ? undefined : this.record(label);
  }

  /** Every record, in label order. */
  *records(): IterableIterator<VectorRecord> {
    for (const label of this.ids.labels()) yield this.record(label);
  }

  /**
   * Every record as it is now, in label order, made one at a time as it is read: later
   * writes do not change what it yields (a snapshot written in the background reads it).
   */
  frozen(): Iterable<VectorRecord> {
    const ids = this.ids.frozen();
    const columns: Columns = {
      idOf: ids.idOf,
      sparseOf: new Map(this.sparseOf),
      metadataOf: new Map(this.metadataOf),
      dataOf: new Map(this.dataOf),
      vectorOf: this.slab?.frozen() ?? (() => null),
    };
    return (function* () {
      for (let label = 0; label < ids.end; label++) if (ids.has(label)) yield recordAt(columns, label);
    })();
  }

  /** A record picked at random; null when there is none. */
  random(): VectorRecord | null {
    let skip = Math.floor(Math.random() * this.ids.size);
    for (const label of this.ids.labels()) if (skip-- === 0) return this.record(label);
    return null;
  }

  /** The record stored under `label`, which must be present. */
  private record(label: number): VectorRecord {
    return recordAt(this.live, label);
  }

  /**
   * Inserts or replaces each record of `batch` (ids distinct); a replaced record keeps its
   * label. The graph takes the batch's vectors in one call, on every core.
   */
  put(batch: readonly VectorData[]): void {
    const labels: number[] = [];
    const vectors: Float32Array[] = [];
    for (const data of batch) {
      const { label, hadVector } = this.store(data);
      if (this.deferred) continue;
      if (data.vector !== null) {
        labels.push(label);
        vectors.push(data.vector);
      } else if (hadVector) this.ann?.remove(label);
    }
    if (vectors.length > 0) {
      this.ann ??= new HnswAnn(this.similarity, vectors[0].length);
      this.ann.addMany(labels, vectors);
    }
  }

  /** Files one record everywhere but in the graph; returns its label and whether the record it replaced had a dense vector. */
  private store(data: VectorData): { label: number; hadVector: boolean } {
    const old = this.ids.labelOf(data.id);
    if (old === undefined && data.label !== undefined) this.freeKnown = false;
    const label = old ?? data.label ?? this.newLabel();
    this.next = Math.max(this.next, label + 1);
    const hadVector = old !== undefined && this.forget(old);
    if (old === undefined) {
      this.ids.add(data.id, label);
      this.sortedIds = null;
    }
    if (data.vector !== null) (this.slab ??= new VectorSlab(data.vector.length)).set(label, data.vector);
    if (data.sparse !== null) {
      this.sparseOf.set(label, data.sparse);
      this.sparse.add(label, data.sparse);
    }
    if (data.metadata !== undefined) this.metadataOf.set(label, data.metadata);
    if (data.data !== undefined) this.dataOf.set(label, data.data);
    this.metadata.add(label, data.metadata);
    return { label, hadVector };
  }

  /** The smallest label no record holds. */
  private newLabel(): number {
    if (!this.freeKnown) {
      this.free.clear();
      for (let label = 0; label < this.next; label++) if (!this.ids.has(label)) this.free.add(label);
      this.freeKnown = true;
    }
    return this.free.takeSmallest() ?? this.next;
  }

  /** Drops the parts stored under `label`, but not its id; returns whether it had a dense vector. */
  private forget(label: number): boolean {
    const metadata = this.metadataOf.get(label);
    if (metadata !== undefined) this.metadata.remove(label, metadata);
    this.metadataOf.delete(label);
    this.dataOf.delete(label);
    const sparse = this.sparseOf.get(label);
    if (sparse !== undefined) this.sparse.remove(label, sparse);
    this.sparseOf.delete(label);
    const hadVector = this.slab?.has(label) ?? false;
    this.slab?.delete(label);
    return hadVector;
  }

  delete(id: string): boolean {
    const label = this.ids.remove(id);
    if (label === undefined) return false;
    if (this.freeKnown) this.free.add(label);
    this.sortedIds = null;
    if (this.forget(label) && !this.deferred) this.ann?.remove(label);
    return true;
  }

  /**
   * Up to `limit` records whose id starts with `prefix`, from position `cursor` among them in id
   * order; `next` is the position after them, or null when none is left. A position stays
   * meaningful while the namespace changes, as the service's cursors do.
   */
  range(cursor: number, limit: number, prefix: string): { records: VectorRecord[]; next: number | null } {
    const sorted = (this.sortedIds ??= this.labelsById());
    const idAt = (i: number) => this.ids.idOf(sorted[i])!;
    const out: VectorRecord[] = [];
    // The ids starting with `prefix` are contiguous from the first id not below it.
    let i = firstAtLeast(sorted.length, idAt, prefix) + cursor;
    for (; i < sorted.length && idAt(i).startsWith(prefix) && out.length < limit; i++) out.push(this.record(sorted[i]));
    const more = i < sorted.length && idAt(i).startsWith(prefix);
    return { records: out, next: more ? cursor + out.length : null };
  }

  /** The labels in ascending order of their ids (UTF-16 code units): the ids are sorted as strings, the strings then dropped. */
  private labelsById(): Int32Array {
    const ids = [...this.ids.labels()].map((label) => this.ids.idOf(label)!).sort();
    return Int32Array.from(ids, (id) => this.ids.labelOf(id)!);
  }

  /** The filter compiled once for a query, with the records the metadata index bounds it to. */
  select(filter: Filter): Selection {
    const matches = compileFilter(filter);
    const bound = this.metadata.bound(filter, () => this.records());
    return {
      accept: (r) => matches(r.metadata),
      among: bound === null ? null : [...bound].map((label) => this.record(label)),
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
      for (const r of among ?? this.records()) if (r.vector !== null && accept(r)) candidates.push(r);
    }
    const matching = candidates?.length ?? this.ann.size;
    const want = Math.min(k, matching);
    if (this.ann.size >= EXACT_BELOW && (candidates === null || candidates.length >= SELECTIVE_SHARE * this.ann.size)) {
      const allowed = candidates === null ? undefined : new Set(candidates.map((r) => r.label));
      const labels = this.ann.search(query, want, allowed === undefined ? undefined : (l) => allowed.has(l));
      if (labels.length >= want) return this.score(labels.map((l) => this.record(l)), query).slice(0, want);
    }
    const pool = candidates ?? [...this.records()].filter((r) => r.vector !== null);
    return this.score(pool, query).slice(0, want);
  }

  /** The `k` records with the largest sparse inner product with `query` (IDF-weighted when asked). */
  sparseNearest(query: SparseVector, k: number, idf: boolean, accept?: (r: VectorRecord) => boolean): Hit[] {
    const scored = this.sparse.search(query, idf, accept === undefined ? undefined : (l) => accept(this.record(l)));
    return scored.slice(0, k).map((s) => ({ record: this.record(s.label), score: s.score }));
  }

  /** Scores `records` against `query` exactly, best first; ties go to the lower label. */
  score(records: readonly VectorRecord[], query: Float32Array): Hit[] {
    const hits = records.map((record) => ({ record, score: denseScore(this.similarity, query, record.vector!) }));
    return hits.sort((a, b) => b.score - a.score || a.record.label - b.record.label);
  }

  clear(): void {
    this.ids = new IdTable();
    this.free.clear();
    this.freeKnown = true;
    this.next = 0;
    this.sparseOf.clear();
    this.metadataOf.clear();
    this.dataOf.clear();
    this.metadata.clear();
    this.sparse = new SparseIndex();
    this.slab = null;
    this.sortedIds = null;
    this.ann = null;
  }
}

/** The position of the first of `count` ascending ids (`idAt`) that is not below `id`. */
function firstAtLeast(count: number, idAt: (i: number) => string, id: string): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (idAt(mid) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

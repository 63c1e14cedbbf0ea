// The approximate nearest-neighbour index behind one namespace's dense vectors. An interface,
// so the engine does not depend on the library; HnswAnn implements it with hnswlib-node.
// Labels are the records' labels. Deleted points are marked and their slots reused by later
// inserts (allowReplaceDeleted), so deletes do not grow memory; a restart rebuilds the graph
// from the stored vectors (see persistence.ts for why).
// Not safe for concurrent use; the index's JS thread owns it.

import { chmodSync } from 'node:fs';
import hnswlib from 'hnswlib-node';
import { FILE_MODE } from '../../storage/atomic-file.js';
import type { Similarity } from './record.js';

export interface AnnIndex {
  /** Inserts a point, or moves it when the label is present. */
  add(label: number, vector: Float32Array): void;
  remove(label: number): void;
  /** Up to `k` labels, nearest first, among those `accept` lets through. */
  search(query: Float32Array, k: number, accept?: (label: number) => boolean): number[];
  /** Points present (not deleted). */
  readonly size: number;
  /** Approximate memory held, in bytes. */
  readonly bytes: number;
  /** Writes the graph to `path` (hnswlib's format, deleted marks included). */
  save(path: string): void;
}

const SPACE = { COSINE: 'cosine', EUCLIDEAN: 'l2', DOT_PRODUCT: 'ip' } as const;
/** Graph degree and build effort: hnswlib's usual defaults for recall above 0.95. */
const M = 16;
const EF_CONSTRUCTION = 200;
/** Search breadth floor; raised to k for larger k. */
const EF_SEARCH = 100;
const INITIAL_CAPACITY = 1024;

export class HnswAnn implements AnnIndex {
  private readonly index: hnswlib.HierarchicalNSW;
  private readonly live = new Set<number>();
  private deleted = 0;
  private capacity = INITIAL_CAPACITY;

  /** A new, empty graph; or, with `saved`, the graph saved there holding exactly the `live` labels. */
  constructor(
    similarity: Similarity,
    private readonly dimension: number,
    saved?: { path: string; live: readonly number[] },
  ) {
    this.index = new hnswlib.HierarchicalNSW(SPACE[similarity], dimension);
    if (saved === undefined) {
      this.index.initIndex({ maxElements: this.capacity, m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 100, allowReplaceDeleted: true });
      return;
    }
    this.index.readIndexSync(saved.path, true);
    this.capacity = this.index.getMaxElements();
    const present = new Set(this.index.getIdsList());
    for (const label of saved.live) {
      if (!present.has(label)) throw new Error(`${saved.path} lacks label ${label}`);
      this.live.add(label);
    }
    // Every other point must be marked deleted; most already are, and hnswlib refuses those.
    for (const label of present) {
      if (this.live.has(label)) continue;
      try {
        this.index.markDelete(label);
      } catch {
        // Already deleted.
      }
    }
    this.deleted = present.size - this.live.size;
  }

  save(path: string): void {
    this.index.writeIndexSync(path);
    chmodSync(path, FILE_MODE); // hnswlib creates the file with the umask's mode
  }

  get size(): number {
    return this.live.size;
  }

  get bytes(): number {
    // Per slot: the vector, level-0 links (2M ids) and the label.
    return this.capacity * (this.dimension * 4 + 2 * M * 4 + 8);
  }

  add(label: number, vector: Float32Array): void {
    const point = Array.from(vector);
    if (this.live.has(label)) {
      this.index.addPoint(point, label);
      return;
    }
    if (this.deleted > 0) {
      this.index.addPoint(point, label, true);
      this.deleted--;
    } else {
      if (this.live.size >= this.capacity) {
        this.capacity *= 2;
        this.index.resizeIndex(this.capacity);
      }
      this.index.addPoint(point, label);
    }
    this.live.add(label);
  }

  remove(label: number): void {
    if (!this.live.delete(label)) return;
    this.index.markDelete(label);
    this.deleted++;
  }

  search(query: Float32Array, k: number, accept?: (label: number) => boolean): number[] {
    const n = Math.min(k, this.live.size);
    if (n === 0) return [];
    this.index.setEf(Math.max(EF_SEARCH, n));
    return this.index.searchKnn(Array.from(query), n, accept).neighbors;
  }
}

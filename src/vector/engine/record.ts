// What an index stores per vector. Dense components are kept as float32, the precision the
// service stores, so a fetched vector prints exactly what a query scores against.

export type { Similarity } from '../../similarity/dense-score.js';
export type IndexType = 'DENSE' | 'SPARSE' | 'HYBRID';

/** Non-zero dimensions of a sparse vector, indices ascending and unique. */
export interface SparseVector {
  readonly indices: Uint32Array;
  readonly values: Float32Array;
}

export interface VectorData {
  readonly id: string;
  readonly vector: Float32Array | null;
  readonly sparse: SparseVector | null;
  readonly metadata: Record<string, unknown> | undefined;
  readonly data: string | undefined;
  /** Set only when a snapshot restores a record, so it keeps its label (a saved graph's key). */
  readonly label?: number;
}

/** A stored vector; `label` is its number in the namespace (no two records hold one at a time) and its key in the ANN index. */
export interface VectorRecord extends VectorData {
  readonly label: number;
}

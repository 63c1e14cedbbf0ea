// Data for the vector scale workload: the clustered unit vectors of bench/vector-data.ts, held
// flat in one SharedArrayBuffer (a million number[] would cost several times the memory, and the
// in-process worker reads the same buffer without a copy), and for each query its exact top 10
// among the first n vectors at every measured size n, by one brute-force pass per query. The
// queries are drawn first, so the first n vectors are the same whatever the largest size.

import { clusteredDraws, K } from './vector-data.js';

/** Vectors per upsert request, and per batch the in-process graph takes. */
export const BATCH = 1000;

export interface ScaleData {
  readonly dim: number;
  /** Vector i is elements [i * dim, (i + 1) * dim). */
  readonly vectors: Float32Array;
  readonly queries: readonly number[][];
  /** Per size, per query: ids of the exact top K among vectors [0, size), nearest first. */
  readonly truth: ReadonlyMap<number, readonly number[][]>;
}

/** `sizes` ascending; the largest is the number of vectors drawn. */
export function scaleData(sizes: readonly number[], dim: number, queryCount: number): ScaleData {
  const draw = clusteredDraws(dim);
  const queries = Array.from({ length: queryCount }, draw);
  const n = sizes[sizes.length - 1];
  const vectors = new Float32Array(new SharedArrayBuffer(n * dim * Float32Array.BYTES_PER_ELEMENT));
  for (let i = 0; i < n; i++) vectors.set(draw(), i * dim);
  const truth = new Map(sizes.map((size): [number, number[][]] => [size, []]));
  for (const q of queries) {
    const found = nearestAt(vectors, dim, Float32Array.from(q), sizes);
    sizes.forEach((size, s) => truth.get(size)!.push(found[s]));
  }
  return { dim, vectors, queries, truth };
}

/** Vector `i` as the plain array JSON takes. */
export function vectorAt(data: Pick<ScaleData, 'dim' | 'vectors'>, i: number): number[] {
  return Array.from(data.vectors.subarray(i * data.dim, (i + 1) * data.dim));
}

/** The exact top K of `q` by dot product (cosine: all are unit vectors) among the first `size`
 *  vectors, for each of `sizes`, in one pass. */
function nearestAt(vectors: Float32Array, dim: number, q: Float32Array, sizes: readonly number[]): number[][] {
  const ids = new Int32Array(K);
  const scores = new Float64Array(K).fill(-Infinity);
  const out: number[][] = [];
  let next = 0;
  for (let i = 0; ; i++) {
    for (; next < sizes.length && i === sizes[next]; next++) out.push(Array.from(ids.subarray(0, Math.min(K, i))));
    if (next === sizes.length) return out;
    let score = 0;
    for (let d = 0, at = i * dim; d < dim; d++, at++) score += vectors[at] * q[d];
    if (score <= scores[K - 1]) continue;
    let at = K - 1;
    for (; at > 0 && scores[at - 1] < score; at--) {
      scores[at] = scores[at - 1];
      ids[at] = ids[at - 1];
    }
    scores[at] = score;
    ids[at] = i;
  }
}

// Synthetic data for the vector workload: unit vectors in clusters (a random centre per cluster
// plus Gaussian noise), queries drawn the same way, and the exact top 10 of every query by brute
// force, with and without the 1% filter. Seeded, so every run measures the same data.

import { Xorshift } from './xorshift.js';

export interface Dataset {
  readonly dim: number;
  readonly vectors: readonly number[][];
  /** Metadata field `bucket` of vector i: i % BUCKETS, so `bucket = FILTER_BUCKET` keeps 1%. */
  readonly queries: readonly number[][];
  /** Ids (indexes into `vectors`) of each query's exact 10 nearest by cosine. */
  readonly truth: readonly number[][];
  /** The same among the vectors the filter keeps. */
  readonly filteredTruth: readonly number[][];
}

export const BUCKETS = 100;
export const FILTER_BUCKET = 7;
export const FILTER = `bucket = ${FILTER_BUCKET}`;
export const K = 10;

const CLUSTERS = 64;
const NOISE = 0.6; // of a centre's scale: clusters overlap enough that the search has work to do
const SEED = 0x7ec7;

export function dataset(n: number, dim: number, queryCount: number): Dataset {
  const draw = clusteredDraws(dim);
  const vectors = Array.from({ length: n }, draw);
  const queries = Array.from({ length: queryCount }, draw);
  const truth = queries.map((q) => nearest(vectors, q, () => true));
  const filteredTruth = queries.map((q) => nearest(vectors, q, (i) => i % BUCKETS === FILTER_BUCKET));
  return { dim, vectors, queries, truth, filteredTruth };
}

/** A seeded source of unit vectors of `dim` dimensions around CLUSTERS random centres: the same
 *  sequence on every run. */
export function clusteredDraws(dim: number): () => number[] {
  const rng = new Xorshift(SEED);
  const centres = Array.from({ length: CLUSTERS }, () => Array.from({ length: dim }, () => gaussian(rng)));
  return () => unit(centres[rng.below(CLUSTERS)].map((c) => c + NOISE * gaussian(rng)));
}

/** Share of the exact top K found in `found` (ids). */
export function recall(found: readonly number[], exact: readonly number[]): number {
  const want = new Set(exact);
  return found.filter((id) => want.has(id)).length / exact.length;
}

function nearest(vectors: readonly number[][], q: readonly number[], keep: (i: number) => boolean): number[] {
  const best: { id: number; score: number }[] = [];
  for (let i = 0; i < vectors.length; i++) {
    if (!keep(i)) continue;
    const v = vectors[i];
    let score = 0;
    for (let d = 0; d < q.length; d++) score += v[d] * q[d];
    if (best.length === K && score <= best[K - 1].score) continue;
    let at = best.length === K ? K - 1 : best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { id: i, score });
    if (best.length > K) best.pop();
  }
  return best.map((b) => b.id);
}

function unit(v: number[]): number[] {
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** A standard normal draw (Box-Muller). */
function gaussian(rng: Xorshift): number {
  const u = (rng.below(2 ** 31) + 1) / (2 ** 31 + 1);
  const v = rng.below(2 ** 31) / 2 ** 31;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

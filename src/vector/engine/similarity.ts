// Scores as the service defines them, normalised to [0, 1] with 1 the most similar:
// COSINE (1 + cos) / 2, EUCLIDEAN 1 / (1 + d²), DOT_PRODUCT (1 + dot) / 2. Computed in
// float64 from the stored float32 components, so identical vectors score exactly 1 once the
// score is rounded to float32 for printing.

import type { Similarity, SparseVector } from './record.js';

export function denseScore(sim: Similarity, a: Float32Array, b: Float32Array): number {
  let dot = 0;
  if (sim === 'EUCLIDEAN') {
    for (let i = 0; i < a.length; i++) {
      const d = a[i] - b[i];
      dot += d * d;
    }
    return 1 / (1 + dot);
  }
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (sim === 'DOT_PRODUCT') return (1 + dot) / 2;
  const norm = Math.sqrt(na) * Math.sqrt(nb);
  return norm === 0 ? 0.5 : (1 + dot / norm) / 2;
}

/** Inner product over the dimensions both vectors have; `weight` scales each query dimension. */
export function sparseDot(q: SparseVector, v: SparseVector, weight?: (index: number) => number): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < q.indices.length && j < v.indices.length) {
    const a = q.indices[i];
    const b = v.indices[j];
    if (a === b) {
      sum += q.values[i] * v.values[j] * (weight === undefined ? 1 : weight(a));
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
  }
  return sum;
}

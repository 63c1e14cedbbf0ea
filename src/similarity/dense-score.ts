// Similarity scores as Upstash defines them (the vector service and the key-value store's
// VECTOR.* commands), normalised to [0, 1] with 1 the most similar:
// COSINE (1 + cos) / 2, EUCLIDEAN 1 / (1 + d²), DOT_PRODUCT (1 + dot) / 2. Computed in
// float64 from the stored float32 components, so identical vectors score exactly 1 once the
// score is rounded to float32 for printing.

/** How two vectors are compared. */
export type Similarity = 'COSINE' | 'EUCLIDEAN' | 'DOT_PRODUCT';

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

// Latency percentiles from histogram counts, as Prometheus's histogram_quantile estimates them:
// find the bucket holding the rank and interpolate linearly inside it.

/**
 * `bounds` are bucket upper bounds (seconds); `counts` has one count per bucket, not
 * cumulative, plus the +Inf bucket last. Returns seconds, or null when nothing was counted.
 */
export function quantile(q: number, bounds: readonly number[], counts: readonly number[]): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let b = 0; b < counts.length; b++) {
    if (below + counts[b] >= rank && counts[b] > 0) {
      // Past the last bound the estimate is that bound, as histogram_quantile answers.
      if (b >= bounds.length) return bounds[bounds.length - 1];
      const lower = b === 0 ? 0 : bounds[b - 1];
      return lower + (bounds[b] - lower) * ((rank - below) / counts[b]);
    }
    below += counts[b];
  }
  return bounds[bounds.length - 1];
}

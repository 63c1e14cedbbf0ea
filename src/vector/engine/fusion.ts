// Fusing a dense and a sparse result list into one ranking for hybrid queries.
//   RRF:  each list adds 1 / (60 + rank), rank counted from 0.
//   DBSF: each list's scores are normalised by their distribution, (s - (μ - 3σ)) / 6σ, and
//         summed. σ is the sample standard deviation (n - 1), as the service's answers show
//         (two scores always normalise to 0.5 ± √2/12); a list of one score, or of equal
//         scores, counts each as 0.5.

export type Fusion = 'RRF' | 'DBSF';

const RRF_K = 60;

export function fuse<T>(lists: readonly (readonly { item: T; key: string; score: number }[])[], how: Fusion): { item: T; score: number }[] {
  const total = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    const scale = how === 'DBSF' ? dbsfScale(list.map((x) => x.score)) : null;
    list.forEach((x, rank) => {
      const add = scale === null ? 1 / (RRF_K + rank) : scale(x.score);
      const entry = total.get(x.key);
      if (entry === undefined) total.set(x.key, { item: x.item, score: add });
      else entry.score += add;
    });
  }
  return [...total.values()].sort((a, b) => b.score - a.score);
}

function dbsfScale(scores: readonly number[]): (s: number) => number {
  if (scores.length < 2) return () => 0.5;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1));
  if (sd === 0) return () => 0.5;
  const low = mean - 3 * sd;
  return (s) => (s - low) / (6 * sd);
}

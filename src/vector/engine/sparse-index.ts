// An inverted index of one namespace's sparse vectors: for each dimension, the vectors with a
// non-zero value there. A query visits only the postings of its own dimensions and scores by
// exact inner product, optionally weighting each query dimension by its IDF,
// ln((N - n + 0.5) / (n + 0.5) + 1), with N the vectors indexed and n those having the dimension.
// The arithmetic is float32, as the service's: each query value is weighted, then multiplied
// and summed dimension by dimension in ascending order, every step rounded to float32; that
// is what reproduces its printed scores to the last digit.
// Not safe for concurrent use; the index's JS thread owns it.

import type { SparseVector } from './record.js';

export interface Scored {
  readonly label: number;
  readonly score: number;
}

export class SparseIndex {
  private readonly postings = new Map<number, Map<number, number>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(label: number, v: SparseVector): void {
    for (let i = 0; i < v.indices.length; i++) {
      let list = this.postings.get(v.indices[i]);
      if (list === undefined) this.postings.set(v.indices[i], (list = new Map()));
      list.set(label, v.values[i]);
    }
    this.count++;
  }

  remove(label: number, v: SparseVector): void {
    for (const index of v.indices) {
      const list = this.postings.get(index);
      if (list === undefined) continue;
      list.delete(label);
      if (list.size === 0) this.postings.delete(index);
    }
    this.count--;
  }

  idf(index: number): number {
    const n = this.postings.get(index)?.size ?? 0;
    return Math.log((this.count - n + 0.5) / (n + 0.5) + 1);
  }

  /** Every vector sharing a dimension with `q` that `accept` lets through, scored, best first. */
  search(q: SparseVector, idf: boolean, accept?: (label: number) => boolean): Scored[] {
    const scores = new Map<number, number>();
    for (let i = 0; i < q.indices.length; i++) {
      const list = this.postings.get(q.indices[i]);
      if (list === undefined) continue;
      const w = Math.fround(q.values[i] * (idf ? this.idf(q.indices[i]) : 1));
      for (const [label, value] of list) {
        if (accept !== undefined && !accept(label)) continue;
        scores.set(label, Math.fround((scores.get(label) ?? 0) + Math.fround(w * value)));
      }
    }
    return [...scores].map(([label, score]) => ({ label, score })).sort((a, b) => b.score - a.score || a.label - b.label);
  }
}

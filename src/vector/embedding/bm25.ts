// The built-in sparse embedding: BM25 term weights. Text is lower-cased and split into runs
// of letters and digits; each term maps to a dimension by its 32-bit FNV-1a hash.
// A document's term weighs tf·(k1+1) / (tf + k1·(1 - b + b·len/AVG_LEN)), with the usual
// k1 = 1.2 and b = 0.75 and a fixed average length, so a document's weights never change as
// others arrive; a query's terms weigh 1 each, and the IDF part of BM25 comes from the query
// weighting (IDF over the namespace's documents), applied by default to BM25 queries.

import type { SparseVector } from '../engine/record.js';

const K1 = 1.2;
const B = 0.75;
const AVG_LEN = 32;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(s, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function sparse(weights: Map<number, number>): SparseVector {
  const entries = [...weights].sort((a, b) => a[0] - b[0]);
  return { indices: Uint32Array.from(entries, (e) => e[0]), values: Float32Array.from(entries, (e) => e[1]) };
}

export function bm25Document(text: string): SparseVector {
  const words = terms(text);
  const tf = new Map<number, number>();
  for (const w of words) {
    const h = fnv1a(w);
    tf.set(h, (tf.get(h) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * words.length) / AVG_LEN);
  return sparse(new Map([...tf].map(([h, f]) => [h, (f * (K1 + 1)) / (f + norm)])));
}

export function bm25Query(text: string): SparseVector {
  return sparse(new Map(terms(text).map((w) => [fnv1a(w), 1])));
}

// A key holding a vector index (Upstash's VECTOR.* extension): float32 vectors of one dimension
// under byte-string ids, compared by one metric, both fixed at VECTOR.CREATE. A query scores
// every vector, so its answer is the exact nearest neighbours (the hosted index is
// approximate: exact never recalls less). Serialized (DUMP, snapshots) as the dimension and
// metric, then each id with its components.
// Not safe for concurrent use, and needs none.

import { denseScore, type Similarity } from '../../../similarity/dense-score.js';
import { ROBJ, sdsSize } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';

export type VectorMetric = 'COSINE' | 'EUCLIDEAN' | 'DOT';

export const VECTOR_METRICS: readonly VectorMetric[] = ['COSINE', 'EUCLIDEAN', 'DOT'];

const SIMILARITY: Record<VectorMetric, Similarity> = { COSINE: 'COSINE', EUCLIDEAN: 'EUCLIDEAN', DOT: 'DOT_PRODUCT' };

export interface VectorHit {
  readonly id: string;
  readonly score: number;
}

export class VectorIndexValue implements Container {
  readonly vectors = new Map<string, Float32Array>();

  constructor(
    readonly dimension: number,
    readonly metric: VectorMetric,
  ) {}

  get kind(): ContainerKind {
    return VECTOR_INDEX_KIND;
  }

  /** The `k` best scores for `query`, best first; equal scores by id. */
  nearest(query: Float32Array, k: number): VectorHit[] {
    const similarity = SIMILARITY[this.metric];
    const hits: VectorHit[] = [];
    for (const [id, v] of this.vectors) hits.push({ id, score: denseScore(similarity, query, v) });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.length > k ? hits.slice(0, k) : hits;
  }
}

/** "dimension metric count\n", then per vector its id's length, ':', the id and its components' float32 bytes. */
function encode(v: VectorIndexValue): string {
  const parts = [`${v.dimension} ${v.metric} ${v.vectors.size}\n`];
  for (const [id, vector] of v.vectors) {
    parts.push(`${id.length}:`, id, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('latin1'));
  }
  return parts.join('');
}

function decode(bytes: string): VectorIndexValue | null {
  const header = /^(\d+) (COSINE|EUCLIDEAN|DOT) (\d+)\n/.exec(bytes);
  if (header === null) return null;
  const value = new VectorIndexValue(Number(header[1]), header[2] as VectorMetric);
  const width = value.dimension * 4;
  let at = header[0].length;
  for (let left = Number(header[3]); left > 0; left--) {
    const colon = bytes.indexOf(':', at);
    const idLength = Number(bytes.slice(at, colon));
    if (colon === -1 || !Number.isSafeInteger(idLength)) return null;
    const id = bytes.slice(colon + 1, colon + 1 + idLength);
    const components = Buffer.from(bytes.slice(colon + 1 + idLength, colon + 1 + idLength + width), 'latin1');
    if (id.length !== idLength || components.length !== width) return null;
    value.vectors.set(id, new Float32Array(components.buffer.slice(components.byteOffset, components.byteOffset + width)));
    at = colon + 1 + idLength + width;
  }
  return at === bytes.length ? value : null;
}

export const VECTOR_INDEX_KIND: ContainerKind = registerKind({
  type: 'vector',
  tag: 7,
  clone(v) {
    const source = v as VectorIndexValue;
    const copy = new VectorIndexValue(source.dimension, source.metric);
    for (const [id, vector] of source.vectors) copy.vectors.set(id, vector.slice());
    return copy;
  },
  encode: (v) => encode(v as VectorIndexValue),
  decode,
  encoding: () => 'raw',
  // Redis 7.0 has no such type: each vector counts as a string of its id and one of its bytes.
  memoryUsage(v) {
    const index = v as VectorIndexValue;
    let bytes = ROBJ;
    for (const id of index.vectors.keys()) bytes += sdsSize(id.length) + sdsSize(index.dimension * 4);
    return bytes;
  },
});

// Turning `data` text into vectors for the *-data endpoints, from an index's configured
// models: a dense one (openai.ts) and/or BM25 (bm25.ts). An index with neither has no
// Embedder, and those endpoints answer the service's 422.

import type { VectorIndexConfig } from '../../config/schema.js';
import { NO_EMBEDDING_MODEL, VectorError } from '../errors.js';
import type { IndexType, SparseVector } from '../engine/record.js';
import { bm25Document, bm25Query } from './bm25.js';
import { embedOpenAi } from './openai.js';

export interface Embedded {
  readonly vectors: (Float32Array | null)[];
  readonly sparse: (SparseVector | null)[];
}

export interface Embedder {
  /** The model names `info` reports. */
  readonly denseModel: string | null;
  readonly sparseModel: string | null;
  /** Embeds texts as documents (upsert) or queries; the index type says which parts it needs. */
  embed(texts: readonly string[], role: 'document' | 'query'): Promise<Embedded | VectorError>;
}

export function embedderFor(config: VectorIndexConfig): Embedder | null {
  const dense = config.embedding;
  const bm25 = config.sparseEmbedding === 'BM25';
  if (dense === undefined && !bm25) return null;
  const type: IndexType = config.type;
  const needDense = type !== 'SPARSE';
  const needSparse = type !== 'DENSE';
  return {
    denseModel: dense?.model ?? null,
    sparseModel: bm25 ? 'BM25' : null,
    async embed(texts, role) {
      if ((needDense && dense === undefined) || (needSparse && !bm25)) return NO_EMBEDDING_MODEL;
      let vectors: (Float32Array | null)[] = texts.map(() => null);
      if (needDense) {
        const got = await embedOpenAi(dense!, texts);
        if (got instanceof VectorError) return got;
        vectors = got;
      }
      const sparse = texts.map((t) => (needSparse ? (role === 'document' ? bm25Document(t) : bm25Query(t)) : null));
      return { vectors, sparse };
    },
  };
}

// How stored vectors appear in answers: only the fields asked for, numbers as float32
// shortest decimals, ids as strings.

import type { VectorRecord } from '../engine/record.js';
import { float32, float32s } from './float32.js';
import { readBool, type Json } from './request-body.js';
import { VectorError } from '../errors.js';

export interface Include {
  readonly vectors: boolean;
  readonly metadata: boolean;
  readonly data: boolean;
}

export const INCLUDE_VECTORS: Include = { vectors: true, metadata: false, data: false };

/** The include* flags of a request body. */
export function readInclude(body: Json): Include | VectorError {
  const vectors = readBool(body.includeVectors, 'includeVectors');
  if (vectors instanceof VectorError) return vectors;
  const metadata = readBool(body.includeMetadata, 'includeMetadata');
  if (metadata instanceof VectorError) return metadata;
  const data = readBool(body.includeData, 'includeData');
  if (data instanceof VectorError) return data;
  return { vectors, metadata, data };
}

export function vectorJson(r: VectorRecord, include: Include, score?: number): Json {
  const out: Json = { id: r.id };
  if (score !== undefined) out.score = float32(score);
  if (include.vectors && r.vector !== null) out.vector = float32s(r.vector);
  if (include.vectors && r.sparse !== null) out.sparseVector = { indices: Array.from(r.sparse.indices), values: float32s(r.sparse.values) };
  if (include.metadata && r.metadata !== undefined) out.metadata = r.metadata;
  if (include.data && r.data !== undefined) out.data = r.data;
  return out;
}

// Reading the JSON fields of a request body into engine values. Every reader returns the
// value or a VectorError; callers check with `instanceof VectorError`. The one place request
// shapes are validated, so every endpoint words its complaints alike.

import { badRequest, VectorError } from '../errors.js';
import type { SparseVector, VectorData } from '../engine/record.js';

export type Json = Record<string, unknown>;

/** The most dimensions a sparse vector may have, as the service documents. */
const SPARSE_MAX_DIMENSIONS = 1000;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Ids may be strings or numbers; numbers come back as strings. */
export function readId(v: unknown, what = 'id'): string | VectorError {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return badRequest(`${what} must be a string or a number`);
}

export function readIds(v: unknown): string[] | VectorError {
  if (!Array.isArray(v)) return badRequest('ids must be an array of strings or numbers');
  const out: string[] = [];
  for (const x of v) {
    const id = readId(x);
    if (id instanceof VectorError) return id;
    out.push(id);
  }
  return out;
}

/**
 * Whether `x` is a number a vector may hold: finite once stored as a 32-bit float. 1e39 is a
 * finite double but an infinite float32, which was stored as such: fetch then printed it as
 * null and every score against it was NaN (null).
 */
function isFloat32(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(Math.fround(x));
}

export function readDense(v: unknown): Float32Array | VectorError {
  if (!Array.isArray(v) || !v.every(isFloat32)) return badRequest('vector must be an array of numbers');
  return Float32Array.from(v as number[]);
}

/**
 * A sparse vector with its indices sorted. A repeated index holds the sum of its values: a
 * sparse vector is the sum of its (index, value) entries, so inner products come out the same
 * whether the entries are merged first or not (docs/vector.md).
 */
export function readSparse(v: unknown): SparseVector | VectorError {
  if (!isObject(v) || !Array.isArray(v.indices) || !Array.isArray(v.values) || v.indices.length !== v.values.length) {
    return badRequest('sparseVector must have indices and values arrays of the same length');
  }
  const sums = new Map<number, number>();
  for (let i = 0; i < v.indices.length; i++) {
    const index = v.indices[i];
    const value = v.values[i];
    if (!Number.isInteger(index) || index < 0 || index > 0xffffffff) return badRequest('sparseVector indices must be non-negative integers');
    if (!isFloat32(value)) return badRequest('sparseVector values must be numbers');
    const sum = (sums.get(index) ?? 0) + value;
    if (!isFloat32(sum)) return badRequest('sparseVector values must be numbers');
    sums.set(index, sum);
  }
  if (sums.size > SPARSE_MAX_DIMENSIONS) return badRequest(`sparseVector must have at most ${SPARSE_MAX_DIMENSIONS} dimensions`);
  const indices = Uint32Array.from(sums.keys()).sort();
  return { indices, values: Float32Array.from(indices, (i) => sums.get(i)!) };
}

export function readMetadata(v: unknown): Record<string, unknown> | undefined | VectorError {
  if (v === undefined || v === null) return undefined;
  return isObject(v) ? v : badRequest('metadata must be an object');
}

/** One vector of an upsert: id, vector and/or sparseVector, metadata, data. */
export function readVectorData(v: unknown): VectorData | VectorError {
  if (!isObject(v)) return badRequest('each vector must be an object');
  const id = readId(v.id);
  if (id instanceof VectorError) return id;
  // The service's FAQ: an id is required and cannot be an empty string.
  if (id === '') return badRequest('id must not be empty');
  const vector = v.vector === undefined ? null : readDense(v.vector);
  if (vector instanceof VectorError) return vector;
  const sparse = v.sparseVector === undefined ? null : readSparse(v.sparseVector);
  if (sparse instanceof VectorError) return sparse;
  const metadata = readMetadata(v.metadata);
  if (metadata instanceof VectorError) return metadata;
  if (v.data !== undefined && typeof v.data !== 'string') return badRequest('data must be a string');
  return { id, vector, sparse, metadata, data: v.data as string | undefined };
}

export function readBool(v: unknown, name: string): boolean | VectorError {
  if (v === undefined || v === null) return false;
  return typeof v === 'boolean' ? v : badRequest(`${name} must be a boolean`);
}

export function readCount(v: unknown, name: string, fallback: number): number | VectorError {
  if (v === undefined || v === null) return fallback;
  return Number.isInteger(v) && (v as number) >= 0 ? (v as number) : badRequest(`${name} must be a non-negative integer`);
}

export function readString(v: unknown, name: string): string | undefined | VectorError {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : badRequest(`${name} must be a string`);
}

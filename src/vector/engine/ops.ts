// The writes an index logs, one per request, and their encoding. Each is deterministic, so
// replaying the log rebuilds the same index: an update is logged as the upsert of the whole
// resulting record, a delete by prefix or filter as the ids it deleted.
//
// Encoding: one frame payload is the op as UTF-8 JSON; dense vectors and sparse values are
// base64 of little-endian float32, sparse indices base64 of little-endian uint32, so a
// float32 survives exactly.

import type { VectorData } from './record.js';

export type Op =
  | { readonly op: 'dimension'; readonly dimension: number }
  /** Creates a namespace; from a snapshot, with the label its next record gets. */
  | { readonly op: 'namespace'; readonly ns: string; readonly next?: number }
  | { readonly op: 'upsert'; readonly ns: string; readonly records: readonly VectorData[] }
  | { readonly op: 'delete'; readonly ns: string; readonly ids: readonly string[] }
  /** Empties one namespace, or all of them when `ns` is null. */
  | { readonly op: 'reset'; readonly ns: string | null }
  | { readonly op: 'drop'; readonly ns: string }
  /** Renames `ns` to `to`, dropping a namespace already called `to`. */
  | { readonly op: 'rename'; readonly ns: string; readonly to: string };

interface EncodedRecord {
  id: string;
  v?: string;
  si?: string;
  sv?: string;
  m?: Record<string, unknown>;
  d?: string;
  l?: number;
}

const b64 = (a: Float32Array | Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function floats(s: string): Float32Array {
  const buf = Buffer.from(s, 'base64');
  const out = new Float32Array(buf.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

function uints(s: string): Uint32Array {
  const buf = Buffer.from(s, 'base64');
  const out = new Uint32Array(buf.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = buf.readUInt32LE(i * 4);
  return out;
}

function encodeRecord(r: VectorData): EncodedRecord {
  const e: EncodedRecord = { id: r.id };
  if (r.vector !== null) e.v = b64(r.vector);
  if (r.sparse !== null) {
    e.si = b64(r.sparse.indices);
    e.sv = b64(r.sparse.values);
  }
  if (r.metadata !== undefined) e.m = r.metadata;
  if (r.data !== undefined) e.d = r.data;
  if (r.label !== undefined) e.l = r.label;
  return e;
}

function decodeRecord(e: EncodedRecord): VectorData {
  return {
    id: e.id,
    vector: e.v === undefined ? null : floats(e.v),
    sparse: e.si === undefined || e.sv === undefined ? null : { indices: uints(e.si), values: floats(e.sv) },
    metadata: e.m,
    data: e.d,
    label: e.l,
  };
}

export function encodeOp(op: Op): Buffer {
  const json = op.op === 'upsert' ? { ...op, records: op.records.map(encodeRecord) } : op;
  return Buffer.from(JSON.stringify(json));
}

/** Decodes a payload written by encodeOp; throws on anything else. */
export function decodeOp(payload: Buffer): Op {
  const op = JSON.parse(payload.toString('utf8')) as { op?: unknown; records?: EncodedRecord[] };
  if (op.op === 'upsert') return { ...(op as unknown as { ns: string }), op: 'upsert', records: op.records!.map(decodeRecord) };
  if (typeof op.op !== 'string') throw new Error('a frame holds no op');
  return op as Op;
}

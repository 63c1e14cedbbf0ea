// The payload of one frame in a partition segment (frames: storage/frames.ts):
//   [u32 offset lo][u32 offset hi][u32 timestamp lo][u32 timestamp hi]
//   [i32 key length, -1 for none][key][u32 value length][value]
//   [u32 header count] then per header [u32 length][key][u32 length][value]
// Text is UTF-8. The offset is stored so recovery can check the log is dense.

import type { Header } from '../backend.js';

export interface StoredRecord {
  offset: number;
  timestamp: number;
  key: string | null;
  value: string;
  headers: Header[];
}

const TWO32 = 2 ** 32;

/** `r` at `offset`, its text written straight into the payload (no Buffer per string). */
export function encodeRecord(r: Omit<StoredRecord, 'offset'>, offset: number): Buffer {
  const keyBytes = r.key === null ? 0 : Buffer.byteLength(r.key, 'utf8');
  let size = 16 + 4 + keyBytes + 4 + Buffer.byteLength(r.value, 'utf8') + 4;
  for (const h of r.headers) size += 8 + Buffer.byteLength(h.key, 'utf8') + Buffer.byteLength(h.value, 'utf8');
  const out = Buffer.allocUnsafe(size);
  let at = writeU64(out, 0, offset);
  at = writeU64(out, at, r.timestamp);
  at = out.writeInt32LE(r.key === null ? -1 : keyBytes, at);
  if (r.key !== null) at += out.write(r.key, at, 'utf8');
  at = writeText(out, at, r.value);
  at = out.writeUInt32LE(r.headers.length, at);
  for (const h of r.headers) at = writeText(out, writeText(out, at, h.key), h.value);
  return out;
}

/** [u32 byte length][UTF-8 bytes] of `text` at `at`; the position after it. */
function writeText(out: Buffer, at: number, text: string): number {
  const length = out.write(text, at + 4, 'utf8');
  out.writeUInt32LE(length, at);
  return at + 4 + length;
}

/** Throws RangeError on a payload too short for what it declares (a bug: frames are checksummed). */
export function decodeRecord(b: Buffer): StoredRecord {
  const offset = readU64(b, 0);
  const timestamp = readU64(b, 8);
  let at = 16;
  const keyLen = b.readInt32LE(at);
  at += 4;
  let key: string | null = null;
  if (keyLen >= 0) {
    key = b.toString('utf8', at, at + keyLen);
    at += keyLen;
  }
  const valueLen = b.readUInt32LE(at);
  at += 4;
  const value = b.toString('utf8', at, at + valueLen);
  at += valueLen;
  const count = b.readUInt32LE(at);
  at += 4;
  const headers: Header[] = [];
  for (let i = 0; i < count; i++) {
    const kl = b.readUInt32LE(at);
    const k = b.toString('utf8', at + 4, at + 4 + kl);
    at += 4 + kl;
    const vl = b.readUInt32LE(at);
    headers.push({ key: k, value: b.toString('utf8', at + 4, at + 4 + vl) });
    at += 4 + vl;
  }
  if (at > b.length) throw new RangeError('record payload shorter than it declares');
  return { offset, timestamp, key, value, headers };
}

/** Just the offset and timestamp, for recovery and indexes, without decoding the rest. */
export function recordHead(b: Buffer): { offset: number; timestamp: number } {
  return { offset: readU64(b, 0), timestamp: readU64(b, 8) };
}

function writeU64(b: Buffer, at: number, n: number): number {
  b.writeUInt32LE(n % TWO32, at);
  return b.writeUInt32LE(Math.floor(n / TWO32), at + 4);
}

function readU64(b: Buffer, at: number): number {
  return b.readUInt32LE(at) + b.readUInt32LE(at + 4) * TWO32;
}

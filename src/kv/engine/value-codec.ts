// The serialized form of one value, shared by DUMP/RESTORE and snapshots:
//   [u8 tag][payload][u16 format version][u32 crc32 of everything before]
// as a byte string. The payload is the raw bytes for strings, else the kind's own encoding.

import { crc32 } from '../../storage/crc32.js';
import { asStringValue } from './editable-string.js';
import { kindByTag, STRING_TAG, type Value } from './value.js';

const FORMAT_VERSION = 1;

export function encodeValue(v: Value): string {
  const body =
    typeof v === 'string' ? String.fromCharCode(STRING_TAG) + v : String.fromCharCode(v.kind.tag) + v.kind.encode(v);
  const versioned = body + String.fromCharCode(FORMAT_VERSION & 0xff, FORMAT_VERSION >>> 8);
  return versioned + u32(crc32(Buffer.from(versioned, 'latin1')));
}

/**
 * encodeValue's bytes in a Buffer, after `reserve` bytes left for the caller (a snapshot entry's
 * key and expiry): at the start of `scratch` when it has room (a view of it, valid until the
 * caller writes there again), else in a buffer of its own. A string value (either form) is
 * written straight in, with no string built on the way: a snapshot encodes millions of them,
 * and every copy is garbage to collect while serving.
 */
export function encodeValueAfter(v: Value, reserve: number, scratch?: Buffer): Buffer {
  const s = asStringValue(v);
  if (s === undefined) {
    const encoded = encodeValue(v);
    const out = room(reserve + encoded.length, scratch);
    out.write(encoded, reserve, 'latin1');
    return out;
  }
  const out = room(reserve + 1 + s.length + 6, scratch);
  out[reserve] = STRING_TAG;
  if (typeof s === 'string') out.write(s, reserve + 1, 'latin1');
  else out.set(s.bytes(), reserve + 1);
  const versionAt = reserve + 1 + s.length;
  out.writeUInt16LE(FORMAT_VERSION, versionAt);
  out.writeUInt32LE(crc32(out, reserve, versionAt + 2), versionAt + 2);
  return out;
}

function room(bytes: number, scratch: Buffer | undefined): Buffer {
  return scratch !== undefined && bytes <= scratch.length ? scratch.subarray(0, bytes) : Buffer.allocUnsafe(bytes);
}

/** The value in a payload, or null when it is truncated, corrupt or of an unknown version. */
export function decodeValue(payload: string): Value | null {
  if (payload.length < 7) return null;
  const versioned = payload.slice(0, -4);
  if (readU32(payload, payload.length - 4) !== crc32(Buffer.from(versioned, 'latin1'))) return null;
  const version = versioned.charCodeAt(versioned.length - 2) | (versioned.charCodeAt(versioned.length - 1) << 8);
  if (version !== FORMAT_VERSION) return null;
  const tag = versioned.charCodeAt(0);
  const body = versioned.slice(1, -2);
  if (tag === STRING_TAG) return body;
  return kindByTag(tag)?.decode(body) ?? null;
}

function u32(n: number): string {
  return String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

function readU32(s: string, at: number): number {
  return (s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8) | (s.charCodeAt(at + 2) << 16) | (s.charCodeAt(at + 3) << 24)) >>> 0;
}

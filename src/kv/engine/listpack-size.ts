// How many bytes Redis's listpack encoding (listpack.c) takes for its elements. Streams use it
// for node boundaries: Redis starts a new node once the current one would pass
// stream-node-max-bytes (streamAppendItem in t_stream.c). MEMORY USAGE uses it for every
// listpack Redis 7.0 would allocate (small hashes and sorted sets, list nodes). Only sizes are
// computed; nothing is encoded.

import { parseInt64 } from './int64.js';

/** Redis's stream-node-max-bytes default. */
export const NODE_MAX_BYTES = 4096;
/** A listpack's header (total bytes, element count) and end byte. */
export const LISTPACK_OVERHEAD = 7;

/** An element's encoding and data, plus its back-length. */
function withBacklen(n: number): number {
  return n + (n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : n < 268435456 ? 4 : 5);
}

/** An integer element. */
export function intSize(v: bigint): number {
  let n: number;
  if (v >= 0n && v <= 127n) n = 1;
  else if (v >= -4096n && v <= 4095n) n = 2;
  else if (v >= -32768n && v <= 32767n) n = 3;
  else if (v >= -8388608n && v <= 8388607n) n = 4;
  else if (v >= -2147483648n && v <= 2147483647n) n = 5;
  else n = 9;
  return withBacklen(n);
}

/** A string element: stored as an integer when it reads as one (lpStringToInt64). */
export function stringSize(s: string): number {
  const asInt = s.length > 0 && s.length <= 20 ? parseInt64(s) : undefined;
  if (asInt !== undefined) return intSize(asInt);
  const len = s.length;
  return withBacklen(len < 64 ? 1 + len : len < 4096 ? 2 + len : 5 + len);
}

/** Two's-complement wrap of a 64-bit difference, as lpAppendInteger stores an unsigned delta. */
export function int64Of(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

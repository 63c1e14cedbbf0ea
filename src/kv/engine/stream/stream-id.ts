// Stream entry ids: 64-bit milliseconds and a 64-bit sequence, held as one bigint
// (ms << 64 | seq) so ids compare with < and sort as Redis's 128-bit big-endian keys do.

export type StreamId = bigint;

export const U64_MAX = (1n << 64n) - 1n;
export const MIN_ID: StreamId = 0n;
export const MAX_ID: StreamId = (1n << 128n) - 1n;

export function makeId(ms: bigint, seq: bigint): StreamId {
  return (ms << 64n) | seq;
}

export function msOf(id: StreamId): bigint {
  return id >> 64n;
}

export function seqOf(id: StreamId): bigint {
  return id & U64_MAX;
}

/** "<ms>-<seq>", as Redis prints an id. */
export function formatId(id: StreamId): string {
  return `${id >> 64n}-${id & U64_MAX}`;
}

/** Ids are stored as 16 big-endian bytes (DUMP payloads, snapshots). */
export function idBytes(id: StreamId): string {
  let out = '';
  for (let shift = 120n; shift >= 0n; shift -= 8n) out += String.fromCharCode(Number((id >> shift) & 0xffn));
  return out;
}

export function idFromBytes(s: string, at: number): StreamId {
  let id = 0n;
  for (let i = 0; i < 16; i++) id = (id << 8n) | BigInt(s.charCodeAt(at + i));
  return id;
}

/**
 * Redis's string2ull: string2ll when that reads it (negative values refused), else C's
 * strtoull, which also takes leading spaces, a sign (negating modulo 2^64) and leading zeros.
 * Stops at a NUL as the C string functions do.
 */
export function parseU64(text: string): bigint | undefined {
  const nul = text.indexOf('\x00');
  const s = nul === -1 ? text : text.slice(0, nul);
  if (/^-?[1-9][0-9]{0,18}$|^0$/.test(s)) {
    const n = BigInt(s);
    if (n <= 9223372036854775807n && n >= -9223372036854775808n) return n < 0n ? undefined : n;
  }
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/.exec(s);
  if (m === null) return undefined;
  const n = BigInt(m[2]);
  if (n > U64_MAX) return undefined;
  return m[1] === '-' ? (U64_MAX + 1n - n) & U64_MAX : n;
}

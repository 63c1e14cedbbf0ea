// Redis's HyperLogLog string format (hyperloglog.c), byte for byte, so a GET of the key answers
// what Redis would and a Redis HLL can be SET into Larder:
//
//   +------+---+-----+----------+-----------------------------------+
//   | HYLL | E | N/U | Cardin.  | registers                         |
//   +------+---+-----+----------+-----------------------------------+
//     4      1    3      8         dense: 16384 6-bit registers, 12288 bytes
//                                  sparse: ZERO/XZERO/VAL opcodes (sparse.ts)
//
// E is the encoding (0 dense, 1 sparse); N/U are unused. Cardin. is the cached estimate, a
// little-endian uint64 whose top bit set means stale: writes set it, PFCOUNT recomputes it.

export const HEADER = 16;
export const REGISTERS = 16384;
export const DENSE = 0;
export const SPARSE = 1;
export const DENSE_SIZE = HEADER + (REGISTERS * 6) / 8;
/** hll-sparse-max-bytes: a sparse HLL that would grow past this becomes dense. */
export const SPARSE_MAX_BYTES = 3000;

/** An HLL being changed in place: bytes [0, len). Sparse ones keep room to grow. */
export interface HllBuf {
  bytes: Uint8Array;
  len: number;
}

/** Redis isHLLObjectOrReply: magic, a known encoding, and the exact size when dense. */
export function isHll(v: string): boolean {
  if (v.length < HEADER || !v.startsWith('HYLL')) return false;
  const encoding = v.charCodeAt(4);
  return encoding === SPARSE || (encoding === DENSE && v.length === DENSE_SIZE);
}

export function isDense(v: string): boolean {
  return v.charCodeAt(4) === DENSE;
}

/** A new HLL (Redis createHLLObject): sparse, one XZERO of 16384 registers, estimate 0. */
export const EMPTY_HLL = 'HYLL\x01' + '\0'.repeat(11) + '\x7f\xff';

/** The cached estimate, or undefined when stale. */
export function cachedCount(v: string): number | bigint | undefined {
  if (v.charCodeAt(15) & 0x80) return undefined;
  let lo = 0;
  let hi = 0;
  for (let i = 3; i >= 0; i--) {
    lo = lo * 256 + v.charCodeAt(8 + i);
    hi = hi * 256 + v.charCodeAt(12 + i);
  }
  return hi < 0x200000 ? hi * 0x100000000 + lo : (BigInt(hi) << 32n) | BigInt(lo);
}

/** `v` with `count` cached in its header. */
export function withCount(v: string, count: number): string {
  let bytes = '';
  for (let i = 0; i < 8; i++) {
    bytes += String.fromCharCode(count % 256);
    count = Math.floor(count / 256);
  }
  return v.slice(0, 8) + bytes + v.slice(HEADER);
}

/** `v` with its cached estimate marked stale. */
export function staleCount(v: string): string {
  const top = v.charCodeAt(15);
  return top & 0x80 ? v : v.slice(0, 15) + String.fromCharCode(top | 0x80) + v.slice(HEADER);
}

/** A working copy of `v`; a sparse one gets room to reach SPARSE_MAX_BYTES in place. */
export function toBuf(v: string): HllBuf {
  const capacity = isDense(v) ? v.length : Math.max(v.length, SPARSE_MAX_BYTES) + 8;
  const bytes = Buffer.alloc(capacity);
  bytes.write(v, 0, 'latin1');
  return { bytes, len: v.length };
}

export function fromBuf(h: HllBuf): string {
  return Buffer.from(h.bytes.buffer, h.bytes.byteOffset, h.len).toString('latin1');
}

export function markStale(h: HllBuf): void {
  h.bytes[15] |= 0x80;
}

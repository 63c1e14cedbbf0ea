// Bit-level reads of a string's bytes, as Redis bitops.c numbers bits: bit 0 is the most
// significant bit of the first byte. They read the bytes in place, so GETBIT, BITCOUNT and
// BITPOS never copy a string edited in place (editable-string.ts).

const POPCOUNT = new Uint8Array(256);
for (let i = 1; i < 256; i++) POPCOUNT[i] = (i & 1) + POPCOUNT[i >> 1];

/** The bit at `offset`; 0 past the end. */
export function bitAt(p: Uint8Array, offset: number): number {
  const byte = Math.floor(offset / 8);
  return byte < p.length ? (p[byte] >> (7 - (offset % 8))) & 1 : 0;
}

/** Bits set in bits `first`..`last` of `p`, both within it (first <= last). */
export function countBits(p: Uint8Array, first: number, last: number): number {
  const from = Math.floor(first / 8);
  const to = Math.floor(last / 8);
  let n = 0;
  for (let i = from; i <= to; i++) n += POPCOUNT[p[i]];
  // Take back the bits of the edge bytes that lie outside the range.
  n -= POPCOUNT[p[from] & ~(0xff >> first % 8) & 0xff];
  n -= POPCOUNT[p[to] & (0xff >> ((last % 8) + 1))];
  return n;
}

/**
 * The first bit equal to `bit` in bits `first`..`last` of `p`, both within it (first <= last);
 * -1 when there is none.
 */
export function findBit(p: Uint8Array, bit: 0 | 1, first: number, last: number): number {
  const from = Math.floor(first / 8);
  const to = Math.floor(last / 8);
  const flip = bit === 1 ? 0 : 0xff; // look for set bits in byte ^ flip
  for (let i = from; i <= to; i++) {
    let b = p[i] ^ flip;
    if (i === from) b &= 0xff >> first % 8;
    if (i === to) b &= (0xff << (7 - (last % 8))) & 0xff;
    if (b !== 0) return i * 8 + Math.clz32(b) - 24;
  }
  return -1;
}

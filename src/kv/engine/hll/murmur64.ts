// MurmurHash64A, the 64-bit MurmurHash2 Redis hashes HyperLogLog elements with (hyperloglog.c),
// little-endian, with Redis's seed. 64-bit words are kept as two unsigned 32-bit halves, so no
// bigint is allocated per element.

const M_HI = 0xc6a4a793;
const M_LO = 0x5bd1e995;
const SEED = 0xadc83b19;

// Module state, as uint32 halves: the hash being built (h) and the result of the last step (m).
// Safe because hashing is synchronous; it spares an allocation per step.
let hHi = 0;
let hLo = 0;
let mHi = 0;
let mLo = 0;

/** (hi, lo) * M mod 2^64, into mHi/mLo. */
function timesM(hi: number, lo: number): void {
  const a0 = lo & 0xffff;
  const a1 = lo >>> 16;
  const b0 = M_LO & 0xffff;
  const b1 = M_LO >>> 16;
  const mid = a0 * b1 + a1 * b0; // < 2^33, exact
  const low = a0 * b0 + (mid % 0x10000) * 0x10000; // < 2^33, exact
  mLo = low >>> 0;
  const carry = Math.floor(low / 0x100000000);
  mHi = (a1 * b1 + Math.floor(mid / 0x10000) + carry + Math.imul(hi, M_LO) + Math.imul(lo, M_HI)) >>> 0;
}

/** (hi, lo) ^ (hi, lo) >> 47, into mHi/mLo: only the high half's top 17 bits move. */
function shiftXor(hi: number, lo: number): void {
  mHi = hi;
  mLo = (lo ^ (hi >>> 15)) >>> 0;
}

/** Redis's MurmurHash64A(s, len, 0xadc83b19), left in hHi/hLo. */
function murmur64(s: string): void {
  const len = s.length;
  timesM(0, len);
  hHi = mHi;
  hLo = (mLo ^ SEED) >>> 0;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    const kLo = (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24)) >>> 0;
    const kHi = (s.charCodeAt(i + 4) | (s.charCodeAt(i + 5) << 8) | (s.charCodeAt(i + 6) << 16) | (s.charCodeAt(i + 7) << 24)) >>> 0;
    timesM(kHi, kLo);
    shiftXor(mHi, mLo);
    timesM(mHi, mLo);
    timesM((hHi ^ mHi) >>> 0, (hLo ^ mLo) >>> 0);
    hHi = mHi;
    hLo = mLo;
  }
  const tail = len & 7;
  if (tail > 0) {
    for (let j = tail - 1; j >= 0; j--) {
      const b = s.charCodeAt(blocks + j);
      if (j >= 4) hHi = (hHi ^ (b << ((j - 4) * 8))) >>> 0;
      else hLo = (hLo ^ (b << (j * 8))) >>> 0;
    }
    timesM(hHi, hLo);
    hHi = mHi;
    hLo = mLo;
  }
  shiftXor(hHi, hLo);
  timesM(mHi, mLo);
  shiftXor(mHi, mLo);
  hHi = mHi;
  hLo = mLo;
}

/** Trailing zero bits of a non-zero uint32. */
const ctz = (x: number) => 31 - Math.clz32(x & -x);

/**
 * Where an element lands (Redis hllPatLen): the register, the hash's low 14 bits, and the
 * length of the run of zeros ending in a 1 in the other 50 bits (1..51), packed as
 * register * 64 + run.
 */
export function hllPattern(element: string): number {
  murmur64(element);
  const index = hLo & 0x3fff;
  const low = hLo >>> 14;
  const run = low !== 0 ? ctz(low) + 1 : hHi !== 0 ? 18 + ctz(hHi) + 1 : 51;
  return index * 64 + run;
}

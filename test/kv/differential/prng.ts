// A small seeded PRNG (mulberry32) so a differential run can be replayed from its seed alone.

const DOUBLE_BITS = new DataView(new ArrayBuffer(8));

export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A double of any sign and magnitude from 64 random bits (NaN and the infinities among them). */
  double(): number {
    DOUBLE_BITS.setUint32(0, this.int(0, 0xffffffff));
    DOUBLE_BITS.setUint32(4, this.int(0, 0xffffffff));
    return DOUBLE_BITS.getFloat64(0);
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `n` items drawn with repetition. */
  some<T>(items: readonly T[], n: number): T[] {
    return Array.from({ length: n }, () => this.pick(items));
  }

  /** The items in a random order. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

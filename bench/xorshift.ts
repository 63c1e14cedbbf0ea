// A seeded xorshift32 so that the families workload draws the same members and offsets on
// every run. bench/ does not import test code, hence not test/kv/differential/prng.ts.

export class Xorshift {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1; // zero is xorshift's one fixed point
  }

  /** An integer in [0, n). */
  below(n: number): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return Math.floor((this.state / 4294967296) * n);
  }
}

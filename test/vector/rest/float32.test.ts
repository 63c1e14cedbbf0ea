import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { float32 } from '../../../src/vector/rest/float32.js';
import { Rng } from '../../kv/differential/prng.js';

describe('vector float32 printing', () => {
  it('prints the shortest decimal that reads back as the same float32', () => {
    assert.equal(JSON.stringify([0.1, 0.2, 0.3, 1 / 3, 1e-8, 123456789, -2.5].map(float32)), '[0.1,0.2,0.3,0.33333334,1e-8,123456790,-2.5]');
    for (const x of [Math.PI, 1e30, 7.006492e-45, 0.99999994]) assert.equal(Math.fround(float32(x)), Math.fround(x));
    assert.equal(float32(0.9999999999999998), 1);
    assert.equal(float32(0), 0);
  });

  it('prints what the fewest correctly rounded digits that read back give, for floats of every magnitude', () => {
    // The definition, one fixed-precision conversion per length.
    const shortest = (f: number) => {
      for (let digits = 1; digits < 9; digits++) {
        const shorter = Number(f.toPrecision(digits));
        if (Math.fround(shorter) === f) return shorter;
      }
      return Number(f.toPrecision(9));
    };
    const bits = new DataView(new ArrayBuffer(4));
    const rng = new Rng(3);
    for (let i = 0; i < 50000; i++) {
      bits.setUint32(0, rng.int(0, 0xffffffff));
      const f = bits.getFloat32(0);
      if (!Number.isFinite(f) || f === 0) continue;
      assert.ok(Object.is(float32(f), shortest(f)), `${f}: ${float32(f)} against ${shortest(f)}`);
    }
    const nearPowersOfTen = Array.from({ length: 80 }, (_, i) => 10 ** (i - 45)).flatMap((p) => [p, p * (1 - 1e-7), p * (1 + 1e-7)]);
    for (const f of [0.5, 0.25, 0.125, 1.5, 2.5, 1e-45, 3.4028234663852886e38, 0.45, 0.55, 95, 1.05, ...nearPowersOfTen]) {
      const g = Math.fround(f);
      assert.ok(Object.is(float32(g), shortest(g)), String(g));
      assert.ok(Object.is(float32(-g), shortest(-g)), String(-g));
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { float32 } from '../../../src/vector/rest/float32.js';

describe('vector float32 printing', () => {
  it('prints the shortest decimal that reads back as the same float32', () => {
    assert.equal(JSON.stringify([0.1, 0.2, 0.3, 1 / 3, 1e-8, 123456789, -2.5].map(float32)), '[0.1,0.2,0.3,0.33333334,1e-8,123456790,-2.5]');
    for (const x of [Math.PI, 1e30, 7.006492e-45, 0.99999994]) assert.equal(Math.fround(float32(x)), Math.fround(x));
    assert.equal(float32(0.9999999999999998), 1);
    assert.equal(float32(0), 0);
  });
});

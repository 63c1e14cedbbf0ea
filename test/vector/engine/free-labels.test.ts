// The free labels of a namespace hand out the smallest first, whatever order they were freed
// in: checked against a sorted array on seeded random adds and takes (the seed is printed).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FreeLabels } from '../../../src/vector/engine/free-labels.js';

describe('free labels', () => {
  it('hands out the smallest free label first (against a sorted array)', () => {
    const seed = Number(process.env.LARDER_TEST_SEED ?? Date.now() % 1e6);
    let state = seed;
    const rand = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const free = new FreeLabels();
    const oracle: number[] = [];
    let next = 0;
    for (let step = 0; step < 20_000; step++) {
      if (rand(3) > 0) {
        // Free a label not free already: a new one past all, or one of those taken.
        const label = rand(2) === 0 ? next++ : rand(next + 1);
        if (label === next || oracle.includes(label)) continue;
        free.add(label);
        oracle.push(label);
        oracle.sort((a, b) => a - b);
      } else {
        assert.equal(free.takeSmallest(), oracle.shift(), `step ${step}, seed ${seed}`);
      }
    }
    while (oracle.length > 0) assert.equal(free.takeSmallest(), oracle.shift(), `draining, seed ${seed}`);
    assert.equal(free.takeSmallest(), undefined);
  });
});

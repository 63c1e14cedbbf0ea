// The ring-buffer deque against a plain array as the model: random operations at both ends,
// in the middle and by index, across growth, wrap-around and shrinking.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Deque } from '../../../../src/kv/engine/list/deque.js';
import { Rng } from '../../differential/prng.js';

describe('Deque', () => {
  it('pushes and pops at both ends, wrapping around the buffer', () => {
    const d = new Deque<number>();
    for (let i = 0; i < 5; i++) d.pushBack(i);
    for (let i = 1; i <= 5; i++) d.pushFront(-i);
    assert.deepEqual(d.toArray(), [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4]);
    assert.equal(d.popFront(), -5);
    assert.equal(d.popBack(), 4);
    assert.equal(d.length, 8);
    assert.equal(d.at(0), -4);
    assert.equal(d.at(7), 3);
    d.set(7, 30);
    assert.deepEqual(d.slice(5, 8), [1, 2, 30]);
    const empty = new Deque<number>();
    assert.equal(empty.popFront(), undefined);
    assert.equal(empty.popBack(), undefined);
  });

  it('inserts, removes and keeps ranges in order', () => {
    const d = new Deque(['a', 'b', 'a', 'c', 'a']);
    d.insert(0, 'x');
    d.insert(6, 'y');
    d.insert(3, 'm');
    assert.deepEqual(d.toArray(), ['x', 'a', 'b', 'm', 'a', 'c', 'a', 'y']);
    assert.equal(d.remove('a', 2, true), 2);
    assert.deepEqual(d.toArray(), ['x', 'a', 'b', 'm', 'c', 'y']);
    assert.equal(d.remove('a', Infinity, false), 1);
    assert.equal(d.remove('zz', Infinity, false), 0);
    d.keep(1, 4);
    assert.deepEqual(d.toArray(), ['b', 'm', 'c']);
    d.keep(0, 0);
    assert.equal(d.length, 0);
  });

  it('behaves as an array under random operations', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = new Rng(seed);
      const d = new Deque<number>();
      let model: number[] = [];
      for (let step = 0; step < 20000; step++) {
        const op = rng.int(0, 9);
        const n = model.length;
        if (op <= 2) {
          const v = rng.int(0, 5);
          if (rng.chance(0.5)) (d.pushFront(v), model.unshift(v));
          else (d.pushBack(v), model.push(v));
        } else if (op <= 4) {
          // Pops outnumber pushes for a while now and then, so the buffer shrinks too.
          const front = rng.chance(0.5);
          assert.equal(front ? d.popFront() : d.popBack(), front ? model.shift() : model.pop());
        } else if (op === 5 && rng.chance(0.2)) {
          const i = rng.int(0, n);
          const v = rng.int(0, 5);
          d.insert(i, v);
          model.splice(i, 0, v);
        } else if (op === 6 && n > 0) {
          const i = rng.int(0, n - 1);
          assert.equal(d.at(i), model[i]);
          d.set(i, 9);
          model[i] = 9;
        } else if (op === 7 && rng.chance(0.1)) {
          const v = rng.int(0, 5);
          const limit = rng.chance(0.3) ? Infinity : rng.int(1, 3);
          const fromBack = rng.chance(0.5);
          let removed = 0;
          const kept = fromBack ? [...model].reverse() : [...model];
          model = kept.filter((x) => !(x === v && removed < limit && ++removed));
          if (fromBack) model.reverse();
          assert.equal(d.remove(v, limit, fromBack), removed);
        } else if (op === 8 && rng.chance(0.05)) {
          const from = rng.int(0, n);
          const to = rng.int(from, n);
          d.keep(from, to);
          model = model.slice(from, to);
        } else if (op === 9) {
          const from = rng.int(0, n);
          assert.deepEqual(d.slice(from, n), model.slice(from));
        }
        assert.equal(d.length, model.length);
      }
      assert.deepEqual(d.toArray(), model, `seed ${seed}`);
    }
  });
});

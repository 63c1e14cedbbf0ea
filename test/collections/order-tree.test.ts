// The sorted-set B+ tree on its own, against a sorted array of the same pairs: seeded random
// inserts, deletes, re-scores and range deletes, with small fanouts so that leaf and inner
// splits, merges and redistributions happen every few operations, and the default one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrderTree, type ZCursor } from '../../src/collections/order-tree.js';
import { Rng } from '../kv/differential/prng.js';

type Pair = [number, string];

const less = (a: Pair, b: Pair) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
const SCORES = [-Infinity, -2.5, -1, -0, 0, 1, 1.5, 2, 3, Infinity];

/** The pairs in order, as a plain sorted array: the model. */
class Model {
  pairs: Pair[] = [];
  scoreOf = new Map<string, number>();

  indexOf(p: Pair): number {
    let lo = 0;
    let hi = this.pairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (less(this.pairs[mid], p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(p: Pair): void {
    this.pairs.splice(this.indexOf(p), 0, p);
    this.scoreOf.set(p[1], p[0]);
  }

  delete(member: string): Pair {
    const p: Pair = [this.scoreOf.get(member)!, member];
    this.pairs.splice(this.indexOf(p), 1);
    this.scoreOf.delete(member);
    return p;
  }
}

function walk(first: ZCursor | null, step: (c: ZCursor) => ZCursor | null): Pair[] {
  const out: Pair[] = [];
  for (let c = first; c !== null; c = step(c)) out.push([c.score, c.member]);
  return out;
}

function check(tree: OrderTree, model: Model, rng: Rng): void {
  const pairs = model.pairs;
  assert.equal(tree.size, pairs.length);
  assert.deepEqual(walk(tree.first(), (c) => c.next()), pairs);
  assert.deepEqual(walk(tree.last(), (c) => c.prev()), [...pairs].reverse());
  pairs.forEach(([score, member], i) => assert.equal(tree.rankOf(score, member), i));
  for (let k = 0; k < 5 && pairs.length > 0; k++) {
    const i = rng.int(0, pairs.length - 1);
    const c = tree.byRank(i)!;
    assert.deepEqual([c.score, c.member], pairs[i]);
    // A walk from any position goes on in order both ways.
    assert.deepEqual(walk(tree.byRank(i), (x) => x.next()), pairs.slice(i));
  }
  assert.equal(tree.byRank(pairs.length), null);
  assert.equal(tree.byRank(-1), null);
  // Prefix predicates, on the score only and on the whole pair.
  const t = rng.pick(SCORES);
  const m = rng.pick(['', 'b', 'c', 'zz']);
  for (const before of [(s: number) => s < t, (s: number, mm: string) => s < t || (s === t && mm < m)]) {
    const n = pairs.filter(([s, mm]) => before(s, mm)).length;
    assert.equal(tree.countBefore(before), n);
    const first = tree.firstAfter(before);
    assert.deepEqual(first === null ? null : [first.score, first.member], n < pairs.length ? pairs[n] : null);
    const last = tree.lastBefore(before);
    assert.deepEqual(last === null ? null : [last.score, last.member], n > 0 ? pairs[n - 1] : null);
  }
}

/** Seeded random operations on a tree of the given fanouts, checked against the model. */
function run(seed: number, leafCap: number | undefined, innerCap: number | undefined, ops: number, members: number, every: number, prefill = 0): void {
  const rng = new Rng(seed);
  const tree = new OrderTree(leafCap, innerCap);
  const model = new Model();
  const member = () => `m${rng.int(0, members - 1)}`;
  for (let i = 0; i < prefill; i++) {
    const p: Pair = [rng.int(-1000, 1000) / 4, `p${i}`];
    tree.insert(p[0], p[1]);
    model.insert(p);
  }
  for (let op = 0; op < ops; op++) {
    const r = rng.next();
    const size = model.pairs.length;
    if (r < 0.45) {
      const m = member();
      if (!model.scoreOf.has(m)) {
        const p: Pair = [rng.pick(SCORES), m];
        tree.insert(p[0], p[1]);
        model.insert(p);
      }
    } else if (r < 0.75 && size > 0) {
      const [score, m] = model.delete(rng.pick(model.pairs)[1]);
      tree.delete(score, m);
    } else if (r < 0.9 && size > 0) {
      const [score, m] = model.delete(rng.pick(model.pairs)[1]);
      const to = rng.chance(0.5) ? rng.pick(SCORES) : score + rng.next() * 0.01;
      tree.updateScore(score, m, to);
      model.insert([to, m]);
    } else if (r < 0.97 && size > 0) {
      // Mostly short ranges (deleted one by one), sometimes most of the tree (a rebuild).
      const start = rng.int(0, size - 1);
      const count = rng.chance(0.7) ? rng.int(0, Math.min(3, size - start)) : rng.int(0, size - start);
      const removed: string[] = [];
      tree.deleteRange(start, count, (m) => removed.push(m));
      const gone = model.pairs.slice(start, start + count);
      assert.deepEqual(removed, gone.map(([, m]) => m));
      for (const [, m] of gone) model.delete(m);
    } else {
      const keep = model.pairs;
      tree.load(Float64Array.from(keep, ([s]) => s), keep.map(([, m]) => m), keep.length);
    }
    if (op % every === 0) check(tree, model, rng);
  }
  check(tree, model, rng);
}

describe('OrderTree', () => {
  for (const [leafCap, innerCap] of [
    [4, 4],
    [5, 4],
    [4, 7],
    [8, 5],
  ]) {
    it(`agrees with a sorted array under random operations (fanout ${leafCap}/${innerCap})`, () => {
      for (const seed of [1, 2, 3]) run(seed, leafCap, innerCap, 3000, 200, 7);
    });
  }

  it('agrees with a sorted array at the default fanout, on more than two levels', () => {
    run(7, undefined, undefined, 20_000, 40_000, 2000, 20_000);
  });

  it('splits and merges at the fanout boundaries, filled and emptied from either end', () => {
    for (const order of ['up', 'down', 'middle'] as const) {
      const rng = new Rng(11);
      const tree = new OrderTree(4, 4);
      const model = new Model();
      const n = 200;
      const keys = Array.from({ length: n }, (_, i) => i);
      if (order === 'down') keys.reverse();
      if (order === 'middle') keys.sort((a, b) => Math.abs(a - n / 2) - Math.abs(b - n / 2));
      for (const i of keys) {
        tree.insert(i, `m${i}`);
        model.insert([i, `m${i}`]);
        check(tree, model, rng);
      }
      for (const i of keys) {
        tree.delete(i, `m${i}`);
        model.delete(`m${i}`);
        check(tree, model, rng);
      }
      assert.equal(tree.first(), null);
      assert.equal(tree.last(), null);
    }
  });

  it('keeps equal scores in member order, -0 with 0', () => {
    const tree = new OrderTree(4, 4);
    for (const m of ['d', 'a', 'c', 'b', 'e', 'f']) tree.insert(m < 'c' ? -0 : 0, m);
    assert.deepEqual(walk(tree.first(), (c) => c.next()).map(([, m]) => m), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.ok(Object.is(tree.byRank(0)!.score, -0));
  });
});

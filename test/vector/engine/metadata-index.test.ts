// The metadata index only narrows which records a filter checks: through upserts that change a
// field, deletes, metadata of every type and a clear, a filtered query answers exactly what a
// scan of every record with the filter answers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Filter } from '../../../src/vector/filter/ast.js';
import { matches } from '../../../src/vector/filter/evaluate.js';
import { parseFilter } from '../../../src/vector/filter/parser.js';
import { Namespace } from '../../../src/vector/engine/namespace.js';

const FILTERS = [
  'b = 3',
  "b = '3'",
  'b = true',
  "tag IN ('x', 'y')",
  'b IN (1, 2) AND odd = true',
  "b = 4 OR tag = 'z'",
  'b = 4 OR b > 8',
  'b >= 0 AND b = 5',
  'nested.b = 3',
  'b NOT IN (1, 2)',
];

const parse = (src: string) => parseFilter(src, 128) as Filter;

function check(ns: Namespace, query: Float32Array): void {
  for (const src of FILTERS) {
    const f = parse(src);
    const want = [...ns.records()].filter((r) => matches(f, r.metadata));
    const exact = ns.score(want, query).map((h) => h.record.id);
    const { accept, among } = ns.select(f);
    const got = ns.nearest(query, 5000, accept, among).map((h) => h.record.id);
    assert.deepEqual(got, exact, src);
  }
}

describe('vector metadata index', () => {
  it('answers = and IN filters exactly as a scan, through upserts, deletes and a clear', () => {
    const ns = new Namespace('EUCLIDEAN');
    const values = [3, '3', true, 1, 2, 4, 5, 9, null, [3], { b: 3 }];
    const meta = (i: number, shift: number) => ({
      b: values[(i + shift) % values.length],
      tag: ['x', 'y', 'z'][i % 3],
      odd: i % 2 === 1,
      nested: { b: i % 4 },
    });
    const vec = (i: number) => Float32Array.from([i % 17, i % 5]);
    for (let i = 0; i < 300; i++) ns.put([{ id: `v${i}`, vector: vec(i), sparse: null, metadata: i % 10 === 0 ? undefined : meta(i, 0), data: undefined }]);
    const query = Float32Array.from([3, 2]);
    check(ns, query);
    // Change the indexed field of some, remove the metadata of others, delete a few.
    for (let i = 0; i < 300; i += 4) ns.put([{ id: `v${i}`, vector: vec(i), sparse: null, metadata: meta(i, 5), data: undefined }]);
    for (let i = 1; i < 300; i += 9) ns.put([{ id: `v${i}`, vector: vec(i), sparse: null, metadata: undefined, data: undefined }]);
    for (let i = 2; i < 300; i += 7) assert.ok(ns.delete(`v${i}`));
    check(ns, query);
    ns.clear();
    for (let i = 0; i < 50; i++) ns.put([{ id: `w${i}`, vector: vec(i), sparse: null, metadata: meta(i, 2), data: undefined }]);
    check(ns, query);
  });
});

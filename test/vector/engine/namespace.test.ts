// The engine of one namespace, without HTTP: HNSW recall against an exact scan, filtered
// queries that still fill topK, deletes and re-upserts, range by position in id order.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Namespace } from '../../../src/vector/engine/namespace.js';
import type { VectorData } from '../../../src/vector/engine/record.js';

function random(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
}

const rec = (id: string, vector: number[], metadata?: Record<string, unknown>): VectorData => ({
  id,
  vector: Float32Array.from(vector),
  sparse: null,
  metadata,
  data: undefined,
});

describe('vector namespace engine', () => {
  for (const similarity of ['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT'] as const) {
    it(`finds the exact top 10 at least 95% of the time through HNSW (${similarity}, seed 7)`, () => {
      const rand = random(7);
      const ns = new Namespace(similarity);
      const dim = 24;
      // Clustered data: 20 centres, points scattered around them.
      const centres = Array.from({ length: 20 }, () => Array.from({ length: dim }, () => rand() * 4));
      for (let i = 0; i < 4000; i++) ns.put([rec(`v${i}`, centres[i % 20].map((c) => c + rand()), { i })]);
      let found = 0;
      const queries = 40;
      for (let q = 0; q < queries; q++) {
        const query = Float32Array.from(centres[q % 20].map((c) => c + rand()));
        const approx = ns.nearest(query, 10).map((h) => h.record.id);
        const exact = ns.score([...ns.records()], query).slice(0, 10).map((h) => h.record.id);
        found += approx.filter((id) => exact.includes(id)).length;
      }
      assert.ok(found / (queries * 10) >= 0.95, `recall@10 ${found / (queries * 10)}`);
    });
  }

  it('fills topK under a filter at every selectivity, and skips deleted vectors', () => {
    const rand = random(11);
    const ns = new Namespace('COSINE');
    for (let i = 0; i < 3000; i++) ns.put([rec(`v${i}`, Array.from({ length: 8 }, rand), { i })]);
    for (let i = 0; i < 3000; i += 3) assert.ok(ns.delete(`v${i}`));
    const query = Float32Array.from(Array.from({ length: 8 }, rand));
    for (const mod of [2, 7, 50, 500]) {
      const accept = (r: { metadata: Record<string, unknown> | undefined }) => (r.metadata!.i as number) % mod === 1;
      const matching = [...ns.records()].filter(accept);
      const hits = ns.nearest(query, 25, accept);
      assert.equal(hits.length, Math.min(25, matching.length), `1/${mod}`);
      assert.ok(hits.every((h) => accept(h.record) && h.record.label % 3 !== 0));
      const exact = ns.score(matching, query).slice(0, 25);
      assert.equal(hits[0].record.id, exact[0].record.id);
    }
  });

  it('ranges in id order by position across deletes, re-upserts and inserts', () => {
    const ns = new Namespace('EUCLIDEAN');
    for (let i = 0; i < 3000; i++) ns.put([rec(`v${i}`, [i, 0])]);
    for (let i = 0; i < 3000; i++) if (i % 10 !== 0) ns.delete(`v${i}`);
    ns.put([rec('v10', [5, 5])]);
    ns.put([rec('late', [1, 1])]);
    const ids: string[] = [];
    let cursor: number | null = 0;
    while (cursor !== null) {
      const page: { records: { id: string }[]; next: number | null } = ns.range(cursor, 7, '');
      ids.push(...page.records.map((r) => r.id));
      assert.equal(page.next, page.next === null ? null : cursor + 7);
      cursor = page.next;
    }
    assert.deepEqual(ids, ['late', ...Array.from({ length: 300 }, (_, i) => `v${i * 10}`).sort()]);
    assert.deepEqual(ns.range(0, 3, 'v10').records.map((r) => r.id), ['v10', 'v100', 'v1000']);
    assert.deepEqual(ns.range(2, 3, 'v29').records.map((r) => r.id), ['v2910', 'v2920', 'v2930']);
    assert.deepEqual(Array.from(ns.get('v10')!.vector!), [5, 5]);
    assert.equal(ns.nearest(Float32Array.from([5, 5]), 1)[0].record.id, 'v10');
  });

  for (const similarity of ['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT'] as const) {
    it(`reuses a deleted or moved vector's graph slot, so churn does not grow memory (${similarity}, seed 13)`, () => {
      const rand = random(13);
      const ns = new Namespace(similarity);
      const vector = () => Array.from({ length: 16 }, rand);
      for (let i = 0; i < 1000; i++) ns.put([rec(`v${i}`, vector())]);
      const bytes = ns.bytes;
      for (let round = 0; round < 5000; round++) {
        const id = `v${round % 1000}`;
        if (round % 3 === 0) assert.ok(ns.delete(id));
        ns.put([rec(id, vector())]);
      }
      assert.equal(ns.size, 1000);
      assert.equal(ns.bytes, bytes);
      const last = Float32Array.from(ns.get('v999')!.vector!);
      assert.equal(ns.nearest(last, 1)[0].record.id, 'v999');
    });
  }

  it('gives a new record the smallest label no record holds, and a restored namespace does the same', () => {
    const ns = new Namespace('COSINE');
    for (let i = 0; i < 10; i++) ns.put([rec(`v${i}`, [i, 1])]);
    for (const id of ['v7', 'v2', 'v5']) assert.ok(ns.delete(id));
    // As a snapshot restores it: the next label first, then the records with their labels.
    const restored = new Namespace('COSINE', true);
    restored.nextLabel = ns.nextLabel;
    restored.put([...ns.frozen()]);
    restored.finishLoad(undefined, (err) => assert.fail(String(err)));
    for (const space of [ns, restored]) {
      space.put(['a', 'b', 'c', 'd'].map((id) => rec(id, [1, 0])));
      assert.deepEqual(['a', 'b', 'c', 'd'].map((id) => space.get(id)!.label), [2, 5, 7, 10]);
      assert.deepEqual(space.get('v9')!.vector, Float32Array.from([9, 1]));
    }
  });
});

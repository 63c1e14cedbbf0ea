// Hybrid fusion through @upstash/vector against a reference written from Upstash's definitions
// (vector/features/hybridindexes): RRF maps a result at rank r (from 0) of the dense or the
// sparse list to 1 / (r + 60); DBSF maps a score s of a list with mean μ and standard deviation
// σ to (s - (μ - 3σ)) / 6σ; a result in both lists adds its two, and the topK best are returned.
// What the definitions leave open follows the service's answers to the SDK's own tests
// (sparse-hybrid.test.ts): σ is the sample deviation and a list of one counts 0.5; a query
// fuses each list's best 100 (or topK if more); a resumable piece fuses each list's best k
// among the vectors it has not returned. Seeded random data, checked for query, query-many
// and resumable queries; a failure prints the seed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FusionAlgorithm } from '@upstash/vector';
import { suiteLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

const t = suiteLarder({ vector: { indexes: { hybrid: { type: 'HYBRID', dimension: 4 } } } });

const SEED = Number(process.env.FUSION_SEED ?? Date.now() % 100000);
/** How deep a query's lists go into the fusion (VectorIndex's FUSION_DEPTH). */
const DEPTH = 100;
const DIMS = 4;
const SPARSE_DIMS = 12;

interface Doc {
  id: string;
  vector: number[];
  sparseVector: { indices: number[]; values: number[] };
}
interface Scored {
  id: string;
  score: number;
}

function random(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

function makeDocs(rand: () => number, n: number): Doc[] {
  return Array.from({ length: n }, (_, i) => ({ id: `d${i}`, ...makeQuery(rand) }));
}

function makeQuery(rand: () => number): Omit<Doc, 'id'> {
  const indices = [...new Set(Array.from({ length: 3 }, () => Math.floor(rand() * SPARSE_DIMS)))].sort((a, b) => a - b);
  return {
    vector: Array.from({ length: DIMS }, () => rand() * 2 - 1),
    sparseVector: { indices, values: indices.map(() => Math.round(rand() * 100) / 100 + 0.01) },
  };
}

const f32s = (xs: number[]) => xs.map(Math.fround);

function cosineScore(a: number[], b: number[]): number {
  const [x, y] = [f32s(a), f32s(b)];
  const dot = x.reduce((s, v, i) => s + v * y[i], 0);
  return (1 + dot / (Math.hypot(...x) * Math.hypot(...y))) / 2;
}

/** The inner product in float32 arithmetic, as the service computes it; null without a shared dimension. */
function sparseScore(q: Doc['sparseVector'], d: Doc['sparseVector']): number | null {
  let score: number | null = null;
  q.indices.forEach((index, i) => {
    const j = d.indices.indexOf(index);
    if (j >= 0) score = Math.fround((score ?? 0) + Math.fround(Math.fround(q.values[i]) * Math.fround(d.values[j])));
  });
  return score;
}

const best = (xs: Scored[], k: number) => [...xs].sort((a, b) => b.score - a.score).slice(0, k);

/** The fusion of the dense and sparse lists, each `depth` deep, of the `docs`: the k best. */
function reference(docs: Doc[], q: Omit<Doc, 'id'>, k: number, fusion: 'RRF' | 'DBSF', depth = Math.max(k, DEPTH)): Scored[] {
  const dense = best(docs.map((d) => ({ id: d.id, score: cosineScore(q.vector, d.vector) })), depth);
  const sparse = best(
    docs.flatMap((d) => {
      const score = sparseScore(q.sparseVector, d.sparseVector);
      return score === null ? [] : [{ id: d.id, score }];
    }),
    depth,
  );
  const total = new Map<string, number>();
  for (const list of [dense, sparse]) {
    const mean = list.reduce((s, x) => s + x.score, 0) / list.length;
    const sd = Math.sqrt(list.reduce((s, x) => s + (x.score - mean) ** 2, 0) / (list.length - 1));
    // Scores equal as the service keeps them (float32) count 0.5, as a list of one does.
    const level = list.every((x) => Math.fround(x.score) === Math.fround(list[0].score));
    list.forEach((x, rank) => {
      const mapped = fusion === 'RRF' ? 1 / (rank + 60) : level ? 0.5 : (x.score - (mean - 3 * sd)) / (6 * sd);
      total.set(x.id, (total.get(x.id) ?? 0) + mapped);
    });
  }
  return best([...total].map(([id, score]) => ({ id, score })), k);
}

/** Same scores in the same order (to float32 printing), and the same ids, in any order among equal scores. */
function assertSameRanking(results: { id: string | number; score: number }[], want: Scored[], what: string) {
  const got = results.map((r) => ({ id: String(r.id), score: r.score }));
  const msg = `${what} (FUSION_SEED=${SEED})`;
  assert.equal(got.length, want.length, msg);
  got.forEach((g, i) => assert.ok(Math.abs(g.score - want[i].score) <= 1e-6 * Math.abs(want[i].score), `${msg}: score ${i}: ${g.score} vs ${want[i].score}`));
  // Runs of (nearly) equal expected scores may come in any order.
  for (let start = 0; start < want.length; ) {
    let end = start + 1;
    while (end < want.length && Math.abs(want[end].score - want[start].score) <= 1e-6 * Math.abs(want[start].score)) end++;
    const ids = (xs: Scored[]) => xs.slice(start, end).map((x) => x.id).sort();
    assert.deepEqual(ids(got), ids(want), `${msg}: positions ${start}..${end - 1}`);
    start = end;
  }
}

describe('vector: hybrid fusion matches the documented RRF and DBSF', () => {
  const rand = random(SEED);
  const docs = makeDocs(rand, 80);
  const queries = Array.from({ length: 6 }, () => makeQuery(rand));
  const ix = () => vectorClient(t, { index: 'hybrid' }).namespace('fusion');

  it('for query and query-many', async () => {
    await ix().upsert(docs);
    for (const fusion of ['RRF', 'DBSF'] as const) {
      const fusionAlgorithm = FusionAlgorithm[fusion];
      for (const [i, q] of queries.entries()) {
        const want = reference(docs, q, 7, fusion);
        assertSameRanking(await ix().query({ ...q, topK: 7, fusionAlgorithm }), want, `${fusion} query ${i}`);
      }
      const many = await vectorClient(t, { index: 'hybrid' }).queryMany(queries.map((q) => ({ ...q, topK: 5, fusionAlgorithm })), { namespace: 'fusion' });
      many.forEach((got, i) => assertSameRanking(got, reference(docs, queries[i], 5, fusion), `${fusion} query-many ${i}`));
    }
  });

  it('for resumable queries: each piece fuses the best k of each list among the vectors not yet returned', async () => {
    await ix().upsert(docs);
    for (const fusion of ['RRF', 'DBSF'] as const) {
      const q = queries[0];
      const { result, fetchNext, stop } = await ix().resumableQuery({ ...q, topK: 3, fusionAlgorithm: FusionAlgorithm[fusion], maxIdle: 60 });
      assertSameRanking(result, reference(docs, q, 3, fusion, 3), `${fusion} first piece`);
      const returned = new Set(result.map((r) => String(r.id)));
      for (const k of [2, 4]) {
        const want = reference(docs.filter((d) => !returned.has(d.id)), q, k, fusion, k);
        const got = await fetchNext(k);
        assertSameRanking(got, want, `${fusion} next ${k}`);
        for (const r of got) returned.add(String(r.id));
      }
      await stop();
    }
  });
});

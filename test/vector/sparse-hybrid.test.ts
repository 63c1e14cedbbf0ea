// Sparse and hybrid indexes through @upstash/vector: exact sparse inner products, IDF
// weighting, RRF and DBSF fusion, query modes, and the shape checks of each index type.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FusionAlgorithm, QueryMode, WeightingStrategy } from '@upstash/vector';
import { suiteLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

const t = suiteLarder({
  vector: { indexes: { sparse: { type: 'SPARSE' }, hybrid: { type: 'HYBRID', dimension: 2 } } },
});

const f32 = (x: number) => {
  const f = Math.fround(x);
  for (let p = 1; p < 9; p++) if (Math.fround(Number(f.toPrecision(p))) === f) return Number(f.toPrecision(p));
  return Number(f.toPrecision(9));
};

// The SDK's own test data (populateSparseIndex / populateHybridIndex).
const SPARSE = [
  { id: 'id0', sparseVector: { indices: [0, 1], values: [0.1, 0.2] } },
  { id: 'id1', sparseVector: { indices: [1, 2], values: [0.2, 0.3] }, metadata: { key: 'value' } },
  { id: 'id2', sparseVector: { indices: [2, 3], values: [0.3, 0.4] }, metadata: { key: 'value' }, data: 'data' },
];
const DENSE = [[0.1, 0.2], [0.2, 0.3], [0.3, 0.4]];

describe('vector: sparse index', () => {
  const ix = () => vectorClient(t, { index: 'sparse' }).namespace('s');

  it('stores sparse vectors and fetches them as given', async () => {
    assert.equal(await ix().upsert(SPARSE as never), 'Success');
    assert.deepEqual(await ix().fetch(['id0', 'id1', 'id2', 'id3'], { includeVectors: true, includeMetadata: true, includeData: true }), [...SPARSE, null]);
    const info = await vectorClient(t, { index: 'sparse' }).info();
    assert.equal((info as unknown as { indexType: string }).indexType, 'SPARSE');
    assert.equal(info.namespaces.s.vectorCount, 3);
  });

  it('scores by exact inner product over shared dimensions', async () => {
    const hits = await ix().query({ sparseVector: { indices: [1, 2], values: [1, 1] }, topK: 5 });
    assert.deepEqual(hits, [
      { id: 'id1', score: 0.5 },
      { id: 'id2', score: 0.3 },
      { id: 'id0', score: 0.2 },
    ]);
    assert.deepEqual(await ix().query({ sparseVector: { indices: [9], values: [1] }, topK: 5 }), []);
    assert.deepEqual((await ix().query({ sparseVector: { indices: [1, 2], values: [1, 1] }, topK: 5, filter: "key = 'value'" })).map((h) => h.id), ['id1', 'id2']);
  });

  it('weights query dimensions by IDF', async () => {
    const idf = (n: number) => Math.log((3 - n + 0.5) / (n + 0.5) + 1);
    const hits = await ix().query({ sparseVector: { indices: [0, 3], values: [1, 1] }, topK: 5, weightingStrategy: WeightingStrategy.IDF });
    // float32 arithmetic, as the service's: the weighted query value times the stored one.
    assert.deepEqual(hits, [
      { id: 'id2', score: f32(Math.fround(idf(1)) * Math.fround(0.4)) },
      { id: 'id0', score: f32(Math.fround(idf(1)) * Math.fround(0.1)) },
    ]);
  });

  it('adds up the values of a repeated index, in upsert, update, query and range', async () => {
    const dup = () => vectorClient(t, { index: 'sparse' }).namespace('dup');
    await dup().upsert({ id: 'd', sparseVector: { indices: [3, 1, 3], values: [0.25, 0.5, 0.5] } });
    const merged = { id: 'd', sparseVector: { indices: [1, 3], values: [0.5, 0.75] } };
    assert.deepEqual(await dup().fetch(['d'], { includeVectors: true }), [merged]);
    assert.deepEqual(await dup().range({ cursor: 0, limit: 5, includeVectors: true }), { nextCursor: '', vectors: [merged] });
    // The query's repeated index counts twice: (1 + 1) * 0.75.
    assert.deepEqual(await dup().query({ sparseVector: { indices: [3, 3], values: [1, 1] }, topK: 1 }), [{ id: 'd', score: 1.5 }]);
    assert.deepEqual(await dup().update({ id: 'd', sparseVector: { indices: [2, 2, 7], values: [1, 2, 0.5] } }), { updated: 1 });
    assert.deepEqual(await dup().fetch(['d'], { includeVectors: true }), [{ id: 'd', sparseVector: { indices: [2, 7], values: [3, 0.5] } }]);
    assert.deepEqual(await dup().query({ sparseVector: { indices: [2], values: [1] }, topK: 1 }), [{ id: 'd', score: 3 }]);
  });

  it('refuses sparse values beyond the float32 range, a repeated index\'s sum included', async () => {
    const refused = { status: 400, body: { error: 'sparseVector values must be numbers', status: 400 } };
    const c = t.vectorIndex('sparse');
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${c.url}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    // Each was stored as an infinite float32: fetched back as null, and scoring null.
    assert.deepEqual(await post('upsert/f32', { id: 'a', sparseVector: { indices: [1], values: [1e39] } }), refused);
    assert.deepEqual(await post('upsert/f32', { id: 'a', sparseVector: { indices: [1, 1], values: [3e38, 3e38] } }), refused);
    assert.deepEqual(await post('query/f32', { sparseVector: { indices: [1, 1], values: [3e38, 3e38] }, topK: 1 }), refused);
    const ns = vectorClient(t, { index: 'sparse' }).namespace('f32');
    assert.equal(await ns.upsert({ id: 'a', sparseVector: { indices: [1, 1], values: [3e38, -3e38] } }), 'Success');
    assert.deepEqual(await ns.fetch(['a'], { includeVectors: true }), [{ id: 'a', sparseVector: { indices: [1], values: [0] } }]);
  });

  it('refuses a sparse vector of more than 1000 dimensions, as the service documents', async () => {
    const indices = Array.from({ length: 1001 }, (_, i) => i);
    const big = { indices, values: indices.map(() => 0.5) };
    await assert.rejects(ix().upsert({ id: 'big', sparseVector: big }), { message: 'sparseVector must have at most 1000 dimensions' });
    // Repeated indices count once.
    assert.equal(await ix().upsert({ id: 'big', sparseVector: { indices: [...indices.slice(0, 1000), 0], values: big.values } }), 'Success');
    assert.deepEqual(await ix().delete('big'), { deleted: 1 });
  });

  it('answers the SDK\'s own resumable sparse query with its scores', async () => {
    const { result, fetchNext, stop } = await ix().resumableQuery({
      sparseVector: { indices: [0, 1], values: [0.1, 0.2] },
      topK: 1,
      includeVectors: true,
      includeMetadata: true,
      includeData: true,
      weightingStrategy: WeightingStrategy.IDF,
      fusionAlgorithm: FusionAlgorithm.DBSF,
      maxIdle: 3600,
    });
    assert.deepEqual(result, [{ id: 'id0', score: 0.028608438, sparseVector: { indices: [0, 1], values: [0.1, 0.2] } }]);
    assert.deepEqual(await fetchNext(1), [{ id: 'id1', score: 0.018800145, sparseVector: { indices: [1, 2], values: [0.2, 0.3] }, metadata: { key: 'value' } }]);
    await stop();
  });

  it('refuses dense vectors', async () => {
    await assert.rejects(ix().upsert({ id: 'd', vector: [1, 2] }), /sparse; dense vectors are not allowed/);
    await assert.rejects(ix().query({ vector: [1, 2], topK: 1 }), /sparse; dense vectors are not allowed/);
  });
});

describe('vector: hybrid index', () => {
  const ix = () => vectorClient(t, { index: 'hybrid' }).namespace('h');

  it('needs both parts on upsert and returns both', async () => {
    await assert.rejects(ix().upsert({ id: 'x', vector: [1, 2] }), /both vector and sparseVector are required/);
    await ix().upsert(SPARSE.map((s, i) => ({ ...s, vector: DENSE[i] })) as never);
    assert.deepEqual(await ix().fetch(['id1'], { includeVectors: true }), [{ id: 'id1', vector: [0.2, 0.3], sparseVector: { indices: [1, 2], values: [0.2, 0.3] } }]);
  });

  // The SDK's own hybrid tests (query-many and resumable-query index.test.ts), with the scores
  // the service answered them.
  const HYBRID = SPARSE.map((s, i) => ({ ...s, vector: DENSE[i] }));

  it('answers the SDK\'s hybrid query-many: RRF over each part\'s whole ranking, not just its topK', async () => {
    const client = vectorClient(t, { index: 'hybrid' });
    await client.upsert(HYBRID as never, { namespace: 'sdk-many' });
    const result = await client.queryMany(
      [
        { topK: 1, vector: [0.1, 0.1], sparseVector: { indices: [3, 4], values: [0.1, 0.2] }, fusionAlgorithm: FusionAlgorithm.RRF },
        // id0 leads the sparse ranking and is third in the dense one: 1/60 + 1/62 beats id2's 1/60.
        { topK: 1, vector: [0.5, 0.1], sparseVector: { indices: [0, 1], values: [0.5, 0.1] }, includeVectors: true },
        {
          topK: 1,
          sparseVector: { indices: [2, 3], values: [0.5, 0.5] },
          weightingStrategy: WeightingStrategy.IDF,
          fusionAlgorithm: FusionAlgorithm.DBSF,
          includeMetadata: true,
        },
      ],
      { namespace: 'sdk-many' },
    );
    assert.deepEqual(result, [
      [{ id: 'id2', score: 0.033333335 }],
      [{ id: 'id0', score: 0.032795697, vector: [0.1, 0.2], sparseVector: { indices: [0, 1], values: [0.1, 0.2] } }],
      [{ id: 'id2', score: 0.26666638, metadata: { key: 'value' } }],
    ]);
  });

  it('answers the SDK\'s hybrid resumable query: each piece fuses the parts\' best not yet returned, DBSF by sample deviation', async () => {
    const client = vectorClient(t, { index: 'hybrid' });
    await client.upsert(HYBRID as never, { namespace: 'sdk-resume' });
    const { result, fetchNext, stop } = await client.resumableQuery(
      {
        vector: [0.1, 0.1],
        sparseVector: { indices: [0], values: [0.1] },
        topK: 2,
        includeVectors: true,
        includeMetadata: true,
        includeData: true,
        weightingStrategy: WeightingStrategy.IDF,
        fusionAlgorithm: FusionAlgorithm.DBSF,
        maxIdle: 3600,
      },
      { namespace: 'sdk-resume' },
    );
    // The service printed 0.617851 for id2, its float32 arithmetic's rounding of 0.5 + √2/12: the
    // last digit is the one place where Larder (float64 fusion) answers otherwise.
    assert.ok(Math.abs(result[0].score - 0.617851) < 1e-6, String(result[0].score));
    assert.deepEqual(result, [
      { id: 'id2', score: result[0].score, vector: [0.3, 0.4], sparseVector: { indices: [2, 3], values: [0.3, 0.4] }, metadata: { key: 'value' }, data: 'data' },
      { id: 'id0', score: 0.5, vector: [0.1, 0.2], sparseVector: { indices: [0, 1], values: [0.1, 0.2] } },
    ]);
    assert.deepEqual(await fetchNext(1), [
      { id: 'id1', score: 0.5, vector: [0.2, 0.3], sparseVector: { indices: [1, 2], values: [0.2, 0.3] }, metadata: { key: 'value' } },
    ]);
    await stop();
  });

  it('fuses dense and sparse rankings by RRF and DBSF, or uses one by query mode', async () => {
    // Dense (cosine) ranking for [0.3, 0.4] is id2, id1, id0; sparse for {3: 1, 0: 1} is id2, id0.
    const query = { vector: [0.3, 0.4], sparseVector: { indices: [0, 3], values: [1, 1] }, topK: 3 };
    const rrf = await ix().query(query);
    assert.deepEqual(rrf, [
      { id: 'id2', score: f32(1 / 60 + 1 / 60) },
      { id: 'id0', score: f32(1 / 62 + 1 / 61) },
      { id: 'id1', score: f32(1 / 61) },
    ]);

    const dense = await ix().query({ ...query, queryMode: QueryMode.DENSE, includeVectors: false });
    assert.deepEqual(dense.map((h) => h.id), ['id2', 'id1', 'id0']);
    assert.equal(dense[0].score, 1);
    const sparse = await ix().query({ ...query, queryMode: QueryMode.SPARSE });
    assert.deepEqual(sparse, [{ id: 'id2', score: 0.4 }, { id: 'id0', score: 0.1 }]);

    const dbsf = await ix().query({ ...query, fusionAlgorithm: FusionAlgorithm.DBSF });
    const norm = (xs: number[]) => {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
      return xs.map((x) => (x - (mean - 3 * sd)) / (6 * sd));
    };
    const cos = (a: number[], b: number[]) => (1 + (a[0] * b[0] + a[1] * b[1]) / (Math.hypot(...a) * Math.hypot(...b))) / 2;
    const denseScores = [2, 1, 0].map((i) => cos(DENSE[i].map(Math.fround), [0.3, 0.4].map(Math.fround)));
    const [d2, d1, d0] = norm(denseScores);
    const [s2, s0] = norm([Math.fround(0.4), Math.fround(0.1)]);
    const expected = [
      { id: 'id2', score: d2 + s2 },
      { id: 'id0', score: d0 + s0 },
      { id: 'id1', score: d1 },
    ].sort((a, b) => b.score - a.score);
    assert.deepEqual(dbsf, expected.map((e) => ({ id: e.id, score: f32(e.score) })));
  });
});

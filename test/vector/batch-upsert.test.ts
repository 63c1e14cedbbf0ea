// Upserts of many vectors per request go into the graph as one batch, inserted on every core
// (issue 20, point 5). Through the official client: a graph grown that way still finds the
// exact nearest vectors, and a batch that moves stored vectors and adds new ones leaves every
// vector at its new place only.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

const DIM = 32;
const BATCH = 1000;

const t = suiteLarder({ vector: { indexes: { default: { dimension: DIM } } } });

/** Seeded draws in [-1, 1): the same vectors on every run. */
function draws(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 31 - 1;
  };
}

/** Vectors in 20 clusters, as embeddings come: near neighbours are close calls. */
function clustered(count: number, seed: number): number[][] {
  const rand = draws(seed);
  const centres = Array.from({ length: 20 }, () => Array.from({ length: DIM }, rand));
  return Array.from({ length: count }, (_, i) => centres[i % 20].map((c) => c + 0.6 * rand()));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** Ids of the exact top `k` of `query` among `vectors` (id = position). */
function exactTop(vectors: readonly number[][], query: number[], k: number): string[] {
  return vectors
    .map((v, i) => ({ id: String(i), score: cosine(v, query) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((h) => h.id);
}

describe('vector: upserts in batches', () => {
  it('grows a graph by batches of 1000 that finds the exact top 10 (recall@10 at least 0.95)', async () => {
    const ix = vectorClient(t).namespace('grown');
    const vectors = clustered(5000, 7);
    for (let first = 0; first < vectors.length; first += BATCH) {
      assert.equal(await ix.upsert(vectors.slice(first, first + BATCH).map((vector, j) => ({ id: String(first + j), vector }))), 'Success');
    }
    assert.equal((await vectorClient(t).info()).namespaces.grown.vectorCount, vectors.length);
    const queries = clustered(40, 99);
    let found = 0;
    for (const query of queries) {
      const answer = await ix.query({ vector: query, topK: 10 });
      const exact = new Set(exactTop(vectors, query, 10));
      found += answer.filter((m) => exact.has(String(m.id))).length;
    }
    assert.ok(found / (queries.length * 10) >= 0.95, `recall@10 ${found / (queries.length * 10)}`);
  });

  it('moves the stored vectors a batch names again and adds the new ones', async () => {
    const ix = vectorClient(t).namespace('moved');
    const before = clustered(2000, 11);
    for (let first = 0; first < before.length; first += BATCH) {
      await ix.upsert(before.slice(first, first + BATCH).map((vector, j) => ({ id: `v${first + j}`, vector })));
    }
    // One batch: the first 700 move far from where they were, 300 new ones join.
    const moved = clustered(1000, 23).map((v) => v.map((x) => -x));
    await ix.upsert(moved.map((vector, j) => ({ id: `v${j < 700 ? j : 2000 + j}`, vector })));
    assert.equal((await vectorClient(t).info()).namespaces.moved.vectorCount, 2300);
    for (let j = 0; j < 1000; j += 37) {
      const id = `v${j < 700 ? j : 2000 + j}`;
      const [top] = await ix.query({ vector: moved[j], topK: 1 });
      assert.equal(top?.id, id, `vector ${j} of the batch`);
      assert.ok(Math.abs(top.score - 1) < 1e-6, `score ${top.score}`);
      // Where a moved vector was, it is found no more.
      if (j < 700) assert.notEqual((await ix.query({ vector: before[j], topK: 1 }))[0]?.id, id);
    }
  });
});

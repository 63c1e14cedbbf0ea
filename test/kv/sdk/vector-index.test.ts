// Vector indexes at a key (Upstash's VECTOR.* commands) as @upstash/redis reaches them through
// redis.vector, with auto-pipelining off and on: the three vector forms the SDK sends, the
// scores of each metric (normalised to [0, 1] as Upstash defines them), the documented errors,
// and the index as an ordinary key.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

/** What a float32 component reads back as. */
const f32 = (x: number) => Math.fround(x);

for (const mode of PIPELINE_MODES) {
  describe(`vector indexes through the SDK (${mode.name})`, () => {
    const { redis, t } = suiteSdk(mode);

    it('creates an index, adds vectors in every form, reads them back as float32 and counts them', async () => {
      const index = await redis.vector.createIndex({ name: 'docs', dimension: 3, metric: 'COSINE' });
      assert.deepEqual(await index.info(), { dimension: 3, metric: 'COSINE' });
      assert.equal(await index.add('a', [0.1, 0.2, 0.3]), 1);
      assert.equal(await index.add('b', Float32Array.from([1, 0, 0])), 1);
      const blob = Buffer.from(Float32Array.from([0, 1, 0]).buffer).toString('base64');
      assert.equal(await index.add('c', { base64: blob }), 1);
      assert.equal(await index.add('a', [0.3, 0.2, 0.1]), 0, 'replacing a vector answers 0');
      assert.equal(await index.count(), 3);
      assert.deepEqual(await index.get('a'), [f32(0.3), f32(0.2), f32(0.1)]);
      assert.deepEqual(await index.get('c'), [0, 1, 0]);
      assert.equal(await index.get('missing'), null);
      assert.equal(await index.delete('b'), 1);
      assert.equal(await index.delete('b'), 0);
      assert.equal(await index.count(), 2);
      assert.equal(await index.delete('a') + (await index.delete('c')), 2);
      assert.equal(await index.count(), 0, 'the emptied index stays');
      assert.deepEqual(await index.info(), { dimension: 3, metric: 'COSINE' });
      assert.equal(await index.drop(), 1);
      assert.equal(await index.drop(), 0);
      assert.equal(await index.info(), null);
      assert.equal(await index.count(), 0);
    });

    it('answers the nearest ids best first with the scores of each metric', async () => {
      const expected: Record<string, (q: number[], v: number[]) => number> = {
        COSINE: (q, v) => (1 + dot(q, v) / (norm(q) * norm(v))) / 2,
        EUCLIDEAN: (q, v) => 1 / (1 + q.reduce((s, x, i) => s + (x - v[i]) ** 2, 0)),
        DOT: (q, v) => (1 + dot(q, v)) / 2,
      };
      const vectors: Record<string, number[]> = { x: [1, 0], y: [0, 1], diagonal: [0.5, 0.5], far: [-1, -0.25] };
      const query = [0.8, 0.25];
      for (const [metric, score] of Object.entries(expected)) {
        const index = await redis.vector.createIndex({ name: `m:${metric}`, dimension: 2, metric: metric as 'COSINE' });
        for (const [id, v] of Object.entries(vectors)) await index.add(id, v);
        const want = Object.entries(vectors)
          .map(([id, v]) => ({ id, score: score(query, v) }))
          .sort((a, b) => b.score - a.score);
        const got = await index.query({ vector: query, topK: 3 });
        assert.deepEqual(got.map((h) => h.id), want.slice(0, 3).map((h) => h.id), metric);
        got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i].score) < 1e-6, `${metric} ${h.id}: ${h.score} against ${want[i].score}`));
        assert.ok(got.every((h) => h.score >= 0 && h.score <= 1));
        assert.equal((await index.query({ vector: query, topK: 100, profile: 'PRECISE' })).length, 4, 'asking for more returns everything');
      }
      const cosine = redis.vector.index('m:COSINE');
      assert.deepEqual(await cosine.query({ vector: Float32Array.from([1, 0]), topK: 1, profile: 'FAST' }), [{ id: 'x', score: 1 }]);
    });

    it('refuses what Upstash documents as errors', async () => {
      const index = await redis.vector.createIndex({ name: 'strict', dimension: 2, metric: 'EUCLIDEAN' });
      await assert.rejects(redis.vector.createIndex({ name: 'strict', dimension: 2, metric: 'EUCLIDEAN' }), /ERR Index strict already exists, command was/);
      await redis.vector.createIndex({ name: 'strict', dimension: 2, metric: 'EUCLIDEAN', existsOk: true });
      await assert.rejects(
        redis.vector.createIndex({ name: 'strict', dimension: 3, metric: 'EUCLIDEAN', existsOk: true }),
        /ERR Index strict already exists with a different configuration/,
      );
      await assert.rejects(index.add('a', [1, 2, 3]), /ERR vector dimension mismatch: expected 2, got 3/);
      await assert.rejects(index.query({ vector: [1], topK: 1 }), /ERR vector dimension mismatch: expected 2, got 1/);
      await assert.rejects(index.query({ vector: [1, 2], topK: 0 }), /ERR TOPK must be an integer between 1 and 1000/);
      const missing = redis.vector.index('missing');
      await assert.rejects(missing.add('a', [1, 2]), /ERR Index missing is not found/);
      await assert.rejects(missing.get('a'), /ERR Index missing is not found/);
      await assert.rejects(missing.delete('a'), /ERR Index missing is not found/);
      await assert.rejects(redis.vector.createIndex({ name: 'wide', dimension: 32_769, metric: 'DOT' }), /ERR DIM must be an integer between 1 and 32768/);
      await assert.rejects(index.add('', [1, 2]), /ERR id cannot be empty/);
      for (const argv of [
        ['vector.add', 'strict', 'a', 'VALUES', '2', '1', 'x'],
        ['vector.add', 'strict', 'a', 'VALUES', '2', '1', 'inf'],
      ]) {
        assert.deepEqual((await t.command(argv)).body, { error: 'ERR vector elements must be finite numbers' }, argv.join(' '));
      }
      assert.deepEqual((await t.command(['vector.add', 'strict', 'a', 'FP32', 'abc'])).body, { error: 'ERR FP32 blob length must be a non-zero multiple of 4' });
      assert.deepEqual((await t.command(['vector.create', 'other', 'DIM', '2', 'METRIC', 'HAMMING'])).body, { error: 'ERR METRIC must be COSINE, EUCLIDEAN or DOT' });
      assert.deepEqual((await t.command(['vector.query', 'strict', 'TOPK', '1', 'PROFILE', 'FAST'])).body, { error: 'ERR syntax error' });
    });

    it('lives at an ordinary key', async () => {
      const index = await redis.vector.createIndex({ name: 'keyed', dimension: 2, metric: 'DOT' });
      await index.add('a', [1, 2]);
      assert.equal(await redis.type('keyed'), 'vector');
      assert.equal(await redis.exists('keyed'), 1);
      assert.equal(await redis.expire('keyed', 100), 1);
      assert.ok((await redis.ttl('keyed')) > 0);
      await redis.set('plain', 'text');
      await assert.rejects(redis.vector.createIndex({ name: 'plain', dimension: 2, metric: 'DOT' }), /WRONGTYPE/);
      await assert.rejects(redis.vector.index('plain').drop(), /WRONGTYPE/);
      await assert.rejects(redis.vector.index('plain').count(), /WRONGTYPE/);
      assert.equal(await redis.del('keyed'), 1);
      assert.equal(await index.info(), null);
    });
  });
}

function dot(a: number[], b: number[]): number {
  return a.reduce((s, x, i) => s + x * b[i], 0);
}

function norm(a: number[]): number {
  return Math.sqrt(dot(a, a));
}

// Indexes with embedding models: upsert-data and query-data through a dense OpenAI-compatible
// endpoint (the test's own tiny server) and the built-in BM25, and @upstash/semantic-cache
// working against them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SemanticCache } from '@upstash/semantic-cache';
import { startEmbeddingServer, DIMENSION, type EmbeddingServer } from '../support/embedding-server.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

let embeddings: EmbeddingServer;
let t: TestLarder;

before(async () => {
  embeddings = await startEmbeddingServer();
  const model = { url: embeddings.url, model: 'tiny-words' };
  t = await startTestLarder({
    vector: {
      indexes: {
        default: { embedding: model },
        words: { type: 'SPARSE', sparseEmbedding: 'BM25' },
        both: { type: 'HYBRID', embedding: model, sparseEmbedding: 'BM25' },
        broken: { embedding: { url: 'http://127.0.0.1:1/v1/embeddings', model: 'none' } },
      },
    },
  });
});
after(async () => {
  await t?.close();
  await embeddings?.close();
});

const DOCS = [
  { id: 'cats', data: 'cats purr and chase mice', metadata: { kind: 'pet' } },
  { id: 'dogs', data: 'dogs bark and fetch sticks', metadata: { kind: 'pet' } },
  { id: 'fox', data: 'the quick brown fox jumps over the lazy dog', metadata: { kind: 'wild' } },
];

describe('vector: embedding models', () => {
  it('lets @upstash/semantic-cache answer a semantically equal question from the cache', async () => {
    const cache = new SemanticCache({ index: vectorClient(t) as never, minProximity: 0.95, namespace: 'cache' });
    await cache.set('What is the capital of France?', 'Paris');
    await cache.set('How tall is Mount Everest?', '8849 m');
    assert.equal(await cache.get('what is the capital of france'), 'Paris');
    assert.equal(await cache.get('How tall is mount everest'), '8849 m');
    assert.equal(await cache.get('Who painted the Mona Lisa?'), undefined);
    assert.ok(embeddings.requests.every((r) => r.model === 'tiny-words'));
  });

  it('embeds upsert-data with the dense model, keeps the data and answers query-data', async () => {
    const ix = vectorClient(t);
    assert.equal(await ix.upsert(DOCS), 'Success');
    const [cats] = await ix.fetch(['cats'], { includeData: true, includeVectors: true, includeMetadata: true });
    assert.equal(cats?.data, 'cats purr and chase mice');
    assert.equal(cats?.vector?.length, DIMENSION);
    const info = await ix.info();
    assert.equal(info.dimension, DIMENSION);
    assert.equal(info.denseIndex?.embeddingModel, 'tiny-words');
    const hits = await ix.query({ data: 'do cats chase mice', topK: 2, includeData: true });
    assert.equal(hits[0].id, 'cats');
    assert.equal(hits[0].data, 'cats purr and chase mice');
    const filtered = await ix.query({ data: 'do cats chase mice', topK: 2, filter: "kind = 'wild'" });
    assert.deepEqual(filtered.map((h) => h.id), ['fox']);
    // A batch of data queries, and an update that re-embeds.
    const many = await ix.queryMany([{ data: 'dogs bark', topK: 1 }, { data: 'brown fox', topK: 1 }]);
    assert.deepEqual(many.map((r) => r[0].id), ['dogs', 'fox']);
    assert.deepEqual(await ix.update({ id: 'dogs', data: 'brown fox sticks' }), { updated: 1 });
    const [dogs] = await ix.fetch(['dogs'], { includeData: true, includeVectors: true });
    assert.equal(dogs?.data, 'brown fox sticks');
    assert.deepEqual(await ix.query({ data: 'Brown fox, sticks!', topK: 1 }), [{ id: 'dogs', score: 1 }]);
  });

  it('embeds with BM25 into a sparse index, weighting query terms by IDF', async () => {
    const ix = vectorClient(t, { index: 'words' });
    await ix.upsert(DOCS);
    const [fox] = await ix.fetch(['fox'], { includeVectors: true });
    assert.ok(fox?.sparseVector !== undefined && fox.sparseVector.indices.length === 8, JSON.stringify(fox));
    const hits = await ix.query({ data: 'quick fox', topK: 3 });
    assert.deepEqual(hits.map((h) => h.id), ['fox']);
    // "and" is in two documents of three, "mice" in one: the rarer word decides.
    const rare = await ix.query({ data: 'and mice', topK: 3 });
    assert.deepEqual(rare.map((h) => h.id), ['cats', 'dogs']);
    assert.equal((await ix.info()).sparseIndex?.embeddingModel, 'BM25');
  });

  it('embeds both parts into a hybrid index and fuses them', async () => {
    const ix = vectorClient(t, { index: 'both' });
    await ix.upsert(DOCS);
    const { result, stop } = await ix.resumableQuery({ data: 'cats chase mice', topK: 1, maxIdle: 60 });
    assert.deepEqual(result.map((h) => h.id), ['cats']);
    await stop();
    const [hit] = await ix.query({ data: 'lazy dog', topK: 1, includeVectors: true });
    assert.equal(hit.id, 'fox');
    assert.equal(hit.vector?.length, DIMENSION);
    assert.ok(hit.sparseVector !== undefined);
  });

  it('answers 502 when the embedding provider cannot be reached', async () => {
    await assert.rejects(vectorClient(t, { index: 'broken' }).upsert({ id: 'x', data: 'hello' }), /Embedding provider failed/);
  });
});

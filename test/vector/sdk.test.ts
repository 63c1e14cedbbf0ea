// Every endpoint of the vector service through the official @upstash/vector client, with raw
// HTTP where the SDK hides the wire (envelopes, statuses, batch shapes, auth).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

const t = suiteLarder({
  vector: {
    maxResumableQueries: 3,
    indexes: {
      default: {},
      fixed: { dimension: 256 },
      euclid: { dimension: 2, similarity: 'EUCLIDEAN' },
      dot: { dimension: 2, similarity: 'DOT_PRODUCT' },
      big: { dimension: 8 },
    },
  },
});

/** A raw request to an index endpoint; returns status and parsed body. */
async function raw(path: string, body?: unknown, opts: { index?: string; token?: string | null; method?: string } = {}) {
  const c = t.vectorIndex(opts.index);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = opts.token === undefined ? c.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${c.url}/${path}`, { method: opts.method ?? 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('vector: upsert, fetch and scores', () => {
  it('fixes the default index dimension with the first upsert and prints float32 shortest', async () => {
    const ix = vectorClient(t);
    // The SDK's types do not let a vector carry data; the service stores it all the same.
    const withData = { id: 'b', vector: [0.3, 0.1], data: 'bee' } as { id: string; vector: number[] };
    assert.equal(await ix.upsert([{ id: 1, vector: [0.1, 0.2], metadata: { genre: 'sci-fi' } }, withData]), 'Success');
    assert.deepEqual(await ix.fetch(['1', 'b', 'missing'], { includeVectors: true, includeMetadata: true, includeData: true }), [
      { id: '1', vector: [0.1, 0.2], metadata: { genre: 'sci-fi' } },
      { id: 'b', vector: [0.3, 0.1], data: 'bee' },
      null,
    ]);
    // Fields not asked for are absent.
    assert.deepEqual(await ix.fetch(['1']), [{ id: '1' }]);
    assert.deepEqual(await raw('upsert', { id: 'c', vector: [1, 2, 3] }), {
      status: 422,
      body: { error: 'Invalid vector dimension: 3, expected: 2', status: 422 },
    });
    const info = await ix.info();
    assert.equal(info.dimension, 2);
    assert.equal(info.similarityFunction, 'COSINE');
  });

  it('refuses an empty id on upsert, as the service documents', async () => {
    assert.deepEqual(await raw('upsert', { id: '', vector: [1, 2] }), { status: 400, body: { error: 'id must not be empty', status: 400 } });
    await assert.rejects(vectorClient(t).upsert([{ id: 'fine', vector: [1, 2] }, { id: '', vector: [1, 2] }]), { message: 'id must not be empty' });
    assert.deepEqual(await vectorClient(t).fetch(['fine']), [null]);
  });

  it('answers the issue\'s dimension error on a declared index', async () => {
    assert.deepEqual(await raw('upsert', [{ id: 'x', vector: [1, 2] }], { index: 'fixed' }), {
      status: 422,
      body: { error: 'Invalid vector dimension: 2, expected: 256', status: 422 },
    });
    await assert.rejects(vectorClient(t, { index: 'fixed' }).query({ vector: [1, 2], topK: 1 }), /Invalid vector dimension: 2, expected: 256/);
  });

  it('refuses vector values beyond the float32 range, which it stores, as it refuses non-numbers', async () => {
    const refused = { status: 400, body: { error: 'vector must be an array of numbers', status: 400 } };
    // 1e39 is a finite double but an infinite float32: it was stored, fetched back as null, and
    // scored every vector NaN (printed null).
    assert.deepEqual(await raw('upsert/f32', { id: 'inf', vector: [1e39, 1] }, { index: 'dot' }), refused);
    assert.deepEqual(await raw('upsert/f32', [{ id: 'ok', vector: [1, 1] }, { id: 'inf', vector: [1, -1e39] }], { index: 'dot' }), refused);
    assert.deepEqual(await raw('query/f32', { vector: [1e39, 1], topK: 1 }, { index: 'dot' }), refused);
    assert.deepEqual(await raw('update/f32', { id: 'ok', vector: [1e39, 1] }, { index: 'dot' }), refused);
    assert.deepEqual(await raw('fetch/f32', { ids: ['inf', 'ok'] }, { index: 'dot' }), { status: 200, body: { result: [null, null] } });
    // The largest float32 is stored as it is.
    const ix = vectorClient(t, { index: 'dot' }).namespace('f32');
    assert.equal(await ix.upsert({ id: 'max', vector: [3.4028234663852886e38, -3.4028234663852886e38] }), 'Success');
    assert.deepEqual(await ix.fetch(['max'], { includeVectors: true }), [{ id: 'max', vector: [3.4028235e38, -3.4028235e38] }]);
    assert.equal(await vectorClient(t, { index: 'dot' }).deleteNamespace('f32'), 'Success');
  });

  it('normalises COSINE, EUCLIDEAN and DOT_PRODUCT scores as the service does', async () => {
    const cos = vectorClient(t);
    const [same, other] = await cos.query({ vector: [0.1, 0.2], topK: 2 });
    assert.deepEqual(same, { id: '1', score: 1 });
    const c = (0.1 * 0.3 + 0.2 * 0.1) / (Math.hypot(0.1, 0.2) * Math.hypot(0.3, 0.1));
    assert.equal(other.id, 'b');
    assert.equal(other.score, Number(Math.fround((1 + c) / 2).toPrecision(7)));

    const euclid = vectorClient(t, { index: 'euclid' });
    await euclid.upsert([{ id: 'a', vector: [0, 0] }, { id: 'b', vector: [1, 2] }]);
    assert.deepEqual(await euclid.query({ vector: [0, 0], topK: 2 }), [{ id: 'a', score: 1 }, { id: 'b', score: 0.16666667 }]);

    const dot = vectorClient(t, { index: 'dot' });
    await dot.upsert([{ id: 'a', vector: [0.5, 0.5] }, { id: 'b', vector: [-0.5, 0] }]);
    assert.deepEqual(await dot.query({ vector: [1, 0], topK: 2 }), [{ id: 'a', score: 0.75 }, { id: 'b', score: 0.25 }]);
  });

  it('includes vectors, metadata and data in query results only when asked', async () => {
    const ix = vectorClient(t);
    const [hit] = await ix.query({ vector: [0.3, 0.1], topK: 1, includeVectors: true, includeMetadata: true, includeData: true });
    assert.deepEqual(hit, { id: 'b', score: 1, vector: [0.3, 0.1], data: 'bee' });
  });

  it('answers a batch of queries nested, and a batch of one flat', async () => {
    const two = await raw('query', [{ vector: [0.1, 0.2], topK: 1 }, { vector: [0.3, 0.1], topK: 1 }]);
    assert.deepEqual(two, { status: 200, body: { result: [[{ id: '1', score: 1 }], [{ id: 'b', score: 1 }]] } });
    const one = await raw('query', [{ vector: [0.1, 0.2], topK: 1 }]);
    assert.deepEqual(one, { status: 200, body: { result: [{ id: '1', score: 1 }] } });
    assert.deepEqual(await vectorClient(t).queryMany([{ vector: [0.1, 0.2], topK: 1 }]), [[{ id: '1', score: 1 }]]);
  });
});

describe('vector: update, range, delete', () => {
  const ix = () => vectorClient(t, { index: 'euclid' }).namespace('upd');

  it('updates metadata by PATCH and OVERWRITE, and vectors', async () => {
    await ix().upsert({ id: 'u', vector: [1, 1], metadata: { a: 1, nested: { x: 1, y: 2 } } });
    assert.deepEqual(await ix().update({ id: 'u', metadata: { b: 2, nested: { y: null } }, metadataUpdateMode: 'PATCH' }), { updated: 1 });
    assert.deepEqual(await ix().fetch(['u'], { includeMetadata: true }), [{ id: 'u', metadata: { a: 1, b: 2, nested: { x: 1 } } }]);
    assert.deepEqual(await ix().update({ id: 'u', metadata: { only: true } }), { updated: 1 });
    assert.deepEqual(await ix().update({ id: 'u', vector: [2, 3] }), { updated: 1 });
    assert.deepEqual(await ix().fetch(['u'], { includeMetadata: true, includeVectors: true }), [{ id: 'u', vector: [2, 3], metadata: { only: true } }]);
    assert.deepEqual(await ix().update({ id: 'nope', metadata: { a: 1 } }), { updated: 0 });
  });

  it('walks vectors in id order with a cursor and a prefix, and fetches by prefix', async () => {
    const ns = vectorClient(t, { index: 'euclid' }).namespace('range');
    await ns.upsert(['p-3', 'q-1', 'p-1', 'p-2', 'q-2'].map((id, i) => ({ id, vector: [i, i] })));
    await ns.upsert({ id: 'p-3', vector: [9, 9] }); // a re-upsert keeps its place
    const ids: string[] = [];
    let cursor: string | number = 0;
    do {
      const page: { nextCursor: string; vectors: { id: string | number }[] } = await ns.range({ cursor, limit: 2 });
      assert.ok(page.vectors.length <= 2);
      ids.push(...page.vectors.map((v) => String(v.id)));
      cursor = page.nextCursor;
    } while (cursor !== '');
    assert.deepEqual(ids, ['p-1', 'p-2', 'p-3', 'q-1', 'q-2']);
    const p = await ns.range({ cursor: 0, limit: 10, prefix: 'p-', includeVectors: true });
    assert.deepEqual(p, { nextCursor: '', vectors: [{ id: 'p-1', vector: [2, 2] }, { id: 'p-2', vector: [3, 3] }, { id: 'p-3', vector: [9, 9] }] });
    assert.deepEqual((await ns.fetch({ prefix: 'q-' })).map((v) => v?.id), ['q-1', 'q-2']);
    assert.deepEqual(await raw('fetch/range', { ids: ['p-1'], prefix: 'p-' }, { index: 'euclid' }), {
      status: 400,
      body: { error: 'Only one of ids or prefix must be provided.', status: 400 },
    });
  });

  it('answers range cursors that are positions, n, 2n, ..., which stay valid while the index changes', async () => {
    const ns = vectorClient(t, { index: 'euclid' }).namespace('positions');
    const ids = Array.from({ length: 12 }, (_, i) => `k-${String(i).padStart(2, '0')}`);
    // Inserted shuffled, listed in id order.
    await ns.upsert([7, 2, 10, 0, 5, 11, 3, 9, 1, 6, 8, 4].map((i) => ({ id: ids[i], vector: [i, 0] })));
    const first = await ns.range({ cursor: 0, limit: 4 });
    assert.deepEqual(first, { nextCursor: '4', vectors: ids.slice(0, 4).map((id) => ({ id })) });
    const second = await ns.range({ cursor: first.nextCursor, limit: 4 });
    assert.deepEqual(second, { nextCursor: '8', vectors: ids.slice(4, 8).map((id) => ({ id })) });
    assert.deepEqual(await ns.range({ cursor: second.nextCursor, limit: 4 }), { nextCursor: '', vectors: ids.slice(8).map((id) => ({ id })) });

    // Deletes, inserts and overwrites between pages: the earlier cursor still reads from position 4.
    await ns.delete(['k-00', 'k-01']);
    await ns.upsert([{ id: 'k-99', vector: [0, 0] }, { id: 'k-05', vector: [1, 1] }]);
    const now = [...ids.slice(2), 'k-99'];
    assert.deepEqual(await ns.range({ cursor: first.nextCursor, limit: 4 }), { nextCursor: '8', vectors: now.slice(4, 8).map((id) => ({ id })) });

    // With a prefix the positions count the matching vectors only.
    await ns.upsert([{ id: 'j-2', vector: [1, 0] }, { id: 'j-1', vector: [1, 0] }, { id: 'l-1', vector: [1, 0] }]);
    const j = await ns.range({ cursor: '', limit: 1, prefix: 'j-' });
    assert.deepEqual(j, { nextCursor: '1', vectors: [{ id: 'j-1' }] });
    assert.deepEqual(await ns.range({ cursor: j.nextCursor, limit: 1, prefix: 'j-' }), { nextCursor: '', vectors: [{ id: 'j-2' }] });
    assert.deepEqual(await ns.range({ cursor: 50, limit: 5 }), { nextCursor: '', vectors: [] });
    assert.deepEqual(await raw('range/positions', { cursor: '0', limit: 0 }, { index: 'euclid' }), {
      status: 400,
      body: { error: 'limit must be a positive integer', status: 400 },
    });
  });

  it('deletes by id, ids, prefix and filter, counting what it deleted', async () => {
    const ns = vectorClient(t, { index: 'euclid' }).namespace('del');
    await ns.upsert([
      { id: 'a', vector: [1, 0], metadata: { n: 1 } },
      { id: 'b', vector: [1, 0], metadata: { n: 2 } },
      { id: 'pre-1', vector: [1, 0] },
      { id: 'pre-2', vector: [1, 0] },
      { id: 'c', vector: [1, 0], metadata: { n: 3 } },
    ]);
    const index = vectorClient(t, { index: 'euclid' });
    assert.deepEqual(await index.delete('a', { namespace: 'del' }), { deleted: 1 });
    assert.deepEqual(await index.delete(['a', 'b'], { namespace: 'del' }), { deleted: 1 });
    assert.deepEqual(await index.delete({ prefix: 'pre-' }, { namespace: 'del' }), { deleted: 2 });
    assert.deepEqual(await index.delete({ filter: 'n >= 3' }, { namespace: 'del' }), { deleted: 1 });
    assert.deepEqual((await index.info()).namespaces.del, { vectorCount: 0, pendingVectorCount: 0 });
    // The documented bare array of ids, with DELETE.
    await ns.upsert({ id: 'z', vector: [0, 1] });
    assert.deepEqual(await raw('delete/del', ['z'], { index: 'euclid', method: 'DELETE' }), { status: 200, body: { result: { deleted: 1 } } });
    // Upstash's text for more than one criterion, or none.
    const oneCriterion = 'Only and only one of the ids, prefix, or filter must be provided.';
    assert.deepEqual(await raw('delete/del', { ids: ['z'], prefix: 'z' }, { index: 'euclid' }), {
      status: 400,
      body: { error: oneCriterion, status: 400 },
    });
    assert.deepEqual(await raw('delete/del', {}, { index: 'euclid' }), { status: 400, body: { error: oneCriterion, status: 400 } });
    await assert.rejects(index.delete({ prefix: 'a', filter: 'n = 1' } as never, { namespace: 'del' }), { message: oneCriterion });
  });
});

describe('vector: namespaces, reset, info, random', () => {
  const ix = () => vectorClient(t, { index: 'dot' });

  it('lists, renames and deletes namespaces, and resets one or all', async () => {
    await ix().upsert({ id: 'n1', vector: [1, 0] }, { namespace: 'ns-a' });
    await ix().upsert([{ id: 'n2', vector: [1, 0] }, { id: 'n3', vector: [0, 1] }], { namespace: 'ns-b' });
    assert.deepEqual((await ix().listNamespaces()).sort(), ['', 'ns-a', 'ns-b']);
    const info = await ix().info();
    assert.deepEqual(info.namespaces['ns-b'], { vectorCount: 2, pendingVectorCount: 0 });
    assert.equal((info as unknown as { indexType: string }).indexType, 'DENSE');
    assert.equal(info.vectorCount, 2 + 1 + (info.namespaces['']?.vectorCount ?? 0));
    assert.ok(info.indexSize > 0);

    assert.deepEqual(await raw('rename-namespace', { namespace: 'ns-a', newNamespace: 'ns-b' }, { index: 'dot' }), {
      status: 400,
      body: { error: "Namespace 'ns-b' already exists", status: 400 },
    });
    assert.deepEqual(await raw('rename-namespace', { namespace: 'ns-a', newNamespace: 'ns-c' }, { index: 'dot' }), { status: 200, body: { result: { renamed: true } } });
    assert.deepEqual(await ix().namespace('ns-c').fetch(['n1']), [{ id: 'n1' }]);

    assert.equal(await ix().reset({ namespace: 'ns-b' }), 'Success');
    assert.deepEqual((await ix().info()).namespaces['ns-b'], { vectorCount: 0, pendingVectorCount: 0 });
    assert.equal(await ix().deleteNamespace('ns-b'), 'Success');
    await assert.rejects(ix().deleteNamespace('ns-b'), /Namespace 'ns-b' does not exist/);
    assert.equal((await raw('delete-namespace/ns-b', undefined, { index: 'dot' })).status, 404);
    assert.deepEqual((await ix().listNamespaces()).sort(), ['', 'ns-c']);

    assert.equal(await ix().reset({ all: true }), 'Success');
    const after = await ix().info();
    assert.equal(after.vectorCount, 0);
    assert.deepEqual(Object.keys(after.namespaces).sort(), ['', 'ns-c']);
  });

  it('returns a random vector, or null for an empty namespace', async () => {
    await ix().upsert({ id: 'r', vector: [0.5, 0.25] }, { namespace: 'rand' });
    assert.deepEqual(await raw('random/rand', undefined, { index: 'dot', method: 'GET' }), { status: 200, body: { result: { id: 'r', vector: [0.5, 0.25] } } });
    assert.deepEqual(await raw('random/empty', undefined, { index: 'dot', method: 'GET' }), { status: 200, body: { result: null } });
  });
});

describe('vector: resumable queries', () => {
  it('hands out results in pieces without repeating one, and ends', async () => {
    const ns = vectorClient(t, { index: 'euclid' }).namespace('resume');
    await ns.upsert([0, 1, 2, 3, 4].map((i) => ({ id: i, vector: [i, 0] })));
    const { result, fetchNext, stop } = await vectorClient(t, { index: 'euclid' }).resumableQuery({ vector: [0, 0], topK: 2, maxIdle: 60 }, { namespace: 'resume' });
    assert.deepEqual(result.map((r) => r.id), ['0', '1']);
    assert.deepEqual((await fetchNext(1)).map((r) => r.id), ['2']);
    assert.deepEqual((await fetchNext(5)).map((r) => r.id), ['3', '4']);
    assert.deepEqual(await fetchNext(1), []);
    assert.equal(await stop(), 'Success');
    const gone = await raw('resumable-query-next', { uuid: 'no-such', additionalK: 1 }, { index: 'euclid' });
    assert.equal(gone.status, 404);
  });

  it('keeps at most maxResumableQueries an index, forgetting the one used longest ago', async () => {
    const ix = vectorClient(t, { index: 'euclid' });
    await ix.upsert([0, 1, 2, 3, 4].map((i) => ({ id: i, vector: [i, 0] })), { namespace: 'bound' });
    // maxIdle far past any clock: only the bound can end these.
    const start = () => ix.resumableQuery({ vector: [0, 0], topK: 1, maxIdle: 1e300 }, { namespace: 'bound' });
    const [a, b, c] = [await start(), await start(), await start()];
    assert.deepEqual((await a.fetchNext(1)).map((r) => r.id), ['1'], 'a is now the one used last');
    const d = await start();
    await assert.rejects(b.fetchNext(1), /does not exist or has expired/);
    for (const q of [a, c, d]) assert.equal((await q.fetchNext(1)).length, 1);
    for (const q of [a, c, d]) assert.equal(await q.stop(), 'Success');
  });
});

describe('vector: filtered queries', () => {
  it('returns topK whenever at least topK vectors match, selective or not', async () => {
    const ix = vectorClient(t, { index: 'big' });
    const n = 3000;
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const all = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, vector: Array.from({ length: 8 }, rand), metadata: { i, rare: i % 100 === 0, half: i % 2 === 0 } }));
    for (let i = 0; i < n; i += 500) await ix.upsert(all.slice(i, i + 500));
    const q = Array.from({ length: 8 }, rand);
    for (const [filter, matching] of [['rare = true', 30], ['half = true', 1500], ['i < 5', 5]] as const) {
      const hits = await ix.query({ vector: q, topK: 20, filter, includeMetadata: true });
      assert.equal(hits.length, Math.min(20, matching), filter);
      assert.ok(hits.every((h) => (filter === 'i < 5' ? (h.metadata!.i as number) < 5 : h.metadata![filter.split(' ')[0]] === true)), filter);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
    }
    // The exact answer for the selective filter: every rare vector, best first.
    const rare = await ix.query({ vector: q, topK: 30, filter: 'rare = true' });
    assert.equal(new Set(rare.map((h) => h.id)).size, 30);
    assert.deepEqual((await ix.query({ vector: q, topK: 10 })).length, 10);
  });

  it('answers a filter syntax error with its line and column, as the service words them', async () => {
    const res = await raw('query', { vector: [0.1, 0.2], topK: 1, filter: 'genre = ' });
    assert.deepEqual(res, { status: 400, body: { error: 'Invalid filter. At line 1:8 expected a value', status: 400 } });
    // A character no token starts with, in the service's own words (seen from its users).
    await assert.rejects(vectorClient(t).query({ vector: [0.1, 0.2], topK: 1, filter: "a = 1 AND\n  b = @" }), {
      message: "Invalid filter. At line 2:6 token recognition error at: '@'",
    });
    await assert.rejects(vectorClient(t).delete({ filter: 'a = ' }), { message: 'Invalid filter. At line 1:4 expected a value' });
  });

  it("matches only the metadata's own fields, never what every JSON object inherits", async () => {
    const ix = vectorClient(t);
    const ns = { namespace: 'inherited' };
    await ix.upsert([{ id: 'p', vector: [0.5, 0.5], metadata: { place: { city: 'Oslo' }, tags: ['a'] } }], ns);
    const ids = async (filter: string) => (await ix.query({ vector: [0.5, 0.5], topK: 5, filter }, ns)).map((h) => h.id);
    for (const field of ['constructor', '__proto__', 'toString', 'place.constructor', 'place.hasOwnProperty', 'tags.length']) {
      assert.deepEqual(await ids(`HAS FIELD ${field}`), [], field);
      assert.deepEqual(await ids(`HAS NOT FIELD ${field}`), ['p'], field);
    }
    assert.deepEqual(await ids('HAS FIELD place.city'), ['p']);
  });
});

describe('vector: auth and embedding', () => {
  it('refuses a missing or wrong token with 401, and writes with the read-only token', async () => {
    assert.deepEqual(await raw('info', undefined, { token: null }), { status: 401, body: { error: 'Unauthorized: Invalid auth token', status: 401 } });
    assert.equal((await raw('info', undefined, { token: 'wrong-token' })).status, 401);
    const ro = vectorClient(t, { readOnly: true });
    assert.equal((await ro.query({ vector: [0.1, 0.2], topK: 1 })).length, 1);
    assert.equal((await ro.info()).dimension, 2);
    await assert.rejects(ro.upsert({ id: 'ro', vector: [1, 1] }), /Read-only token/);
    const res = await raw('delete', ['1'], { token: t.vectorIndex().readOnlyToken });
    assert.equal(res.status, 403);
  });

  it('answers upsert-data and query-data on an index without a model with 422', async () => {
    const expected = {
      status: 422,
      body: { error: 'Embedding data for this index is not allowed. The index must be created with an embedding model to use it.', status: 422 },
    };
    assert.deepEqual(await raw('upsert-data', { id: 'd', data: 'hello' }), expected);
    assert.deepEqual(await raw('query-data', { data: 'hello', topK: 1 }), expected);
    await assert.rejects(vectorClient(t).upsert({ id: 'd', data: 'hello' }), /Embedding data for this index is not allowed/);
  });

  it('answers 404 for an unknown index or endpoint', async () => {
    const res = await fetch(`${t.url}/vector/nope/info`, { headers: { authorization: 'Bearer x' } });
    assert.equal(res.status, 404);
    assert.equal((await raw('no-such-endpoint', {})).status, 404);
  });
});

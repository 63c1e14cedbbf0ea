// /console: the static page, and the admin endpoints behind the admin tokens. The read-only
// admin token is handed only read-only service tokens.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsoleInfo, ConsoleMetrics } from '../../src/console/wire.js';
import { startTestLarder, suiteLarder } from '../support/larder.js';

describe('/console', () => {
  const t = suiteLarder();
  const get = (path: string, token?: string) => fetch(t.url + path, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  it('serves the page, its script and its style without a token', async () => {
    for (const [path, type] of [
      ['/console', 'text/html; charset=utf-8'],
      ['/console/', 'text/html; charset=utf-8'],
      ['/console/app.js', 'text/javascript; charset=utf-8'],
      ['/console/app.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), type, path);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      assert.ok((await res.text()).length > 100, path);
    }
    assert.match(await (await get('/console')).text(), /<script type="module" src="\/console\/app.js">/);
  });

  it('answers other paths and methods with errors', async () => {
    const missing = await get('/console/nothing');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'no console page at /console/nothing', status: 404 });
    const post = await fetch(t.url + '/console/api/info', { method: 'POST', headers: { authorization: `Bearer ${t.adminToken}` } });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    await post.arrayBuffer();
  });

  it('keeps the admin endpoints behind the admin tokens', async () => {
    for (const token of [undefined, 'not-the-token', t.token]) {
      for (const path of ['/console/api/info', '/console/api/metrics']) {
        const res = await get(path, token);
        assert.equal(res.status, 401, `${path} with ${token}`);
        assert.equal(((await res.json()) as { status: number }).status, 401);
      }
    }
  });

  it('hands the admin token every service with its full tokens', async () => {
    const res = await get('/console/api/info', t.adminToken);
    assert.equal(res.status, 200);
    const info = (await res.json()) as ConsoleInfo;
    assert.equal(info.readOnly, false);
    assert.deepEqual(info.kv, [{ db: 'default', url: '/redis/default', token: t.token }]);
    const c = t.cluster();
    assert.deepEqual(info.streams, [{ cluster: 'default', url: '/kafka/default', username: c.username, password: c.password }]);
    assert.deepEqual(info.vector, [{ index: 'default', url: '/vector/default', token: t.vectorIndex().token }]);
    assert.deepEqual(info.queue, { url: '/qstash', token: t.queue().token });
  });

  it('hands the read-only admin token only read-only tokens', async () => {
    const res = await get('/console/api/info', t.adminReadOnlyToken);
    assert.equal(res.status, 200);
    const info = (await res.json()) as ConsoleInfo;
    assert.equal(info.readOnly, true);
    assert.deepEqual(info.kv, [{ db: 'default', url: '/redis/default', token: t.readOnlyToken }]);
    assert.deepEqual(info.streams, [{ cluster: 'default', url: '/kafka/default', username: null, password: null }]);
    assert.deepEqual(info.vector, [{ index: 'default', url: '/vector/default', token: t.vectorIndex().readOnlyToken }]);
    assert.deepEqual(info.queue, { url: '/qstash', token: t.queue().readOnlyToken });
  });

  it('gives each service its request totals and latency counts', async () => {
    const figures = async () => {
      const res = await get('/console/api/metrics', t.adminReadOnlyToken);
      assert.equal(res.status, 200);
      const body = (await res.json()) as ConsoleMetrics;
      assert.equal(typeof body.at, 'number');
      return body.services.find((s) => s.service === 'kv') ?? { requests: 0, errors: 0, buckets: [], bounds: [] };
    };
    const before = await figures();
    await t.ok(['set', 'k', 'v']);
    await t.ok(['get', 'k']);
    await t.fails(['incr', 'k']);
    const after = await figures();
    assert.equal(after.requests - before.requests, 3);
    assert.equal(after.errors - before.errors, 1);
    assert.equal(after.buckets.length, after.bounds.length + 1);
    const counted = (b: readonly number[]) => b.reduce((x, y) => x + y, 0);
    assert.equal(counted(after.buckets) - counted(before.buckets), 3);
  });
});

describe('/console switched off', () => {
  it('is not served with console.enabled false', async () => {
    const t = await startTestLarder({ console: { enabled: false } });
    try {
      const res = await fetch(`${t.url}/console`);
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { error: 'no service at /console', status: 404 });
    } finally {
      await t.close();
    }
  });
});

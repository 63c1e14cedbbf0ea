// HEAD is GET without a body and a read-only endpoint refuses other methods with 405 and
// `Allow: GET, HEAD`, the same way on every endpoint (server/http.ts routeMethod and useGet).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../support/larder.js';

describe('HEAD and 405, once for every service', () => {
  const t = suiteLarder();

  it('answers HEAD as GET without the body', async () => {
    const c = t.cluster();
    const basic = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
    const q = t.queue();
    await t.ok(['SET', 'head', 'some value']);
    // The key-value answers share one frozen header set per sync token (kv/rest/reply-headers.ts):
    // HEAD, asked twice, must add its content-length to a copy of it.
    const kv = `${t.kvUrl}/get/head`;
    const targets = [[`${c.url}/topics`, basic], [`${q.url}/v2/queues`, `Bearer ${q.token}`], [`${t.url}/healthz`, ''], [kv, `Bearer ${t.token}`], [kv, `Bearer ${t.token}`]];
    for (const [url, authorization] of targets) {
      const get = await fetch(url, { headers: { authorization } });
      const head = await fetch(url, { method: 'HEAD', headers: { authorization } });
      assert.equal(head.status, get.status, url);
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(await get.text())), url);
      assert.equal(await head.text(), '', url);
    }
  });

  it('refuses a write method on a read-only endpoint with 405 and Allow', async () => {
    for (const path of ['/healthz', '/metrics']) {
      const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${t.adminToken}` } });
      assert.equal(res.status, 405, path);
      assert.equal(res.headers.get('allow'), 'GET, HEAD', path);
      assert.deepEqual(await res.json(), { error: 'use GET', status: 405 }, path);
    }
  });
});

// The read-only token reads the queue but never the signing keys: with them its holder could
// sign a request that a Receiver takes for a delivery. GET /v2/keys and key rotation answer 403
// in the queue's envelope; the read-only console, which holds only that token, shows no keys.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, type QstashError } from '@upstash/qstash';
import { queueSuite } from '../support/queue-receiver.js';

const KEYS_REFUSED = { error: 'the read-only token cannot read or rotate the signing keys', status: 403 };

describe('queue read-only token', () => {
  const { t, client } = queueSuite();

  const readOnly = () => new Client({ baseUrl: t.queue().url, token: t.queue().readOnlyToken, retry: false, enableTelemetry: false, devMode: false });
  const call = (path: string, method = 'GET') => fetch(t.queue().url + path, { method, headers: { authorization: `Bearer ${t.queue().readOnlyToken}` } });

  it('refuses GET /v2/keys and rotation with 403 in the queue envelope', async () => {
    for (const [path, method] of [['/v2/keys', 'GET'], ['/v2/keys', 'HEAD'], ['/v2/keys/rotate', 'POST']] as const) {
      const res = await call(path, method);
      assert.equal(res.status, 403, `${method} ${path}`);
      if (method !== 'HEAD') assert.deepEqual(await res.json(), KEYS_REFUSED);
    }
    const byQuery = await fetch(`${t.queue().url}/v2/keys?qstash_token=${encodeURIComponent(t.queue().readOnlyToken)}`);
    assert.equal(byQuery.status, 403);
  });

  it('gives the read-only console no way to the keys', async () => {
    const res = await fetch(`${t.url}/console/api/info`, { headers: { authorization: `Bearer ${t.adminReadOnlyToken}` } });
    const text = await res.text();
    const { current, next } = { current: t.queue().currentSigningKey, next: t.queue().nextSigningKey };
    assert.ok(!text.includes(current) && !text.includes(next), 'no signing key in the console info');
    const { queue } = JSON.parse(text) as { queue: { url: string; token: string } };
    const keys = await fetch(`${t.url}${queue.url}/v2/keys`, { headers: { authorization: `Bearer ${queue.token}` } });
    assert.equal(keys.status, 403);
  });

  it('still reads messages, the DLQ and the logs through the SDK', async () => {
    const ro = readOnly();
    assert.ok(Array.isArray((await ro.dlq.listMessages()).messages));
    assert.ok(Array.isArray((await ro.logs()).logs));
    await assert.rejects(ro.publish({ url: 'http://127.0.0.1:1/x', body: 'x' }), (e: QstashError) => e.status === 403);
    // The full token still reads them.
    assert.equal((await client.http.request<{ current: string }>({ method: 'GET', path: ['v2', 'keys'] })).current, t.queue().currentSigningKey);
  });
});

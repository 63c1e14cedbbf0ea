// Tokens, signing keys and bad input: the token shape the SDKs decode, bearer and
// ?qstash_token=, the read-only token, GET /v2/keys and rotation (deliveries signed before and
// after verify against the rotated pair), and clear errors for bad destinations and settings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

describe('queue tokens and keys', () => {
  const { t, rx, client } = queueSuite();

  const call = (path: string, init: RequestInit = {}, token: string | null = t.queue().token) =>
    fetch(t.queue().url + path, { ...init, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(init.headers as Record<string, string>) } });

  it('issues tokens that are base64 of JSON with a UserID', () => {
    const decoded = JSON.parse(Buffer.from(t.queue().token, 'base64').toString('utf8'));
    assert.equal(typeof decoded.UserID, 'string');
    assert.notEqual(t.queue().readOnlyToken, t.queue().token);
  });

  it('refuses a missing or wrong token, and takes ?qstash_token=', async () => {
    let res = await call('/v2/keys', {}, null);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).status, 401);
    assert.equal((await call('/v2/keys', {}, 'wrong-token')).status, 401);
    res = await call(`/v2/keys?qstash_token=${encodeURIComponent(t.queue().token)}`, {}, null);
    assert.equal(res.status, 200);
  });

  it('lets the read-only token read but not publish', async () => {
    const ro = t.queue().readOnlyToken;
    assert.equal((await call('/v2/dlq', {}, ro)).status, 200);
    const res = await call(`/v2/publish/${rx.url}/ro`, { method: 'POST', body: 'x' }, ro);
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), { error: 'the read-only token cannot publish or change anything', status: 403 });
  });

  it('answers clear errors for bad destinations and settings', async () => {
    const bad = async (path: string, headers: Record<string, string>, status: number, error: RegExp) => {
      const res = await call(path, { method: 'POST', body: 'x', headers });
      const body = (await res.json()) as any;
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match(body.error, error);
    };
    await bad('/v2/publish/ftp://example.com/x', {}, 400, /invalid destination url/);
    await bad('/v2/publish/no-such-group', {}, 404, /url group 'no-such-group' not found/);
    await bad(`/v2/publish/${rx.url}/x`, { 'Upstash-Callback': 'not a url' }, 400, /invalid Upstash-Callback url/);
    await bad(`/v2/publish/${rx.url}/x`, { 'Service-Failure-Callback': 'nope' }, 400, /invalid Upstash-Failure-Callback url/);
    await bad(`/v2/publish/${rx.url}/x`, { 'Upstash-Delay': 'soon' }, 400, /invalid delay/);
    await bad(`/v2/publish/${rx.url}/x`, { 'Upstash-Retries': '-1' }, 400, /invalid retries/);
    const res = await call('/v2/messages/msg_unknown');
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: 'message msg_unknown not found', status: 404 });
  });

  it('takes the spec Service-* names for callbacks', async () => {
    const res = await call(`/v2/publish/${rx.url}/svc`, { method: 'POST', body: 'x', headers: { 'Service-Callback': `${rx.url}/svc-callback` } });
    assert.equal(res.status, 200);
    await eventually(async () => rx.at('/svc-callback').length === 1, 'the callback');
    assert.equal(JSON.parse(rx.at('/svc-callback')[0].body).status, 200);
  });

  it('deduplicates by id and by content', async () => {
    const first = await client.publish({ url: `${rx.url}/dedup`, body: 'a', deduplicationId: 'd-1', delay: 60 });
    const again = await client.publish({ url: `${rx.url}/dedup`, body: 'b', deduplicationId: 'd-1', delay: 60 });
    assert.equal(again.messageId, first.messageId);
    assert.equal(again.deduplicated, true);
    const c1 = await client.publish({ url: `${rx.url}/dedup`, body: 'same', contentBasedDeduplication: true, delay: 60 });
    const c2 = await client.publish({ url: `${rx.url}/dedup`, body: 'same', contentBasedDeduplication: true, delay: 60 });
    const c3 = await client.publish({ url: `${rx.url}/dedup`, body: 'other', contentBasedDeduplication: true, delay: 60 });
    assert.equal(c2.messageId, c1.messageId);
    assert.notEqual(c3.messageId, c1.messageId);
    assert.deepEqual(await client.messages.cancel([first.messageId, c1.messageId, c3.messageId]), { cancelled: 3 });
    await assert.rejects(client.messages.get(first.messageId), /not found/);
  });

  it('publishes a batch, one answer per message', async () => {
    const out = await client.batchJSON([
      { url: `${rx.url}/batch-a`, body: { n: 1 } },
      { url: `${rx.url}/batch-b`, body: { n: 2 } },
    ]);
    assert.equal(out.length, 2);
    await eventually(async () => rx.at('/batch-a').length === 1 && rx.at('/batch-b').length === 1, 'both batch deliveries');
    assert.equal(rx.at('/batch-b')[0].body, '{"n":2}');
    assert.ok(rx.at('/batch-a')[0].verified);
  });

  it('rotates the signing keys: next becomes current, and deliveries verify with the new pair', async () => {
    const before = (await (await call('/v2/keys')).json()) as any;
    assert.deepEqual(before, { current: t.queue().currentSigningKey, next: t.queue().nextSigningKey });
    const rotated = (await (await call('/v2/keys/rotate', { method: 'POST' })).json()) as any;
    assert.equal(rotated.current, before.next);
    assert.notEqual(rotated.next, before.next);
    assert.deepEqual(await (await call('/v2/keys')).json(), rotated);
    // A receiver still configured with the old pair accepts the new signature through its `next` key.
    await client.publish({ url: `${rx.url}/rotated-old`, body: 'x' });
    await eventually(async () => rx.at('/rotated-old').length === 1, 'delivery after rotation');
    assert.equal(rx.at('/rotated-old')[0].verified, true);
    rx.setKeys(rotated);
    await client.publish({ url: `${rx.url}/rotated-new`, body: 'y' });
    await eventually(async () => rx.at('/rotated-new').length === 1, 'delivery with the new pair');
    assert.equal(rx.at('/rotated-new')[0].verified, true);
  });
});

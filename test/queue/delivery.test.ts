// The queue through the official @upstash/qstash Client, delivering to a real local receiver
// that verifies every request with the SDK's Receiver: bodies and headers, a steady trickle of
// publishes and a backlog with failures (none left behind), delay, retries, 489, callbacks,
// failure callbacks and the DLQ. Retry delays are scaled down (queue.retryDelayScale) so the
// real back-off runs in milliseconds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

describe('queue delivery', () => {
  const { rx, client } = queueSuite();

  const arrived = (path: string, n = 1) => eventually(async () => rx.at(path).length >= n, `${n} deliveries to ${path}`);

  it('delivers a JSON publish, signed, with forwarded headers', async () => {
    const res = await client.publishJSON({ url: `${rx.url}/json`, body: { hello: 'world' }, headers: { 'x-custom': 'yes' } });
    assert.match(res.messageId, /^msg_/);
    assert.equal(res.url, `${rx.url}/json`);
    await arrived('/json');
    const [d] = rx.at('/json');
    assert.equal(d.verified, true, d.verifyError);
    assert.equal(d.method, 'POST');
    assert.equal(d.body, '{"hello":"world"}');
    assert.equal(d.headers['content-type'], 'application/json');
    assert.equal(d.headers['x-custom'], 'yes');
    assert.equal(d.headers['user-agent'], 'Upstash-QStash');
    assert.equal(d.headers['upstash-message-id'], res.messageId);
    assert.equal(d.headers['upstash-retried'], '0');
  });

  it('delivers every message of a steady trickle of publishes, each arriving while others are published', async () => {
    // One publish every 5 ms for 3 s, not awaited in turn: publishes, claims and deliveries
    // interleave, as they do under a real load.
    const publishes: Promise<string>[] = [];
    for (const end = Date.now() + 3000; Date.now() < end; ) {
      publishes.push(client.publish({ url: `${rx.url}/trickle`, body: `t${publishes.length}` }).then((r) => r.messageId));
      await new Promise((r) => setTimeout(r, 5));
    }
    const ids = await Promise.all(publishes);
    const missing = () => ids.filter((id) => !rx.at('/trickle').some((d) => d.headers['upstash-message-id'] === id));
    await eventually(async () => missing().length === 0, `all ${ids.length} messages delivered`, 1500).catch(async (e: Error) => {
      const stuck = missing();
      throw new Error(`${e.message}: ${stuck.length} missing, e.g. ${JSON.stringify(await client.messages.get(stuck[0]))}`);
    });
  });

  /** Publishes 400 messages due at once to `path`; every tenth is answered `failure` once, and must come again. */
  async function backlogFailingOnce(path: string, failure: { status: number; headers?: Record<string, string> }): Promise<void> {
    const failed = new Set<string>();
    rx.answer(path, (_, d) => (d.body.startsWith('f') && !failed.has(d.body) && failed.add(d.body) ? { ...failure, body: 'once' } : { status: 200 }));
    const bodies = Array.from({ length: 400 }, (_, i) => `${i % 10 === 0 ? 'f' : 'q'}${i}`);
    const notBefore = Math.ceil(Date.now() / 1000) + 2;
    for (let i = 0; i < bodies.length; i += 100) await client.batch(bodies.slice(i, i + 100).map((body) => ({ url: `${rx.url}${path}`, body, notBefore })));
    const times = (body: string) => rx.at(path).filter((d) => d.body === body).length;
    const owed = () => bodies.filter((b) => times(b) < (b.startsWith('f') ? 2 : 1));
    await eventually(async () => owed().length === 0, 'every message delivered, the failing ones retried', 3000).catch((e: Error) => {
      throw new Error(`${e.message}: ${owed().length} owed, e.g. ${owed().slice(0, 3).join(', ')}`);
    });
  }

  it('delivers every message of a backlog due at once, a tenth of them failing once', () => backlogFailingOnce('/backlog', { status: 500 }));

  it('retries at once, in a backlog due at once, every message whose destination asks so (Retry-After: 0)', () =>
    // Each retry is due as its outcome is being written, while other deliveries end and look for work.
    backlogFailingOnce('/retry-now', { status: 503, headers: { 'retry-after': '0' } }));

  it('delivers a raw body with the method asked for', async () => {
    await client.publish({ url: `${rx.url}/raw`, body: 'plain ✓ text', method: 'PUT', headers: { 'content-type': 'text/plain' } });
    await arrived('/raw');
    const [d] = rx.at('/raw');
    assert.equal(d.verified, true, d.verifyError);
    assert.equal(d.method, 'PUT');
    assert.equal(d.body, 'plain ✓ text');
    assert.equal(d.headers['content-type'], 'text/plain');
  });

  it('holds a delayed message until its time', async () => {
    const res = await client.publish({ url: `${rx.url}/delayed`, body: 'later', delay: 1 });
    const m = await client.messages.get(res.messageId);
    assert.equal(m.notBefore! - m.createdAt, 1000);
    assert.equal(m.body, 'later');
    await arrived('/delayed');
    assert.ok(Date.now() >= m.notBefore!);
    assert.equal(rx.at('/delayed')[0].verified, true);
  });

  it('retries a failing destination with the same message id', async () => {
    rx.answer('/flaky', (n) => (n < 2 ? { status: 500, body: 'down' } : { status: 200, body: 'up' }));
    const res = await client.publish({ url: `${rx.url}/flaky`, body: 'x', retries: 3 });
    await arrived('/flaky', 3);
    const ds = rx.at('/flaky');
    assert.deepEqual(ds.map((d) => d.headers['upstash-retried']), ['0', '1', '2']);
    assert.ok(ds.every((d) => d.verified && d.headers['upstash-message-id'] === res.messageId));
    await eventually(async () => (await client.logs({ filter: { messageId: res.messageId, state: 'DELIVERED' } })).logs.length === 1, 'DELIVERED log');
    const retries = await client.logs({ filter: { messageId: res.messageId, state: 'RETRY' } });
    assert.equal(retries.logs.length, 2);
  });

  it('honours Retry-After', async () => {
    rx.answer('/busy', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }));
    const res = await client.publish({ url: `${rx.url}/busy`, body: 'x', retries: 1 });
    await eventually(async () => (await client.logs({ filter: { messageId: res.messageId, state: 'RETRY' } })).logs.length === 1, 'RETRY log');
    const [retry] = (await client.logs({ filter: { messageId: res.messageId, state: 'RETRY' } })).logs;
    // 2 s scaled by 0.001, rather than the back-off's e^2.5 s scaled.
    assert.ok(retry.nextDeliveryTime! - retry.time <= 2 + 5, `${retry.nextDeliveryTime! - retry.time} ms`);
    await arrived('/busy', 2);
  });

  it('stops retrying on 489 with Upstash-NonRetryable-Error and dead-letters the message', async () => {
    rx.answer('/refuse', () => ({ status: 489, headers: { 'upstash-nonretryable-error': 'true' }, body: 'no' }));
    const res = await client.publish({ url: `${rx.url}/refuse`, body: 'x', retries: 5 });
    let dlq: Awaited<ReturnType<typeof client.dlq.listMessages>> | undefined;
    await eventually(async () => {
      dlq = await client.dlq.listMessages();
      return dlq.messages.some((m) => m.messageId === res.messageId);
    }, 'the message in the DLQ');
    assert.equal(rx.at('/refuse').length, 1);
    const entry = dlq!.messages.find((m) => m.messageId === res.messageId)!;
    assert.equal(entry.responseStatus, 489);
    assert.equal(entry.responseBody, 'no');
  });

  it('posts a callback with the spec body when delivery finishes', async () => {
    rx.answer('/with-callback', () => ({ status: 201, headers: { 'x-answer': '42' }, body: 'created' }));
    const res = await client.publish({
      url: `${rx.url}/with-callback`,
      body: 'source body',
      headers: { 'x-src': 'a' },
      callback: `${rx.url}/callback`,
      notBefore: undefined,
    });
    await arrived('/callback');
    const [cb] = rx.at('/callback');
    assert.equal(cb.verified, true, cb.verifyError);
    assert.notEqual(cb.headers['upstash-message-id'], res.messageId);
    const body = JSON.parse(cb.body);
    assert.equal(body.status, 201);
    assert.equal(Buffer.from(body.body, 'base64').toString(), 'created');
    assert.deepEqual(body.header['x-answer'], ['42']);
    assert.equal(body.retried, 0);
    assert.equal(body.maxRetries, 3);
    assert.equal(body.sourceMessageId, res.messageId);
    assert.equal(body.sourceMessasgeId, res.messageId);
    assert.equal(body.url, `${rx.url}/with-callback`);
    assert.equal(body.method, 'POST');
    assert.deepEqual(body.sourceHeader['x-src'], ['a']);
    assert.equal(Buffer.from(body.sourceBody, 'base64').toString(), 'source body');
    assert.match(body.notBefore, /^\d+$/);
    assert.match(body.createdAt, /^\d+$/);
    for (const k of ['topicName', 'endpointName', 'scheduleId', 'callerIP']) assert.equal(typeof body[k], 'string', k);
    assert.equal('dlqId' in body, false);
  });

  it('posts a failure callback with the dlqId after the last retry; the DLQ can get, retry and delete it', async () => {
    rx.answer('/broken', () => ({ status: 500, body: 'boom' }));
    const res = await client.publish({
      url: `${rx.url}/broken`,
      body: 'payload',
      retries: 1,
      failureCallback: `${rx.url}/failed`,
      headers: { 'Upstash-Failure-Callback-Forward-X-Who': 'failure' },
    });
    await arrived('/failed');
    assert.equal(rx.at('/broken').length, 2);
    const [fc] = rx.at('/failed');
    assert.equal(fc.verified, true, fc.verifyError);
    assert.equal(fc.headers['x-who'], 'failure');
    const body = JSON.parse(fc.body);
    assert.equal(body.status, 500);
    assert.equal(Buffer.from(body.body, 'base64').toString(), 'boom');
    assert.equal(body.retried, 1);
    assert.equal(body.maxRetries, 1);
    assert.equal(body.sourceMessageId, res.messageId);
    assert.match(body.dlqId, /^dlq_/);

    const entry = await client.dlq.listMessages({ dlqIds: [body.dlqId] });
    assert.equal(entry.messages.length, 1);
    assert.equal(entry.messages[0].messageId, res.messageId);
    assert.equal(entry.messages[0].body, 'payload');

    rx.answer('/broken', () => ({ status: 200 }));
    const retried = await client.dlq.retry(body.dlqId);
    assert.equal(retried.responses.length, 1);
    await arrived('/broken', 3);
    assert.equal((await client.dlq.listMessages({ dlqIds: [body.dlqId] })).messages.length, 0);

    rx.answer('/gone', () => ({ status: 500 }));
    await client.publish({ url: `${rx.url}/gone`, body: 'x', retries: 0 });
    let dlqId = '';
    await eventually(async () => {
      const list = await client.dlq.listMessages({ filter: { url: `${rx.url}/gone` } });
      dlqId = list.messages[0]?.dlqId ?? '';
      return dlqId !== '';
    }, 'the /gone message in the DLQ');
    assert.deepEqual(await client.dlq.delete(dlqId), { deleted: 1 });
    assert.equal((await client.dlq.listMessages({ filter: { url: `${rx.url}/gone` } })).messages.length, 0);
  });
});

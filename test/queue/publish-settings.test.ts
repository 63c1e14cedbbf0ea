// Publish settings beyond the basics, through the official SDK and raw HTTP: the
// Upstash-Retry-Delay expression (it sets the gaps between retries, a bad one is refused with
// its position), Upstash-Redact-Fields (hashes in message get, logs and the DLQ; the real values
// delivered), Upstash-Header-Forward, several labels, settings as query parameters, the
// caller's address, the ACTIVE state in the logs, and the settings surviving a restart.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually } from '../support/eventually.js';
import { startTestLarder } from '../support/larder.js';
import { queueClient, queueSuite, startQueueReceiver } from '../support/queue-receiver.js';

describe('queue publish settings', () => {
  const { t, rx, client } = queueSuite();

  const call = (path: string, init: RequestInit = {}) =>
    fetch(t.queue().url + path, { ...init, headers: { authorization: `Bearer ${t.queue().token}`, ...(init.headers as Record<string, string>) } });
  const sha = (s: string) => `REDACTED:${createHash('sha256').update(s).digest('hex')}`;
  const logs = async (messageId: string, state?: string) =>
    (await client.logs({ filter: { messageId, ...(state !== undefined && { state: state as 'CREATED' }) } })).logs;

  it('spaces retries by the Upstash-Retry-Delay expression', async () => {
    const times: number[] = [];
    rx.answer('/gaps', (n) => {
      times.push(Date.now());
      return n < 3 ? { status: 500 } : { status: 200 };
    });
    // 100 s, 200 s, 400 s, scaled by the suite's 0.001: 100, 200, 400 ms. The default back-off
    // would start with e^2.5 s (12 ms scaled).
    const res = await client.publish({ url: `${rx.url}/gaps`, body: 'x', retries: 3, retryDelay: 'pow(2, retried) * 100000' });
    await eventually(async () => (await logs(res.messageId, 'DELIVERED')).length === 1, 'the delivery after three retries');
    assert.deepEqual(rx.at('/gaps').map((d) => d.headers['upstash-retried']), ['0', '1', '2', '3']);
    const gaps = times.slice(1).map((at, i) => at - times[i]);
    [100, 200, 400].forEach((least, i) => assert.ok(gaps[i] >= least, `gap ${i + 1} is ${gaps[i]} ms, expected at least ${least}`));
    const planned = (await logs(res.messageId, 'RETRY')).reverse().map((e) => e.nextDeliveryTime! - e.time);
    assert.equal(planned.length, 3);
    assert.ok(planned[0] < planned[1] && planned[1] < planned[2], `planned waits ${planned.join(', ')}`);
  });

  it("lets the destination's Retry-After win over the expression", async () => {
    rx.answer('/after', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200 }));
    const res = await client.publish({ url: `${rx.url}/after`, body: 'x', retries: 1, retryDelay: '86400000' });
    await eventually(async () => rx.at('/after').length === 2, 'the retry asked for by Retry-After');
    const [retry] = await logs(res.messageId, 'RETRY');
    assert.ok(retry.nextDeliveryTime! <= retry.time, `${retry.nextDeliveryTime} > ${retry.time}`);
  });

  it('refuses a bad Upstash-Retry-Delay with its position', async () => {
    const bad = async (expression: string, error: string) => {
      const res = await call(`/v2/publish/${rx.url}/never`, { method: 'POST', body: 'x', headers: { 'Upstash-Retry-Delay': expression } });
      assert.equal(res.status, 400, expression);
      assert.deepEqual(await res.json(), { error: `invalid Upstash-Retry-Delay '${expression}' at character ${error}`, status: 400 });
    };
    await bad('pow(2, retried', "15: expected ',' or ')'");
    await bad('1000 +', '7: the expression ends too early');
    await bad('1000 * retries', "8: unknown name 'retries' (retried, pow, sqrt, abs, exp, floor, ceil, round, min, max)");
    await bad('sqrt(1, 2)', '1: sqrt takes 1 argument, not 2');
    await bad('1000; process.exit()', "5: unexpected ';'");
    await bad('max()', "5: unexpected ')'");
    await assert.rejects(client.publish({ url: `${rx.url}/never`, body: 'x', retryDelay: '2 ** 3' }), /at character 4/);
    const cb = await call(`/v2/publish/${rx.url}/never`, {
      method: 'POST',
      body: 'x',
      headers: { 'Upstash-Callback': `${rx.url}/cb`, 'Upstash-Callback-Retry-Delay': 'retried +' },
    });
    assert.deepEqual(await cb.json(), { error: "invalid Upstash-Callback-Retry-Delay 'retried +' at character 10: the expression ends too early", status: 400 });
    assert.equal(rx.at('/never').length, 0);
    // Every operator and function parses.
    const ok = await call(`/v2/publish/${rx.url}/fine`, {
      method: 'POST',
      body: 'x',
      headers: { 'Upstash-Retry-Delay': 'max(10, min(1, 2, 3) + abs(-4) * floor(2.5) / ceil(0.2) - round(1.4) ^ 2 + sqrt(exp(0)) + .5 - (retried))', 'Upstash-Delay': '1h' },
    });
    assert.equal(ok.status, 200);
    await client.messages.cancel(((await ok.json()) as { messageId: string }).messageId);
  });

  it('shows redacted fields as hashes in message get, logs and the DLQ, and delivers the real values', async () => {
    const res = await client.publish({
      url: `${rx.url}/secret`,
      body: 'the secret body',
      headers: { authorization: 'Basic c2VjcmV0', 'x-plain': 'visible' },
      redact: { body: true, header: ['Authorization'] },
      delay: 3600,
    });
    const m = await client.messages.get(res.messageId);
    assert.equal(m.body, sha('the secret body'));
    assert.deepEqual(m.header?.['authorization'], [sha('Basic c2VjcmV0')]);
    assert.deepEqual(m.header?.['x-plain'], ['visible']);
    const [created] = await logs(res.messageId, 'CREATED');
    assert.equal(Buffer.from(created.body!, 'base64').toString(), sha('the secret body'));
    assert.equal(created.header?.['authorization'], sha('Basic c2VjcmV0'));
    await client.messages.cancel(res.messageId);

    rx.answer('/secret-fails', (n) => ({ status: n === 0 ? 500 : 200 }));
    const failing = await client.publish({ url: `${rx.url}/secret-fails`, body: 'dead secret', headers: { 'x-token': 't0k' }, redact: { body: true, header: true }, retries: 0 });
    let dlqId = '';
    await eventually(async () => {
      const entry = (await client.dlq.listMessages()).messages.find((e) => e.messageId === failing.messageId);
      if (entry === undefined) return false;
      assert.equal(entry.body, sha('dead secret'));
      assert.deepEqual(entry.header?.['x-token'], [sha('t0k')]);
      dlqId = entry.dlqId;
      return true;
    }, 'the dead letter');
    await client.dlq.retry(dlqId);
    await eventually(async () => rx.at('/secret-fails').length === 2, 'the retried dead letter');
    const [first, again] = rx.at('/secret-fails');
    for (const d of [first, again]) {
      assert.equal(d.body, 'dead secret');
      assert.equal(d.headers['x-token'], 't0k');
      assert.equal(d.verified, true, d.verifyError);
    }
  });

  it('refuses an unknown Upstash-Redact-Fields entry', async () => {
    const res = await call(`/v2/publish/${rx.url}/never`, { method: 'POST', body: 'x', headers: { 'Upstash-Redact-Fields': 'body,cookies' } });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: "invalid Upstash-Redact-Fields entry: 'cookies' (body, header or header[Name])", status: 400 });
  });

  it('forwards every request header with Upstash-Header-Forward, but not the token or the settings', async () => {
    const res = await call(`/v2/publish/${rx.url}/hook`, {
      method: 'POST',
      body: '{"event":"push"}',
      headers: { 'Upstash-Header-Forward': 'true', 'X-Hub-Signature': 'sha1=abc', 'Content-Type': 'application/json', 'Upstash-Retries': '0' },
    });
    assert.equal(res.status, 200);
    // A webhook sender that cannot add headers puts both the token and the switch in the query.
    const q = `qstash_token=${encodeURIComponent(t.queue().token)}&upstash-header-forward=true`;
    const viaQuery = await fetch(`${t.queue().url}/v2/publish/${rx.url}/hook2?${q}`, { method: 'POST', body: 'y', headers: { 'X-Event': 'ping', Authorization: 'Basic dXNlcjpwdw==' } });
    assert.equal(viaQuery.status, 200);
    await eventually(async () => rx.at('/hook').length === 1 && rx.at('/hook2').length === 1, 'both webhooks');
    const [d] = rx.at('/hook');
    assert.equal(d.headers['x-hub-signature'], 'sha1=abc');
    assert.equal(d.headers['content-type'], 'application/json');
    assert.equal(d.headers['authorization'], undefined);
    assert.equal(d.headers['upstash-header-forward'], undefined);
    assert.equal(d.headers['upstash-retries'], undefined);
    assert.equal(d.verified, true, d.verifyError);
    const [d2] = rx.at('/hook2');
    assert.equal(d2.headers['x-event'], 'ping');
    assert.equal(d2.headers['authorization'], 'Basic dXNlcjpwdw==');
    // Without the switch only Upstash-Forward-* headers travel.
    await call(`/v2/publish/${rx.url}/nohook`, { method: 'POST', body: 'z', headers: { 'X-Hub-Signature': 'sha1=abc' } });
    await eventually(async () => rx.at('/nohook').length === 1, 'the plain publish');
    assert.equal(rx.at('/nohook')[0].headers['x-hub-signature'], undefined);
  });

  it('keeps several labels, comma-separated or in repeated headers', async () => {
    const viaSdk = await client.publish({ url: `${rx.url}/labels`, body: 'x', label: ['alpha', 'beta'], delay: 3600 });
    assert.deepEqual((await client.messages.get(viaSdk.messageId)).labels, ['alpha', 'beta']);
    const u = new URL(`${t.queue().url}/v2/publish/${rx.url}/labels`);
    const repeated = await new Promise<{ messageId: string }>((resolve, reject) => {
      const req = request(
        u,
        { method: 'POST', headers: { authorization: `Bearer ${t.queue().token}`, 'upstash-label': ['one', 'two, three'], 'upstash-delay': '1h' } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode} ${text}`))));
        },
      );
      req.on('error', reject);
      req.end('x');
    });
    assert.deepEqual((await client.messages.get(repeated.messageId)).labels, ['one', 'two', 'three']);
    const byLabel = await client.logs({ filter: { label: 'two', state: 'CREATED' } });
    assert.deepEqual(byLabel.logs.map((e) => e.messageId), [repeated.messageId]);
    await client.messages.cancel([viaSdk.messageId, repeated.messageId]);
  });

  it('takes settings as lower-case query parameters, a header winning over its parameter', async () => {
    const q = 'upstash-retries=0&upstash-delay=1s&upstash-forward-x-from-query=yes&keep=1&upstash-label=q1&upstash-label=q2';
    let res = await call(`/v2/publish/${rx.url}/qp?${q}`, { method: 'POST', body: 'x' });
    assert.equal(res.status, 200);
    const { messageId } = (await res.json()) as { messageId: string };
    const m = await client.messages.get(messageId);
    assert.equal(m.url, `${rx.url}/qp?keep=1`);
    assert.equal(m.maxRetries, 0);
    assert.equal(m.notBefore! - m.createdAt, 1000);
    assert.deepEqual(m.labels, ['q1', 'q2']);
    await eventually(async () => rx.at('/qp?keep=1').length === 1, 'the delayed delivery');
    assert.equal(rx.at('/qp?keep=1')[0].headers['x-from-query'], 'yes');

    res = await call(`/v2/publish/${rx.url}/qp2?upstash-retries=5&upstash-delay=2h`, { method: 'POST', body: 'x', headers: { 'Upstash-Retries': '2' } });
    const both = await client.messages.get(((await res.json()) as { messageId: string }).messageId);
    assert.equal(both.maxRetries, 2);
    assert.equal(both.notBefore! - both.createdAt, 7_200_000);
    await client.messages.cancel(both.messageId);

    res = await call(`/v2/publish/${rx.url}/qp3?upstash-retry-delay=pow(2`, { method: 'POST', body: 'x' });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: string }).error, /^invalid Upstash-Retry-Delay 'pow\(2' at character 6: expected ',' or '\)'$/);

    res = await call('/v2/batch?upstash-delay=1h', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { destination: `${rx.url}/qb1`, body: 'a' },
        { destination: `${rx.url}/qb2`, body: 'b', headers: { 'Upstash-Delay': '2h' } },
      ]),
    });
    assert.equal(res.status, 200);
    const ids = ((await res.json()) as { messageId: string }[]).map((r) => r.messageId);
    const [b1, b2] = await Promise.all(ids.map((id) => client.messages.get(id)));
    assert.equal(b1.notBefore! - b1.createdAt, 3_600_000);
    assert.equal(b2.notBefore! - b2.createdAt, 7_200_000);
    await client.messages.cancel(ids);
  });

  it("records the publisher's socket address as the caller, unless a proxy names one", async () => {
    const res = await client.publish({ url: `${rx.url}/caller`, body: 'x', delay: 3600 });
    assert.equal((await client.messages.get(res.messageId)).callerIp, '127.0.0.1');
    await client.messages.cancel(res.messageId);
    const proxied = await call(`/v2/publish/${rx.url}/caller`, { method: 'POST', body: 'x', headers: { 'X-Forwarded-For': '203.0.113.7, 10.0.0.1' } });
    await eventually(async () => rx.at('/caller').length === 1, 'the proxied delivery');
    assert.equal(rx.at('/caller')[0].headers['upstash-caller-ip'], '203.0.113.7');
    assert.equal(proxied.status, 200);
  });

  it('logs ACTIVE when an attempt starts; the IN_PROGRESS filter covers it', async () => {
    rx.answer('/active', (n) => ({ status: n === 0 ? 500 : 200 }));
    const res = await client.publish({ url: `${rx.url}/active`, body: 'x', retries: 1 });
    await eventually(async () => (await logs(res.messageId, 'DELIVERED')).length === 1, 'the delivery');
    const states = (await logs(res.messageId)).reverse().map((e) => e.state);
    assert.deepEqual(states, ['CREATED', 'ACTIVE', 'ERROR', 'RETRY', 'ACTIVE', 'DELIVERED']);
    const inProgress = (await logs(res.messageId, 'IN_PROGRESS')).reverse().map((e) => e.state);
    assert.deepEqual(inProgress, ['ACTIVE', 'ERROR', 'RETRY', 'ACTIVE']);
  });

  describe('across a restart', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-settings-'));
    after(() => rmSync(dataDir, { recursive: true, force: true }));

    it('keeps the retry delay and the redaction of a waiting message', async () => {
      const config = { queue: { retryDelayScale: 0.001 } };
      const first = await startTestLarder(config, dataDir);
      const q = first.queue();
      const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
      try {
        const times: number[] = [];
        rx.answer('/kept', (n) => {
          times.push(Date.now());
          return { status: n === 0 ? 500 : 200 };
        });
        const { messageId } = await queueClient(q).publish({ url: `${rx.url}/kept`, body: 'kept secret', redact: { body: true }, retryDelay: '300000', retries: 1, delay: 2 });
        await first.close(true);
        const second = await startTestLarder(config, dataDir);
        try {
          const client = queueClient({ url: second.queue().url, token: q.token });
          assert.equal((await client.messages.get(messageId)).body, sha('kept secret'));
          await eventually(async () => rx.at('/kept').length === 2, 'the delivery and its retry');
          // 300 s scaled: the back-off would have waited 12 ms.
          assert.ok(times[1] - times[0] >= 300, `${times[1] - times[0]} ms between the attempts`);
          assert.deepEqual(rx.at('/kept').map((d) => d.body), ['kept secret', 'kept secret']);
        } finally {
          await second.close(true);
        }
      } finally {
        await rx.close();
      }
    });
  });
});

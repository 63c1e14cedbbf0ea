// Which destinations the queue may call: loopback is allowed by default (local development);
// queue.denyDestinations and queue.allowDestinations (host names, *.domains, IPs, CIDRs) and
// queue.production (no loopback, private or link-local addresses) refuse others with 400 at
// publish, callback URLs included, and again at delivery (a restart under production
// dead-letters a message accepted before). Also the token checks every publish goes through.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validate } from '../../src/config/load.js';
import { eventually } from '../support/eventually.js';
import { startTestLarder, suiteLarder, type TestLarder } from '../support/larder.js';
import { queueClient, queueSuite, startQueueReceiver, type QueueReceiver } from '../support/queue-receiver.js';

const publish = (t: TestLarder, destination: string, headers: Record<string, string> = {}, token = t.queue().token) =>
  fetch(`${t.queue().url}/v2/publish/${destination}`, { method: 'POST', body: 'x', headers: { authorization: `Bearer ${token}`, ...headers } });

async function refused(t: TestLarder, destination: string, error: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await publish(t, destination, headers);
  assert.deepEqual(await res.json(), { error, status: 400 }, destination);
  assert.equal(res.status, 400);
}

describe('queue destinations', () => {
  describe('by default', () => {
    const { t, rx, client } = queueSuite();

    it('delivers to loopback, for local development', async () => {
      await client.publish({ url: `${rx.url}/local`, body: 'x' });
      const viaName = await publish(t, `${rx.url.replace('127.0.0.1', 'localhost')}/by-name`);
      assert.equal(viaName.status, 200);
      await eventually(async () => rx.at('/local').length === 1 && rx.at('/by-name').length === 1, 'both deliveries');
      assert.equal(rx.at('/local')[0].verified, true);
    });

    it('refuses a wrong token with 401 and a read-only token with 403', async () => {
      const wrong = await publish(t, `${rx.url}/x`, {}, 'not-the-token');
      assert.equal(wrong.status, 401);
      assert.equal(((await wrong.json()) as { status: number }).status, 401);
      const ro = await publish(t, `${rx.url}/x`, {}, t.queue().readOnlyToken);
      assert.equal(ro.status, 403);
      assert.deepEqual(await ro.json(), { error: 'the read-only token cannot publish or change anything', status: 403 });
      const roBatch = await fetch(`${t.queue().url}/v2/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.queue().readOnlyToken}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ destination: `${rx.url}/x` }]),
      });
      assert.equal(roBatch.status, 403);
      assert.equal(rx.at('/x').length, 0);
    });
  });

  describe('with deny and allow lists', () => {
    const deny = suiteLarder({ queue: { denyDestinations: ['localhost', '10.0.0.0/8', '*.internal.test'] } });
    const allow = suiteLarder({ queue: { allowDestinations: ['*.example.com', '127.0.0.1'] } });

    it('refuses denied host names and ranges, destinations and callbacks alike', async () => {
      await refused(deny, 'http://localhost:9/x', "destination 'http://localhost:9/x' is not allowed: localhost is denied by queue.denyDestinations");
      await refused(deny, 'http://10.20.30.40/x', "destination 'http://10.20.30.40/x' is not allowed: 10.20.30.40 is denied by queue.denyDestinations");
      await refused(deny, 'https://db.internal.test/x', "destination 'https://db.internal.test/x' is not allowed: db.internal.test is denied by queue.denyDestinations");
      await refused(
        deny,
        'http://127.0.0.1:9/x',
        "Upstash-Callback 'http://localhost:9/cb' is not allowed: localhost is denied by queue.denyDestinations",
        { 'Upstash-Callback': 'http://localhost:9/cb' },
      );
      await refused(
        deny,
        'http://127.0.0.1:9/x',
        "Upstash-Failure-Callback 'http://10.0.0.1/f' is not allowed: 10.0.0.1 is denied by queue.denyDestinations",
        { 'Upstash-Failure-Callback': 'http://10.0.0.1/f' },
      );
      const res = await fetch(`${deny.queue().url}/v2/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${deny.queue().token}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ destination: 'http://127.0.0.1:9/ok', headers: { 'Upstash-Delay': '1h' } }, { destination: 'http://localhost:9/no' }]),
      });
      assert.equal(res.status, 400);
      // Nothing of a refused batch is stored.
      const created = await queueClient(deny.queue()).logs({ filter: { url: 'http://127.0.0.1:9/ok' } });
      assert.equal(created.logs.length, 0);
    });

    it('takes only what the allow list names', async () => {
      const ok = await publish(allow, 'http://127.0.0.1:9/x', { 'Upstash-Delay': '1h' });
      assert.equal(ok.status, 200);
      const named = await publish(allow, 'https://api.example.com/hook', { 'Upstash-Delay': '1h' });
      assert.equal(named.status, 200);
      // A name is allowed when every address it resolves to is.
      const byName = await publish(allow, 'http://localhost:9/x', { 'Upstash-Delay': '1h' });
      assert.equal(byName.status, 200);
      await refused(allow, 'http://203.0.113.9/x', "destination 'http://203.0.113.9/x' is not allowed: 203.0.113.9 is not in queue.allowDestinations");
      const client = queueClient(allow.queue());
      for (const r of [ok, named, byName]) await client.messages.cancel(((await r.json()) as { messageId: string }).messageId);
    });
  });

  describe('in production mode', () => {
    const t = suiteLarder({ queue: { production: true } });

    it('refuses loopback, private and link-local destinations, by address or by name', async () => {
      const why = (host: string) => `${host} is a loopback, private or link-local address (queue.production)`;
      for (const [url, host] of [
        ['http://127.0.0.1:9/x', '127.0.0.1'],
        ['http://[::1]:9/x', '::1'],
        ['http://10.1.2.3/x', '10.1.2.3'],
        ['http://172.20.0.5/x', '172.20.0.5'],
        ['http://192.168.1.1/x', '192.168.1.1'],
        ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
        ['http://[fe80::1]/x', 'fe80::1'],
        ['http://[fd00::5]/x', 'fd00::5'],
        ['http://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
        ['http://0.0.0.0:9/x', '0.0.0.0'],
      ]) {
        await refused(t, url, `destination '${url}' is not allowed: ${why(host)}`);
      }
      await refused(t, 'http://localhost:9/x', "destination 'http://localhost:9/x' is not allowed: localhost resolves to 127.0.0.1, which is a loopback, private or link-local address (queue.production)");
    });

    it('takes public destinations and still checks their callbacks', async () => {
      const res = await publish(t, 'http://203.0.113.10/hook', { 'Upstash-Delay': '1h' });
      assert.equal(res.status, 200);
      await queueClient(t.queue()).messages.cancel(((await res.json()) as { messageId: string }).messageId);
      await refused(
        t,
        'http://203.0.113.10/hook',
        "Upstash-Callback 'http://127.0.0.1:9/cb' is not allowed: 127.0.0.1 is a loopback, private or link-local address (queue.production)",
        { 'Upstash-Callback': 'http://127.0.0.1:9/cb' },
      );
    });

    it('refuses a schedule to a private destination when it is created', async () => {
      const res = await fetch(`${t.queue().url}/v2/schedules/http://192.168.0.10/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.queue().token}`, 'Upstash-Cron': '0 * * * *' },
      });
      assert.deepEqual(await res.json(), {
        error: "destination 'http://192.168.0.10/job' is not allowed: 192.168.0.10 is a loopback, private or link-local address (queue.production)",
        status: 400,
      });
      assert.deepEqual(await queueClient(t.queue()).schedules.list(), []);
    });
  });

  describe('at delivery', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-destinations-'));
    let rx: QueueReceiver | undefined;
    after(async () => {
      await rx?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('dead-letters a message accepted before production mode was switched on', async () => {
      const first = await startTestLarder({ queue: { retryDelayScale: 0.001 } }, dataDir);
      const q = first.queue();
      rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
      const { messageId } = await queueClient(q).publish({ url: `${rx.url}/later`, body: 'x', delay: 2, retries: 3 });
      await first.close(true);
      const second = await startTestLarder({ queue: { retryDelayScale: 0.001, production: true } }, dataDir);
      try {
        const client = queueClient({ url: second.queue().url, token: q.token });
        let error = '';
        await eventually(async () => {
          const entry = (await client.dlq.listMessages()).messages.find((m) => m.messageId === messageId);
          error = (entry as { error?: string } | undefined)?.error ?? '';
          return entry !== undefined;
        }, 'the refused message in the DLQ');
        assert.equal(error, 'destination not allowed: 127.0.0.1 is a loopback, private or link-local address (queue.production)');
        assert.equal(rx.at('/later').length, 0);
        // Refused for good: no retries were spent on it.
        assert.equal((await client.logs({ filter: { messageId, state: 'RETRY' } })).logs.length, 0);
      } finally {
        await second.close(true);
      }
    });
  });

  describe('config', () => {
    let message = '';
    before(() => {
      try {
        validate({ queue: { allowDestinations: ['10.0.0.0/33', 'bad host!'] } });
      } catch (e) {
        message = (e as Error).message;
      }
    });

    it('refuses malformed rules at start, naming them', () => {
      assert.match(message, /queue\.allowDestinations\.0: '10\.0\.0\.0\/33': the prefix length must be 0 to 32/);
      assert.match(message, /queue\.allowDestinations\.1: 'bad host!' is neither a host name/);
    });
  });
});

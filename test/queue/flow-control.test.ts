// Flow control through the official client (the publish option flowControl, which sends
// Upstash-Flow-Control-Key/-Value, and client.flowControl), delivering to a real local receiver:
// parallelism per key, rate per period (counted per window, never timed for speed), pause and
// resume, pin and unpin, resetRate, global parallelism, unknown keys, bad values, and key
// settings surviving a restart.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { inRounds, settle } from '../support/held-rounds.js';
import { queueClient, queueSuite, startQueueReceiver } from '../support/queue-receiver.js';
import { restartableServers } from '../support/restarts.js';

const rejectsWith = (p: Promise<unknown>, status: number, text: RegExp) =>
  assert.rejects(p, (e: Error & { status?: number }) => {
    assert.equal(e.status, status, e.message);
    assert.match(e.message, text);
    return true;
  });

type Flow = { key: string; parallelism?: number; rate?: number; period?: number | `${number}s` | `${number}m` };

async function publishAll(client: Client, url: string, n: number, flowControl: Flow): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = (await client.publish({ url, body: `m${i}`, flowControl } as Parameters<Client['publish']>[0])) as { messageId: string };
    ids.push(res.messageId);
  }
  return ids;
}

describe('flow control', () => {
  const { t, rx, client } = queueSuite();

  const arrived = (path: string, n: number) => eventually(async () => rx.at(path).length >= n, `${n} deliveries to ${path}`);

  it('runs at most `parallelism` deliveries of a key at once; the rest wait in its wait list', async () => {
    const held = inRounds(rx, '/par', [2, 2, 1], async (round) => {
      const info = await client.flowControl.get('fc-par');
      assert.equal(info.flowControlKey, 'fc-par');
      assert.equal(info.parallelismMax, 2);
      assert.equal(info.parallelismCount, [2, 2, 1][round]);
      assert.equal(info.waitListSize, [3, 1, 0][round]);
      assert.equal(info.rateMax, 0);
      assert.equal(info.isPaused, false);
    });
    await publishAll(client, `${rx.url}/par`, 5, { key: 'fc-par', parallelism: 2 });
    await held;
    await arrived('/par', 5);
    assert.ok(rx.at('/par').every((d) => d.verified));
    await eventually(async () => (await client.flowControl.get('fc-par')).parallelismCount === 0, 'nothing in flight');
  });

  it('starts at most `rate` deliveries per period', async () => {
    const url = `${rx.url}/rate`;
    const flowControl = { key: 'fc-rate', rate: 2, period: 1 };
    await client.batch(Array.from({ length: 6 }, (_, i) => ({ url, body: `r${i}`, flowControl })));
    await arrived('/rate', 6);
    // The server's own start times (ACTIVE), grouped into periods as the key counts them:
    // a period begins with the first start after the previous one ended. The gate opens a period
    // a moment before it logs the start, so a period's first logged start may trail its true
    // beginning by a few ms (seen: starts at 1001 and 2000 in periods beginning 1000 and 2000).
    const logLagMs = 100;
    const starts = (await client.logs({ filter: { url, state: 'ACTIVE' } })).logs.map((l) => l.time).sort((a, b) => a - b);
    assert.equal(starts.length, 6);
    const periods: number[][] = [];
    for (const at of starts) {
      const current = periods.at(-1);
      if (current !== undefined && at < current[0] + 1000 - logLagMs) current.push(at);
      else periods.push([at]);
    }
    const shape = periods.map((p) => p.map((at) => at - starts[0]));
    assert.ok(periods.every((p) => p.length <= 2), `more than 2 starts in a period: ${JSON.stringify(shape)}`);
    const info = await client.flowControl.get('fc-rate');
    assert.equal(info.rateMax, 2);
    assert.equal(info.ratePeriod, 1);
    assert.equal(info.parallelismMax, 0);
  });

  it('holds the rest of a period and starts a new one on resetRate', async () => {
    const flowControl = { key: 'fc-reset', rate: 2, period: '1m' as const };
    await publishAll(client, `${rx.url}/reset`, 5, flowControl);
    await arrived('/reset', 2);
    await settle();
    assert.equal(rx.at('/reset').length, 2);
    const info = await client.flowControl.get('fc-reset');
    assert.equal(info.rateMax, 2);
    assert.equal(info.rateCount, 2);
    assert.equal(info.ratePeriod, 60);
    assert.equal(info.waitListSize, 3);
    assert.ok(Math.abs(info.ratePeriodStart - Date.now() / 1000) < 60, String(info.ratePeriodStart));

    await client.flowControl.resetRate('fc-reset');
    await arrived('/reset', 4);
    await settle();
    assert.equal(rx.at('/reset').length, 4);
    assert.equal((await client.flowControl.get('fc-reset')).waitListSize, 1);
    await client.flowControl.resetRate('fc-reset');
    await arrived('/reset', 5);
    // Woken in publish order, though two started together may arrive either way round.
    assert.deepEqual(rx.at('/reset').map((d) => d.body).sort(), ['m0', 'm1', 'm2', 'm3', 'm4']);
    assert.deepEqual(new Set(rx.at('/reset').slice(2, 4).map((d) => d.body)), new Set(['m2', 'm3']));
  });

  it('pauses and resumes a key', async () => {
    await publishAll(client, `${rx.url}/pause`, 1, { key: 'fc-pause', parallelism: 1 });
    await arrived('/pause', 1);
    await client.flowControl.pause('fc-pause');
    assert.equal((await client.flowControl.get('fc-pause')).isPaused, true);
    await publishAll(client, `${rx.url}/pause`, 2, { key: 'fc-pause', parallelism: 1 });
    await settle();
    assert.equal(rx.at('/pause').length, 1);
    assert.equal((await client.flowControl.get('fc-pause')).waitListSize, 2);
    await client.flowControl.resume('fc-pause');
    await arrived('/pause', 3);
    assert.equal((await client.flowControl.get('fc-pause')).isPaused, false);
  });

  it('shows a message its key and settings; cancelling by key empties the wait list', async () => {
    await publishAll(client, `${rx.url}/cancel`, 1, { key: 'fc-cancel', parallelism: 1, rate: 3, period: 2 });
    await arrived('/cancel', 1);
    await client.flowControl.pause('fc-cancel');
    const [id] = await publishAll(client, `${rx.url}/cancel`, 2, { key: 'fc-cancel', parallelism: 1, rate: 3, period: 2 });
    const m = (await client.messages.get(id)) as unknown as Record<string, unknown>;
    assert.equal(m.flowControlKey, 'fc-cancel');
    assert.equal(m.parallelism, 1);
    assert.equal(m.rate, 3);
    assert.equal(m.period, 2);
    await eventually(async () => (await client.flowControl.get('fc-cancel')).waitListSize === 2, 'two waiting');
    assert.deepEqual(await client.messages.cancel({ filter: { flowControlKey: 'fc-cancel' } } as Parameters<Client['messages']['cancel']>[0]), { cancelled: 2 });
    assert.equal((await client.flowControl.get('fc-cancel')).waitListSize, 0);
    await client.flowControl.resume('fc-cancel');
    await settle();
    assert.equal(rx.at('/cancel').length, 1);
  });

  it('pins parallelism against what messages ask, until unpinned', async () => {
    await publishAll(client, `${rx.url}/pin`, 1, { key: 'fc-pin', parallelism: 5 });
    await arrived('/pin', 1);
    await client.flowControl.pin('fc-pin', { parallelism: 1 });
    let info = await client.flowControl.get('fc-pin');
    assert.equal(info.isPinnedParallelism, true);
    assert.equal(info.isPinnedRate, false);
    assert.equal(info.parallelismMax, 1);

    const held = inRounds(rx, '/pin', [1, 1, 1]);
    await publishAll(client, `${rx.url}/pin`, 3, { key: 'fc-pin', parallelism: 5 });
    await held;
    assert.equal((await client.flowControl.get('fc-pin')).parallelismMax, 1);

    await client.flowControl.unpin('fc-pin', { parallelism: true });
    assert.equal((await client.flowControl.get('fc-pin')).isPinnedParallelism, false);
    await publishAll(client, `${rx.url}/pin`, 1, { key: 'fc-pin', parallelism: 3 });
    info = await client.flowControl.get('fc-pin');
    assert.equal(info.parallelismMax, 3);

    await client.flowControl.pin('fc-pin', { rate: 7, period: 10 });
    info = await client.flowControl.get('fc-pin');
    assert.equal(info.isPinnedRate, true);
    assert.equal(info.rateMax, 7);
    assert.equal(info.ratePeriod, 10);
  });

  it('lists keys with their wait lists and reports the global parallelism', async () => {
    await publishAll(client, `${rx.url}/listed`, 1, { key: 'fc-listed', rate: 100 });
    const q = t.queue();
    const res = await fetch(`${q.url}/v2/flowControl`, { headers: { authorization: `Bearer ${q.readOnlyToken}` } });
    assert.equal(res.status, 200);
    const list = (await res.json()) as { flowControlKey: string; waitListSize: number }[];
    const listed = list.find((f) => f.flowControlKey === 'fc-listed');
    assert.equal(listed?.waitListSize, 0);
    const global = await client.flowControl.getGlobalParallelism();
    assert.equal(global.parallelismMax, 64);
    assert.equal(typeof global.parallelismCount, 'number');
  });

  it('answers 404 for an unknown key', async () => {
    const fc = client.flowControl;
    // One at a time: a call made before the previous one is awaited could reject unhandled.
    for (const call of [() => fc.get('nope'), () => fc.pause('nope'), () => fc.resume('nope'), () => fc.pin('nope', { parallelism: 1 }), () => fc.unpin('nope', { rate: true }), () => fc.resetRate('nope')]) {
      await rejectsWith(call(), 404, /flow control key 'nope' not found/);
    }
  });

  it('refuses a bad Upstash-Flow-Control-Value with 400', async () => {
    const q = t.queue();
    const publish = (headers: Record<string, string>) =>
      fetch(`${q.url}/v2/publish/${rx.url}/never`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, ...headers }, body: 'x' });
    for (const value of ['parallelism=0', 'rate=x', 'rate=-1', 'foo=1', 'period=2s', 'parallelism=1, parallelism=2', 'parallelism=1, period=0s', 'parallelism']) {
      const res = await publish({ 'Upstash-Flow-Control-Key': 'k', 'Upstash-Flow-Control-Value': value });
      assert.equal(res.status, 400, value);
      const body = (await res.json()) as { error: string; status: number };
      assert.match(body.error, /invalid Upstash-Flow-Control-Value/, value);
    }
    const noValue = await publish({ 'Upstash-Flow-Control-Key': 'k' });
    assert.equal(noValue.status, 400);
    const noKey = await publish({ 'Upstash-Flow-Control-Value': 'parallelism=1' });
    assert.equal(noKey.status, 400);
    const pin = await fetch(`${q.url}/v2/flowControl/fc-pin/pin?parallelism=x`, { method: 'POST', headers: { authorization: `Bearer ${q.token}` } });
    assert.equal(pin.status, 400);
    assert.equal(rx.at('/never').length, 0);
  });
});

describe('flow control across a restart', () => {
  const servers = restartableServers();

  it('keeps a key settings, pins and pause, and its waiting messages', async () => {
    const first = await servers.start({ queue: { retryDelayScale: 0.001 } });
    const q = first.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    try {
      const client = queueClient(q);
      await publishAll(client, `${rx.url}/kept`, 1, { key: 'fc-kept', parallelism: 2, rate: 5, period: 30 });
      await eventually(async () => rx.at('/kept').length === 1, 'the first delivery');
      await client.flowControl.pin('fc-kept', { parallelism: 1 });
      await client.flowControl.pause('fc-kept');
      const ids = await publishAll(client, `${rx.url}/kept`, 2, { key: 'fc-kept', parallelism: 2, rate: 5, period: 30 });
      await servers.stop(first);

      const second = await servers.start({ queue: { retryDelayScale: 0.001 } }, first.dataDir);
      const client2 = queueClient({ url: second.queue().url, token: q.token });
      const info = await client2.flowControl.get('fc-kept');
      assert.equal(info.isPaused, true);
      assert.equal(info.isPinnedParallelism, true);
      assert.equal(info.parallelismMax, 1);
      assert.equal(info.rateMax, 5);
      assert.equal(info.ratePeriod, 30);
      await eventually(async () => (await client2.flowControl.get('fc-kept')).waitListSize === 2, 'two waiting');
      assert.equal(rx.at('/kept').length, 1);
      await client2.flowControl.resume('fc-kept');
      await eventually(async () => rx.at('/kept').length === 3, 'the two waiting messages');
      assert.deepEqual(rx.at('/kept').slice(1).map((d) => d.headers['upstash-message-id']).sort(), [...ids].sort());
      await servers.stop(second);
    } finally {
      await rx.close();
    }
  });
});

// Queues through the official client (client.queue({queueName})), delivering to a real local
// receiver that verifies every request: publish order with parallelism 1 even while a message
// retries, at most `parallelism` deliveries at once, pause and resume, lag, unknown queues, bad
// settings, and settings surviving a restart (replayed from the log, or from a snapshot).

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

async function enqueueAll(client: Client, queueName: string, url: string, bodies: readonly string[], retries = 3): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) ids.push((await client.queue({ queueName }).enqueue({ url, body, retries })).messageId);
  return ids;
}

const bodies = (n: number, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('queues', () => {
  const { t, rx, client } = queueSuite();

  const arrived = (path: string, n: number) => eventually(async () => rx.at(path).length >= n, `${n} deliveries to ${path}`);

  it('delivers a parallelism-1 queue in publish order; a failing message holds its place while it retries', async () => {
    const queue = client.queue({ queueName: 'ordered' });
    await queue.upsert({ parallelism: 1 });
    let failed = false;
    rx.answer('/ordered', (_, d) => {
      if (d.body !== 'm3' || failed) return { status: 200 };
      failed = true;
      return { status: 500, body: 'once' };
    });
    const ids = await enqueueAll(client, 'ordered', `${rx.url}/ordered`, bodies(10));
    await arrived('/ordered', 11);
    const ds = rx.at('/ordered');
    assert.deepEqual(ds.map((d) => d.body), ['m0', 'm1', 'm2', 'm3', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    assert.deepEqual(ds.map((d) => d.headers['upstash-retried']), ['0', '0', '0', '0', '1', '0', '0', '0', '0', '0', '0']);
    assert.equal(ds[4].headers['upstash-message-id'], ids[3]);
    assert.ok(ds.every((d) => d.verified), 'every delivery verifies');
    await eventually(async () => (await queue.get()).lag === 0, 'lag 0');
  });

  it('keeps order with parallelism 1 while the destination is slow', async () => {
    await client.queue({ queueName: 'slow' }).upsert({ parallelism: 1 });
    const held = inRounds(rx, '/slow', [1, 1, 1, 1]);
    const ids = await enqueueAll(client, 'slow', `${rx.url}/slow`, bodies(4));
    await held;
    await arrived('/slow', 4);
    assert.deepEqual(rx.at('/slow').map((d) => d.headers['upstash-message-id']), ids);
  });

  it("waits for a message's callback to finish before the next message of a parallelism-1 queue", async () => {
    await client.queue({ queueName: 'called-back' }).upsert({ parallelism: 1 });
    let release: () => void = () => undefined;
    rx.hold('/cb-hook', new Promise<void>((r) => (release = r)));
    const queue = client.queue({ queueName: 'called-back' });
    await queue.enqueue({ url: `${rx.url}/cb-source`, body: 'first', callback: `${rx.url}/cb-hook` });
    await queue.enqueue({ url: `${rx.url}/cb-source`, body: 'second' });
    await eventually(async () => rx.pending('/cb-hook') === 1, 'the callback held');
    await settle();
    assert.deepEqual(rx.at('/cb-source').map((d) => d.body), ['first']);
    release();
    await arrived('/cb-source', 2);
    const order = rx.deliveries.filter((d) => d.path.startsWith('/cb-')).map((d) => `${d.path} ${d.path === '/cb-hook' ? '' : d.body}`.trim());
    assert.deepEqual(order, ['/cb-source first', '/cb-hook', '/cb-source second']);
  });

  it('makes a queue with parallelism 1 on an enqueue to an unknown name, and batch entries join their queue', async () => {
    await client.queue({ queueName: 'fresh' }).enqueueJSON({ url: `${rx.url}/fresh`, body: { a: 1 } });
    const q = await client.queue({ queueName: 'fresh' }).get();
    assert.equal(q.name, 'fresh');
    assert.equal(q.parallelism, 1);
    assert.equal(q.paused, false);
    assert.equal(typeof q.createdAt, 'number');
    assert.equal(typeof q.updatedAt, 'number');
    assert.ok((await client.queue().list()).some((x) => x.name === 'fresh'));
    await arrived('/fresh', 1);

    await client.batch(bodies(5, 'b').map((body) => ({ url: `${rx.url}/batched`, body, queueName: 'batched' })));
    await arrived('/batched', 5);
    assert.deepEqual(rx.at('/batched').map((d) => d.body), bodies(5, 'b'));
    assert.equal((await client.queue({ queueName: 'batched' }).get()).parallelism, 1);
  });

  it('never runs more than `parallelism` deliveries of a queue at once', async () => {
    const queue = client.queue({ queueName: 'wide' });
    await queue.upsert({ parallelism: 3 });
    const held = inRounds(rx, '/wide', [3, 3, 1]);
    await enqueueAll(client, 'wide', `${rx.url}/wide`, bodies(7));
    assert.equal((await queue.get()).lag, 7);
    await held;
    await arrived('/wide', 7);
    // Started in publish order, three at a time.
    assert.deepEqual(new Set(rx.at('/wide').slice(0, 3).map((d) => d.body)), new Set(['m0', 'm1', 'm2']));
    await eventually(async () => (await queue.get()).lag === 0, 'lag 0');
  });

  it('pauses and resumes a queue; lag counts the waiting messages', async () => {
    const queue = client.queue({ queueName: 'stoppable' });
    await queue.upsert({ parallelism: 1 });
    await queue.pause();
    assert.equal((await queue.get()).paused, true);
    await enqueueAll(client, 'stoppable', `${rx.url}/stoppable`, bodies(3));
    await settle();
    assert.equal(rx.at('/stoppable').length, 0);
    const q = await queue.get();
    assert.equal(q.lag, 3);
    assert.equal(q.paused, true);
    await queue.resume();
    assert.equal((await queue.get()).paused, false);
    await arrived('/stoppable', 3);
    assert.deepEqual(rx.at('/stoppable').map((d) => d.body), bodies(3));
    await eventually(async () => (await queue.get()).lag === 0, 'lag 0');

    // Upsert with paused: true pauses too.
    await queue.upsert({ parallelism: 2, paused: true });
    await enqueueAll(client, 'stoppable', `${rx.url}/stoppable`, ['late']);
    await settle();
    assert.equal(rx.at('/stoppable').length, 3);
    const again = await queue.get();
    assert.equal(again.parallelism, 2);
    assert.equal(again.lag, 1);
    await queue.resume();
    await arrived('/stoppable', 4);
  });

  it('deletes a queue with its waiting messages', async () => {
    const queue = client.queue({ queueName: 'doomed' });
    await queue.upsert({ parallelism: 1, paused: true });
    const [id] = await enqueueAll(client, 'doomed', `${rx.url}/doomed`, ['x']);
    await queue.delete();
    await rejectsWith(queue.get(), 404, /queue 'doomed' not found/);
    await rejectsWith(client.messages.get(id), 404, /not found/);
    assert.ok(!(await client.queue().list()).some((x) => x.name === 'doomed'));
  });

  it('answers 404 for an unknown queue', async () => {
    const queue = client.queue({ queueName: 'nope' });
    await rejectsWith(queue.get(), 404, /queue 'nope' not found/);
    await rejectsWith(queue.pause(), 404, /queue 'nope' not found/);
    await rejectsWith(queue.resume(), 404, /queue 'nope' not found/);
    await rejectsWith(queue.delete(), 404, /queue 'nope' not found/);
  });

  it('refuses bad queue settings with 400', async () => {
    const q = t.queue();
    const upsert = (body: unknown) =>
      fetch(`${q.url}/v2/queues`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const body of [{ queueName: 'q', parallelism: 0 }, { queueName: 'q', parallelism: 1.5 }, { queueName: '', parallelism: 1 }, { parallelism: 1 }, { queueName: 'q', paused: 'yes' }, []]) {
      const res = await upsert(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(((await res.json()) as { status: number }).status, 400);
    }
    const readOnly = await fetch(`${q.url}/v2/queues`, { method: 'POST', headers: { authorization: `Bearer ${q.readOnlyToken}` }, body: '{"queueName":"q"}' });
    assert.equal(readOnly.status, 403);
  });

  it('refuses a queue name the queue endpoints could not address (empty, or with a /) from enqueue, a batch entry and a schedule, as it does from POST /v2/queues', async () => {
    const q = t.queue();
    const call = (path: string, init: { headers?: Record<string, string>; body: string }) =>
      fetch(`${q.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, ...init.headers }, body: init.body });
    const dest = `${rx.url}/qname/never`;
    const refused = (name: string) => ({ error: `invalid queue name: '${name}' (a non-empty name without /)`, status: 400 });
    const answers = [
      await call('/v2/batch', { headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ destination: dest, queue: '', headers: { 'Upstash-Delay': '1h' } }]) }),
      await call('/v2/batch', { headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ destination: dest, queue: 'a/b', headers: { 'Upstash-Delay': '1h' } }]) }),
      await call(`/v2/enqueue/a%2Fb/${dest}`, { headers: { 'Upstash-Delay': '1h' }, body: 'x' }),
      await call(`/v2/schedules/${dest}`, { headers: { 'Upstash-Cron': '0 0 1 1 *', 'Upstash-Queue-Name': '' }, body: 'x' }),
    ];
    assert.deepEqual(await Promise.all(answers.map(async (r) => [r.status, await r.json()])), [
      [400, refused('')],
      [400, refused('a/b')],
      [400, refused('a/b')],
      [400, refused('')],
    ]);
    const names = (await client.queue().list()).map((x) => x.name);
    assert.ok(!names.includes('') && !names.includes('a/b'), names.join(', '));
  });
});

describe('queue settings across a restart', () => {
  const servers = restartableServers();

  for (const [how, config] of [
    ['replayed from the log', { queue: { retryDelayScale: 0.001 } }],
    ['loaded from a snapshot', { queue: { retryDelayScale: 0.001, compactAfterBytes: 1 } }],
  ] as const) {
    it(`keeps parallelism, pause and waiting messages in order (${how})`, async () => {
      const first = await servers.start(config);
      const q = first.queue();
      const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
      try {
        const client = queueClient(q);
        await client.queue({ queueName: 'kept' }).upsert({ parallelism: 4, paused: true });
        await client.queue({ queueName: 'plain' }).upsert({ parallelism: 2 });
        const ids = await enqueueAll(client, 'kept', `${rx.url}/kept`, bodies(3));
        const before = await client.queue({ queueName: 'kept' }).get();
        await servers.stop(first);

        const second = await servers.start(config, first.dataDir);
        const client2 = queueClient({ url: second.queue().url, token: q.token });
        assert.deepEqual(await client2.queue({ queueName: 'kept' }).get(), before);
        assert.equal((await client2.queue({ queueName: 'plain' }).get()).parallelism, 2);
        await settle();
        assert.equal(rx.at('/kept').length, 0, 'still paused');
        await client2.queue({ queueName: 'kept' }).upsert({ parallelism: 1 });
        await eventually(async () => rx.at('/kept').length === 3, 'the three waiting messages');
        assert.deepEqual(rx.at('/kept').map((d) => d.headers['upstash-message-id']), ids);
        await servers.stop(second);
      } finally {
        await rx.close();
      }
    });
  }
});

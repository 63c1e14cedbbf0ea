// Two Larder processes on one PostgreSQL schema deliver each message once between them (the
// delivery is leased), and when the process holding a lease is killed with -9 mid-delivery,
// the other delivers the message once the lease runs out (at least once, as QStash promises).
// Deduplication holds across them, and a flow-control key's parallelism and rate count the
// deliveries of both processes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { spawnLarder, type LarderProcess, type Ready } from '../../support/larder-process.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../../support/queue-receiver.js';

type Running = LarderProcess & { readonly info: Ready };

/** Polls `check` every 50 ms for up to `ms`. */
async function within(ms: number, check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`never happened within ${ms} ms: ${what}`);
}

describe('engine postgres: two processes lease deliveries', { skip: postgresRunSkip }, () => {
  const root = mkdtempSync(join(tmpdir(), 'larder-pg-leases-'));
  let pg: PostgresCluster;
  let rx: QueueReceiver;
  let larders: Running[] = [];

  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await Promise.all(larders.map((l) => l.stop().catch(() => undefined)));
    await rx?.close();
    await pg?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function startTwo(schema: string): Promise<Running[]> {
    const config = { queue: { url: pg.url(), schema, retryDelayScale: 0.001 } };
    larders = await Promise.all(['a', 'b'].map((n) => spawnLarder({ dataDir: join(root, `${schema}-${n}`), config })));
    const q = larders[0].info.queue;
    rx ??= await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    return larders;
  }

  it('delivers every message once, whichever process took the publish', async () => {
    const [a, b] = await startTwo('once');
    const clients = [queueClient(a.info.queue), queueClient(b.info.queue)];
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await clients[i % 2].publish({ url: `${rx.url}/once`, body: `m${i}` })).messageId);
    // A deduplication id (and a body's content) seen by one process is seen by the other.
    const first = await clients[0].publish({ url: `${rx.url}/once`, body: 'same', deduplicationId: 'dedup-1' });
    const again = await clients[1].publish({ url: `${rx.url}/once`, body: 'other', deduplicationId: 'dedup-1' });
    assert.equal(again.messageId, first.messageId);
    const byContent = await clients[1].publish({ url: `${rx.url}/once`, body: 'by content', contentBasedDeduplication: true });
    assert.equal((await clients[0].publish({ url: `${rx.url}/once`, body: 'by content', contentBasedDeduplication: true })).messageId, byContent.messageId);
    ids.push(first.messageId, byContent.messageId);
    await within(20_000, () => rx.at('/once').length >= ids.length, 'every delivery');
    // Deliveries that would be duplicates come within a moment of the first ones.
    await new Promise((r) => setTimeout(r, 1000));
    const delivered = rx.at('/once').map((d) => String(d.headers['upstash-message-id']));
    assert.equal(delivered.length, ids.length, 'no message delivered twice');
    assert.deepEqual([...delivered].sort(), [...ids].sort());
    // The signing keys are the same everywhere, and a rotation by one process is seen by the other.
    const keys = (l: Running, path: string, method: string) =>
      fetch(`${l.info.queue.url}${path}`, { method, headers: { authorization: `Bearer ${l.info.queue.token}` } }).then((r) => r.json());
    assert.deepEqual(await keys(b, '/v2/keys', 'GET'), await keys(a, '/v2/keys', 'GET'));
    const rotated = await keys(a, '/v2/keys/rotate', 'POST');
    assert.deepEqual(await keys(b, '/v2/keys', 'GET'), rotated);
    await Promise.all(larders.map((l) => l.stop()));
    larders = [];
  });

  it('after kill -9 of the process delivering a message, the other delivers it once the lease runs out', async () => {
    await startTwo('kill');
    const [a] = larders;
    let release: () => void = () => undefined;
    rx.hold('/held', new Promise<void>((r) => (release = r)));
    const { messageId } = await queueClient(a.info.queue).publish({ url: `${rx.url}/held`, body: 'held', timeout: '2s', retries: 0 });
    await within(5000, () => rx.pending('/held') === 1, 'the first attempt');

    const sql = postgres(pg.url(), { onnotice: () => undefined });
    let owner: string;
    try {
      const ops = await sql<{ payload: Buffer }[]>`select payload from kill.ops order by seq`;
      const lease = ops.map((r) => JSON.parse(r.payload.toString('utf8'))).find((op) => op.op === 'lease' && op.id === messageId);
      assert.ok(lease !== undefined, 'a lease op for the message');
      owner = lease.owner;
    } finally {
      await sql.end();
    }
    const holder = larders.find((l) => owner.includes(`/${l.child.pid}/`));
    assert.ok(holder !== undefined, `the leaseholder ${owner} is one of the two`);
    holder.kill('SIGKILL');
    await holder.exited;
    // The lease covers the 2 s timeout and a margin (delivery/leases.ts): the survivor waits it out.
    await within(15_000, () => rx.pending('/held') === 2, 'the attempt of the surviving process');
    release();
    await within(5000, () => rx.at('/held').length === 2, 'both attempts recorded');
    assert.deepEqual(rx.at('/held').map((d) => d.headers['upstash-message-id']), [messageId, messageId]);
  });

  it('counts the parallelism and the rate of a flow-control key over both processes', async () => {
    const [a, b] = await startTwo('flow');
    const clients = [queueClient(a.info.queue), queueClient(b.info.queue)];
    // A destination that answers each request after 150 ms, noting how many run at once and when each came.
    let running = 0;
    let most = 0;
    const came: Record<string, number[]> = { '/one': [], '/rate': [] };
    const server = createServer((req, res) => {
      came[req.url ?? '']?.push(Date.now());
      most = Math.max(most, ++running);
      req.resume();
      setTimeout(() => {
        running--;
        res.end('ok');
      }, 150);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (let i = 0; i < 6; i++) await clients[i % 2].publish({ url: `${base}/one`, body: `p${i}`, flowControl: { key: 'one-at-a-time', parallelism: 1 } });
      await within(20_000, () => came['/one'].length === 6, 'the six deliveries of the parallelism-1 key');
      assert.equal(most, 1, 'never two deliveries of the key at once');

      for (let i = 0; i < 6; i++) await clients[i % 2].publish({ url: `${base}/rate`, body: `r${i}`, flowControl: { key: 'two-per-second', rate: 2, period: 1 } });
      await within(20_000, () => came['/rate'].length === 6, 'the six deliveries of the rate-2 key');
      // Any three starts span a period at least (less a little for the way from start to arrival).
      const t = came['/rate'];
      for (let i = 0; i + 2 < t.length; i++) assert.ok(t[i + 2] - t[i] >= 900, `three deliveries within ${t[i + 2] - t[i]} ms`);
    } finally {
      server.close();
      await Promise.all(larders.map((l) => l.stop()));
      larders = [];
    }
  });
});

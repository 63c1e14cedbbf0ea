// A full disk, per service, on a small tmpfs the test mounts as the data directory: writes get
// a clear error in the service's own envelope (503), reads go on, /healthz answers 503 with
// the reason and /metrics' larder_storage_writable is 0; once the filler is removed, writes
// work again with no restart, and a restart finds every acknowledged write and exactly what
// was answered before it.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { eventually } from '../support/eventually.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { queueClient, startQueueReceiver } from '../support/queue-receiver.js';
import { sdkClient } from '../support/sdk.js';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.js';
import { vectorClient } from '../support/vector-sdk.js';

const NO_SPACE = 'No space left on device';
/** Larger than a page: a full tmpfs refuses it whatever room a file's last page has. */
const BIG = 'x'.repeat(16 * 1024);
/** The text streams, vector and queue answer a refused write with. */
const REFUSED = `the data directory cannot be written (${NO_SPACE}); writes resume once it can`;

async function health(t: TestLarder): Promise<{ status: number; body: { status: string; reason?: string } }> {
  const res = await fetch(`${t.url}/healthz`);
  return { status: res.status, body: (await res.json()) as { status: string; reason?: string } };
}

async function writableGauge(t: TestLarder): Promise<number | undefined> {
  const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.adminToken}` } });
  assert.equal(res.status, 200);
  return sampleValue(parsePrometheusText(await res.text()), 'larder_storage_writable');
}

/**
 * /healthz and /metrics while the disk is full: 503 naming the cause and `owner` (the data
 * directory, which the check's probe finds full, or a service holding back a write), gauge 0.
 */
async function assertReadOnly(t: TestLarder, owner: string): Promise<void> {
  const h = await health(t);
  assert.equal(h.status, 503);
  assert.equal(h.body.status, 'read-only');
  assert.ok(h.body.reason?.includes(NO_SPACE), h.body.reason);
  assert.ok(h.body.reason?.includes(owner), h.body.reason);
  assert.equal(await writableGauge(t), 0);
}

async function assertHealthy(t: TestLarder): Promise<void> {
  assert.deepEqual(await health(t), { status: 200, body: { status: 'ok' } });
  assert.equal(await writableGauge(t), 1);
}

/** A describe whose tests each get a fresh tmpfs as the data directory, or skip saying why not. */
function onSmallDisk(name: string, body: (disk: () => SmallDisk) => void): void {
  const mounted = mountSmallDisk(8 * 1024 * 1024);
  describe(name, { skip: typeof mounted === 'string' ? mounted : false }, () => {
    if (typeof mounted === 'string') return;
    after(() => mounted.remove());
    body(() => mounted);
  });
}

onSmallDisk('a full disk: key-value', (disk) => {
  it('refuses writes with MISCONF (503), serves GET and PING, heals by itself, loses nothing acknowledged', async () => {
    const t = await startTestLarder({}, disk().dir);
    const redis = sdkClient(t);
    assert.equal(await redis.set('kept', 'before'), 'OK');
    disk().fill();
    try {
      // The first write to meet the full disk, a script's: its reply is the failure, not its OK.
      await assert.rejects(redis.eval("return redis.call('set', KEYS[1], ARGV[1])", ['big'], [BIG]), (e: Error) => e.message.startsWith(`MISCONF Errors writing to the AOF file: ${NO_SPACE}`));
      // Later writes are refused before they run.
      await assert.rejects(redis.set('big', BIG), (e: Error) => e.message.startsWith(`MISCONF Errors writing to the AOF file: ${NO_SPACE}`));
      assert.deepEqual(await t.command(['set', 'other', 'x']), { status: 503, body: { error: `MISCONF Errors writing to the AOF file: ${NO_SPACE}` } });
      // WAITAOF, which does not write, says the writes so far cannot reach the disk.
      assert.deepEqual(await t.command(['waitaof', '1', '0', '0']), { status: 503, body: { error: `MISCONF Errors writing to the AOF file: ${NO_SPACE}` } });
      const pipeline = await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['get', 'kept'], ['incr', 'n']]) });
      assert.equal(pipeline.status, 503);
      assert.deepEqual(await pipeline.json(), { error: `MISCONF Errors writing to the AOF file: ${NO_SPACE}` });
      assert.equal(await redis.get('kept'), 'before');
      assert.equal(await redis.ping(), 'PONG');
      assert.equal(await redis.get('other'), null, 'a refused write changed nothing');
      await assertReadOnly(t, "kv database 'default'");
    } finally {
      disk().free();
    }
    assert.equal(await redis.set('after', 'freed'), 'OK');
    assert.deepEqual(await t.command(['waitaof', '1', '0', '0']), { status: 200, body: { result: [1, 0] } });
    await assertHealthy(t);
    // The write that met the full disk was answered with an error: it may or may not have
    // landed, but what the server shows now is what a restart finds.
    const big = await redis.get('big');
    await t.close(true);
    const again = await startTestLarder({}, disk().dir);
    try {
      const r = sdkClient(again);
      assert.deepEqual(await r.mget('kept', 'after', 'big', 'other'), ['before', 'freed', big, null]);
    } finally {
      await again.close();
    }
  });
});

onSmallDisk('a full disk: ACL users', (disk) => {
  it('refuses ACL changes with 503 and keeps the users as they were, until there is room again', async () => {
    const t = await startTestLarder({}, disk().dir);
    assert.deepEqual(await t.command(['acl', 'setuser', 'kept', 'on', '>kept-password', '~*', '+get']), { status: 200, body: { result: 'OK' } });
    const token = (await t.command(['acl', 'resttoken', 'kept', 'kept-password'])).body.result as string;
    const refused = { status: 503, body: { error: `ERR ${REFUSED}` } };
    disk().fill();
    try {
      assert.deepEqual(await t.command(['acl', 'setuser', 'new', 'on', 'nopass']), refused);
      assert.deepEqual(await t.command(['acl', 'setuser', 'kept', '-get']), refused);
      assert.deepEqual(await t.command(['acl', 'deluser', 'kept']), refused);
      assert.deepEqual(await t.command(['acl', 'resttoken', 'kept', 'kept-password']), { status: 200, body: { result: token } }, 'a token already made needs no write');
      assert.deepEqual(await t.command(['acl', 'users']), { status: 200, body: { result: ['default', 'kept'] } });
      assert.deepEqual(await t.command(['get', 'x'], { token }), { status: 200, body: { result: null } });
    } finally {
      disk().free();
    }
    assert.deepEqual(await t.command(['acl', 'setuser', 'new', 'on', 'nopass']), { status: 200, body: { result: 'OK' } });
    await t.close(true);
    const again = await startTestLarder({}, disk().dir);
    try {
      assert.deepEqual(await again.command(['acl', 'users']), { status: 200, body: { result: ['default', 'kept', 'new'] } });
      assert.deepEqual(await again.command(['get', 'x'], { token }), { status: 200, body: { result: null } });
    } finally {
      await again.close();
    }
  });
});

onSmallDisk('a full disk: streams', (disk) => {
  const config = { streams: { clusters: { default: { topics: { events: { partitions: 1 } } } } } };
  it('refuses produces with 503 in the stream envelope, serves fetches, heals by itself, loses nothing acknowledged', async () => {
    const t = await startTestLarder(config, disk().dir);
    const c = t.cluster();
    const kafka = new Kafka(c);
    const values = async (k: Kafka) => (await k.consumer().fetch({ topic: 'events', partition: 0, offset: 0, timeout: 0 })).map((m) => m.value);
    // Raw where a write fails: the SDK retries any failure five times over 15 s before it throws.
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${c.url}${path}`, { method: 'POST', headers: { authorization: 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64') }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    await kafka.producer().produce('events', 'before');
    const group = { consumerGroupId: 'g', instanceId: 'i' };
    assert.equal((await kafka.consumer().consume({ ...group, topics: ['events'], autoCommit: false, autoOffsetReset: 'earliest', timeout: 0 })).length, 1);
    disk().fill();
    try {
      assert.deepEqual(await post('/produce/events', { value: BIG }), { status: 503, body: { error: REFUSED, status: 503 } });
      assert.deepEqual(await post('/commit/g/i', { topic: 'events', partition: 0, offset: 1 }), { status: 503, body: { error: REFUSED, status: 503 } });
      assert.deepEqual(await values(kafka), ['before']);
      await assertReadOnly(t, "stream cluster 'default', topic 'events'");
    } finally {
      disk().free();
    }
    await assertHealthy(t);
    // The refused produce had its offset: its record is written once there is room, and read
    // like any other, with no further produce to push it out.
    await eventually(async () => (await values(kafka)).length === 2, 'the held-back record is readable');
    assert.deepEqual(await values(kafka), ['before', BIG]);
    await kafka.producer().produce('events', 'after');
    await kafka.consumer().commit({ ...group, offset: { topic: 'events', partition: 0, offset: 1 } });
    assert.deepEqual(await kafka.consumer().committed({ ...group, topicPartitions: [{ topic: 'events', partition: 0 }] }), [{ topic: 'events', partition: 0, offset: 1 }]);
    const seen = await values(kafka);
    assert.deepEqual(seen, ['before', BIG, 'after']);
    await t.close(true);
    const again = await startTestLarder(config, disk().dir);
    try {
      assert.deepEqual(await values(new Kafka(again.cluster())), seen);
    } finally {
      await again.close();
    }
  });
});

onSmallDisk('a full disk: vector', (disk) => {
  it('refuses upserts with 503 in the vector envelope, serves fetches and queries, heals by itself, loses nothing acknowledged', async () => {
    const t = await startTestLarder({}, disk().dir);
    const index = vectorClient(t);
    await index.upsert({ id: 'kept', vector: [1, 0], metadata: { at: 'before' } });
    disk().fill();
    try {
      await assert.rejects(index.upsert({ id: 'big', vector: [0, 1], data: BIG }), (e: Error) => e.message.includes(REFUSED));
      const v = t.vectorIndex();
      const res = await fetch(`${v.url}/upsert`, { method: 'POST', headers: { authorization: `Bearer ${v.token}` }, body: JSON.stringify({ id: 'big', vector: [0, 1], data: BIG }) });
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { error: REFUSED, status: 503 });
      assert.deepEqual((await index.fetch(['kept', 'big'])).map((r) => r?.id ?? null), ['kept', null]);
      assert.equal((await index.query({ vector: [1, 0], topK: 1 }))[0].id, 'kept');
      await assertReadOnly(t, "vector index 'default'");
    } finally {
      disk().free();
    }
    await index.upsert({ id: 'after', vector: [0, 1] });
    await assertHealthy(t);
    await t.close(true);
    const again = await startTestLarder({}, disk().dir);
    try {
      const ids = (await vectorClient(again).fetch(['kept', 'big', 'after'])).map((r) => r?.id ?? null);
      assert.deepEqual(ids, ['kept', null, 'after']);
    } finally {
      await again.close();
    }
  });
});

onSmallDisk('a full disk: queue', (disk) => {
  it('refuses publishes with 503 in the queue envelope, serves reads, heals by itself, loses nothing acknowledged', async () => {
    const t = await startTestLarder({}, disk().dir);
    const q = t.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    const client = queueClient(q);
    const status = async (id: string) => (await fetch(`${q.url}/v2/messages/${id}`, { headers: { authorization: `Bearer ${q.token}` } })).status;
    const done = (id: string) => eventually(async () => (await status(id)) === 404, `${id} delivered`);
    try {
      await done((await client.publishJSON({ url: `${rx.url}/before`, body: { at: 'before' } })).messageId);
      // A delivery under way when the disk fills: its outcome (a 500, to retry) cannot be
      // recorded, so it is delivered again, as it was, once there is room.
      let release = () => {};
      rx.hold('/held', new Promise<void>((r) => (release = r)));
      rx.answer('/held', (n) => (n === 0 ? { status: 500, body: BIG } : { status: 200 }));
      const held = (await client.publishJSON({ url: `${rx.url}/held`, body: { at: 'held' } })).messageId;
      await eventually(async () => rx.pending('/held') === 1, 'the delivery reached the destination');
      disk().fill();
      try {
        release();
        await eventually(async () => rx.at('/held').length === 1, 'the destination answered');
        assert.equal(await status(held), 200, 'still pending');
        await assert.rejects(client.publishJSON({ url: `${rx.url}/big`, body: { big: BIG } }), (e: Error) => e.message.includes(REFUSED));
        const res = await fetch(`${q.url}/v2/publish/${rx.url}/big`, { method: 'POST', headers: { authorization: `Bearer ${q.token}` }, body: BIG });
        assert.equal(res.status, 503);
        assert.deepEqual(await res.json(), { error: REFUSED, status: 503 });
        assert.deepEqual((await client.dlq.listMessages()).messages, []);
        await assertReadOnly(t, 'message queue');
      } finally {
        disk().free();
      }
      await done(held);
      await done((await client.publishJSON({ url: `${rx.url}/after`, body: { at: 'after' } })).messageId);
      await assertHealthy(t);
      assert.deepEqual(
        rx.deliveries.map((d) => [d.path, d.headers['upstash-retried']]),
        [['/before', '0'], ['/held', '0'], ['/held', '0'], ['/after', '0']],
      );
    } finally {
      await rx.close();
      await t.close();
    }
  });
});

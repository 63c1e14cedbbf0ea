// Pub/sub through the remote backend on a real redis-server and a real Redis Cluster: the
// /subscribe, /psubscribe and /ssubscribe event streams carry what the embedded engine's
// carry, each client on a connection of its own that closes with its stream, and the official
// SDK's Subscriber works.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';
import { eventually } from '../../support/eventually.js';
import { openEvents } from '../../support/event-stream.js';
import { startTestLarder, type KvClient, type TestLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';
import { suiteOnCluster } from './redis-cluster.js';

const REDIS = findRedisServer();

describe('remote backend: pub/sub on a standalone Redis', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  let db: KvClient;
  before(async () => {
    redis = await startRedisServer(REDIS!);
    // maxReplyBytes at 512 KiB, so that the decoder reads through replies past 1 MiB, its least
    // (the bound is the process's: every remote database's, the lane's default one too).
    const maxReplyBytes = 1 << 19;
    const users = [{ name: 'nosub', rules: 'on >pw ~* &* +@all -subscribe' }];
    t = await startTestLarder({ kv: { databases: { default: { maxReplyBytes }, remote: { url: `redis://127.0.0.1:${redis.port}`, maxReplyBytes, users } } } });
    db = t.database('remote');
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  /** PUBSUB NUMSUB as the redis-server itself answers it. */
  const serverNumsub = (channel: string) => redis.client.call(['PUBSUB', 'NUMSUB', channel]);
  const subscribers = (channel: string, n: number) => `*2\r\n$${channel.length}\r\n${channel}\r\n:${n}\r\n`;

  it('subscribe confirms each channel, PUBLISH through Larder or on the server arrives, abort unsubscribes', async () => {
    const events = await openEvents(db, '/subscribe/chat/news/chat');
    assert.equal(events.status, 200);
    assert.equal(await events.next(), 'subscribe,chat,1');
    assert.equal(await events.next(), 'subscribe,news,2');
    assert.equal(await events.next(), 'subscribe,chat,2');
    assert.equal(await serverNumsub('chat'), subscribers('chat', 1));

    assert.equal(await db.ok(['publish', 'chat', 'héllo ✓']), 1);
    assert.equal(await events.next(), 'message,chat,héllo ✓');
    assert.equal(await redis.client.call(['PUBLISH', 'news', 'from the server']), ':1\r\n');
    assert.equal(await events.next(), 'message,news,from the server');
    assert.equal(await db.ok(['publish', 'nobody', 'x']), 0);

    events.close();
    await eventually(async () => (await serverNumsub('chat')) === subscribers('chat', 0), 'NUMSUB chat drops to 0 on the server');
    assert.equal(await db.ok(['publish', 'chat', 'unheard']), 0);
  });

  it('ends a stream that a message past the reply bound would leave without it', async () => {
    const events = await openEvents(db, '/subscribe/big');
    assert.equal(await events.next(), 'subscribe,big,1');
    assert.equal(await redis.client.call(['PUBLISH', 'big', 'x'.repeat(2 << 20)]), ':1\r\n');
    // The stream may end, and its subscription with it, before this message reaches the server.
    assert.match(await redis.client.call(['PUBLISH', 'big', 'after']), /^:[01]\r\n$/);
    await assert.rejects(events.next(), /^Error: stream ended; unread: ""$/);
  });

  it('psubscribe receives pmessage with the pattern and the channel', async () => {
    const events = await openEvents(db, '/psubscribe/events:*');
    assert.equal(await events.next(), 'psubscribe,events:*,1');
    assert.equal(await db.ok(['publish', 'events:login', 'ann']), 1);
    assert.equal(await db.ok(['publish', 'other', 'x']), 0);
    assert.equal(await events.next(), 'pmessage,events:*,events:login,ann');
    events.close();
    await eventually(async () => (await redis.client.call(['PUBSUB', 'NUMPAT'])) === ':0\r\n', 'NUMPAT drops to 0 on the server');
  });

  it('ssubscribe receives smessage from SPUBLISH', async () => {
    const events = await openEvents(db, '/ssubscribe/shard');
    assert.equal(await events.next(), 'ssubscribe,shard,1');
    assert.equal(await db.ok(['spublish', 'shard', 'piece']), 1);
    assert.equal(await events.next(), 'smessage,shard,piece');
    events.close();
  });

  it('refuses MONITOR, and subscribing without the right, before anything is sent', async () => {
    const monitor = await db.request('/monitor');
    assert.equal(monitor.status, 400);
    assert.deepEqual(await monitor.json(), { error: 'ERR MONITOR is not available on a remote Redis backend' });
    const token = await db.ok(['acl', 'resttoken', 'nosub', 'pw']);
    const refused = await db.request('/subscribe/x', { token });
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), {
      error: "NOPERM this user has no permissions to run the 'subscribe' command or its subcommand",
    });
    assert.equal(await serverNumsub('x'), subscribers('x', 0));
  });

  it('the official SDK subscribes and receives what it publishes', async () => {
    const sdk = sdkClient(db);
    const sub = sdk.subscribe(['sdk-chat']);
    const confirmed = new Promise((resolve) => sub.on('subscribe', resolve));
    assert.equal(await confirmed, 1);
    const received = new Promise((resolve) => sub.on('message', resolve));
    assert.equal(await sdk.publish('sdk-chat', { user: 'ann', text: 'héllo' }), 1);
    assert.deepEqual(await received, { channel: 'sdk-chat', message: { user: 'ann', text: 'héllo' } });
    await sub.unsubscribe();
    await eventually(async () => (await serverNumsub('sdk-chat')) === subscribers('sdk-chat', 0), 'NUMSUB drops to 0 after unsubscribe');
  });
});

describe('remote backend: pub/sub on a Redis Cluster', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  const { cluster, db } = suiteOnCluster(REDIS!);

  /** Subscribers of `channel` on every node (each node counts its own clients). */
  const everywhere = async (kind: 'NUMSUB' | 'SHARDNUMSUB', channel: string) => {
    let total = 0;
    for (const node of cluster.nodes) total += Number(/:(\d+)\r\n$/.exec(await node.client.call(['PUBSUB', kind, channel]))![1]);
    return total;
  };

  it('subscribe hears a PUBLISH made on any node; abort unsubscribes', async () => {
    const events = await openEvents(db, '/subscribe/chat');
    assert.equal(await events.next(), 'subscribe,chat,1');
    assert.equal(await everywhere('NUMSUB', 'chat'), 1);
    // A Cluster node's PUBLISH counts its own receivers only (0 or 1 here), as Redis Cluster does.
    assert.ok([0, 1].includes(await db.ok(['publish', 'chat', 'hello'])));
    assert.equal(await events.next(), 'message,chat,hello');
    for (const node of cluster.nodes) await node.client.call(['PUBLISH', 'chat', `from ${node.port}`]);
    // Messages from other nodes come over the cluster bus, in no set order.
    const heard: string[] = [];
    for (let i = 0; i < cluster.nodes.length; i++) heard.push(await events.next());
    assert.deepEqual(heard.sort(), cluster.nodes.map((n) => `message,chat,from ${n.port}`).sort());
    events.close();
    await eventually(async () => (await everywhere('NUMSUB', 'chat')) === 0, 'NUMSUB chat drops to 0');
  });

  it('ssubscribe listens on the node of its slot; shard channels of two slots are refused by the server', async () => {
    const events = await openEvents(db, '/ssubscribe/{s}a/{s}b');
    assert.equal(await events.next(), 'ssubscribe,{s}a,1');
    assert.equal(await events.next(), 'ssubscribe,{s}b,2');
    assert.equal(await db.ok(['spublish', '{s}b', 'piece']), 1);
    assert.equal(await events.next(), 'smessage,{s}b,piece');
    events.close();
    await eventually(async () => (await everywhere('SHARDNUMSUB', '{s}a')) === 0, 'SHARDNUMSUB drops to 0');
    const crossed = await db.request('/ssubscribe/a/b');
    assert.equal(crossed.status, 400);
    assert.deepEqual(await crossed.json(), { error: "CROSSSLOT Keys in request don't hash to the same slot" });
  });
});

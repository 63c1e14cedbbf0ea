// The remote backend on a real 3-master Redis Cluster: keys route by slot, MOVED is followed
// after a slot migrates, and multi-key commands and transactions across slots answer CROSSSLOT
// from Larder before anything is sent.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keySlot } from '../../../src/kv/redis/key-slot.js';
import { findRedisServer } from '../differential/redis-server.js';
import { suiteOnCluster } from './redis-cluster.js';

const REDIS = findRedisServer();
const CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

/** A key of the given slot, found by trying names. */
function keyInSlot(slot: number): string {
  for (let i = 0; ; i++) if (keySlot(`k${i}`) === slot) return `k${i}`;
}

describe('remote backend: Redis Cluster', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  const { cluster, db } = suiteOnCluster(REDIS!);
  const batch = async (path: string, commands: (string | number)[][]) => {
    const res = await db.request(path, { method: 'POST', body: JSON.stringify(commands) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('computes the slots Redis computes', async () => {
    for (const key of ['foo', 'bar', '{user1}.name', 'a{b}c', '']) {
      assert.equal((await cluster.cli('cluster', 'keyslot', key)).trim(), String(keySlot(key)), key);
    }
  });

  it('routes every key to the node owning its slot', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `route:${i}`);
    for (const k of keys) assert.equal(await db.ok(['set', k, k.toUpperCase()]), 'OK');
    for (const k of keys) assert.equal(await db.ok(['get', k]), k.toUpperCase());
    // The keys are spread over the three masters.
    const counts = await Promise.all(cluster.nodes.map((n) => n.client.call(['DBSIZE'])));
    assert.equal(counts.filter((c) => c !== ':0\r\n').length, 3);
  });

  it('answers CROSSSLOT for multi-key commands across slots, and runs them within one slot', async () => {
    assert.notEqual(keySlot('a'), keySlot('b'));
    assert.equal(await db.fails(['mset', 'a', '1', 'b', '2']), CROSSSLOT);
    assert.equal(await db.fails(['sunionstore', 'd', 's1', 's2']), CROSSSLOT);
    assert.equal(await db.ok(['mset', '{u}a', '1', '{u}b', '2']), 'OK');
    assert.deepEqual(await db.ok(['mget', '{u}a', '{u}b']), ['1', '2']);
  });

  it('runs a pipeline across slots in order, each command on its node', async () => {
    const res = await batch('/pipeline', [['set', 'p:a', '1'], ['set', 'p:b', '2'], ['incr', 'p:a'], ['mget', 'p:a', 'p:b'], ['get', 'p:b'], ['ping']]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [{ result: 'OK' }, { result: 'OK' }, { result: 2 }, { error: CROSSSLOT }, { result: '2' }, { result: 'PONG' }]);
  });

  it('runs a transaction within one slot, and refuses one across slots', async () => {
    const ok = await batch('/multi-exec', [['incr', '{tx}n'], ['incr', '{tx}n'], ['get', '{tx}n']]);
    assert.deepEqual(ok, { status: 200, body: [{ result: 1 }, { result: 2 }, { result: '2' }] });
    const refused = await batch('/multi-exec', [['incr', 'tx:a'], ['incr', 'tx:b']]);
    assert.notEqual(keySlot('tx:a'), keySlot('tx:b'));
    assert.deepEqual(refused, { status: 400, body: { error: CROSSSLOT } });
    assert.equal(await db.ok(['get', 'tx:a']), null);
  });

  it('sends RESTORE only while every master checks payloads in full', async () => {
    const setting = (node: number, value: string) => cluster.nodes[node].client.call(['CONFIG', 'SET', 'sanitize-dump-payload', value]);
    // Not the node of the key's slot: any master would read what a MIGRATE brings it.
    const key = keyInSlot(0);
    await setting(2, 'no');
    try {
      assert.equal(
        await db.fails(['restore', key, '0', 'junk']),
        "ERR RESTORE is refused unless the Redis server checks payloads in full (sanitize-dump-payload 'yes' or 'clients'): it is 'no'",
      );
    } finally {
      await setting(2, 'yes');
    }
    assert.equal(await db.fails(['restore', key, '0', 'junk']), 'ERR DUMP payload version or checksum are wrong');
  });

  it('follows MOVED after a slot migrates to another node', async () => {
    const key = keyInSlot(0);
    await db.ok(['set', key, 'before']);
    const ids = (await cluster.cli('cluster', 'myid')).trim();
    const target = (await cluster.nodes[1].client.call(['CLUSTER', 'MYID'])).split('\r\n')[1];
    // Slot 0 belongs to the first node; move it (with its key) to the second.
    await cluster.cli('--cluster', 'reshard', `127.0.0.1:${cluster.nodes[0].port}`, '--cluster-from', ids, '--cluster-to', target, '--cluster-slots', '1', '--cluster-yes');
    assert.equal(await db.ok(['get', key]), 'before');
    assert.equal(await db.ok(['set', key, 'after']), 'OK');
    assert.equal(await cluster.nodes[1].client.call(['GET', key]), '$5\r\nafter\r\n');
  });

  it('follows MOVED inside a pipeline that mixes keyless commands and writes in', async () => {
    // redis-cli reshard moves the source's lowest slot: find it in CLUSTER SLOTS (start, end, master).
    const slots = await cluster.nodes[0].client.call(['CLUSTER', 'SLOTS']);
    const owned = [...slots.matchAll(/:(\d+)\r\n:\d+\r\n\*\d+\r\n\$\d+\r\n[^\r]*\r\n:(\d+)\r\n/g)].filter((m) => Number(m[2]) === cluster.nodes[0].port);
    const key = keyInSlot(Math.min(...owned.map((m) => Number(m[1]))));
    await db.ok(['set', key, 'before']);
    const from = (await cluster.cli('cluster', 'myid')).trim();
    const to = (await cluster.nodes[2].client.call(['CLUSTER', 'MYID'])).split('\r\n')[1];
    await cluster.cli('--cluster', 'reshard', `127.0.0.1:${cluster.nodes[0].port}`, '--cluster-from', from, '--cluster-to', to, '--cluster-slots', '1', '--cluster-yes');
    // Nothing has told Larder's client yet: the pipeline goes to the slot's old node first.
    const res = await batch('/pipeline', [['get', key], ['echo', 'x'], ['set', key, 'after'], ['get', key]]);
    assert.deepEqual(res, { status: 200, body: [{ result: 'before' }, { result: 'x' }, { result: 'OK' }, { result: 'after' }] });
    assert.equal(await cluster.nodes[2].client.call(['GET', key]), '$5\r\nafter\r\n');
  });

  // Last: it stops the cluster.
  it('answers 503 while the Cluster is down, instead of queueing requests', async () => {
    await Promise.all(cluster.nodes.map((n) => n.stop()));
    const res = await db.command(['get', 'route:1']);
    assert.equal(res.status, 503);
    assert.match(res.body.error, /^ERR the Redis backend at 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+ is unavailable \(.+\); retry later$/);
  });
});

// Keyspace notifications, as Upstash's "Listen Keyspace Notifications" page describes them:
// CONFIG SET notify-keyspace-events turns classes on, each write then publishes on
// `__keyspace@0__:<key>` and `__keyevent@0__:<event>`, received here through the SDK's
// subscribe. What each command publishes is checked against redis-server by
// test/kv/differential/notifications.test.ts; here: CONFIG's answers in Redis's words, the
// events of expiry (lazy and active), which no differential run waits for, key misses through
// the SDK, and that the classes come back after a restart either way. On a remote backend
// Larder admits CONFIG SET (only this parameter reaches the server) and the server publishes
// the events itself; a Cluster's nodes each publish their own keys' events, which a
// subscription hears from every master.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { frame, readFrames } from '../../../src/storage/frames.js';
import { embeddedOnly, replies, startTestLarder, suiteLarder } from '../../support/larder.js';
import { eventually } from '../../support/eventually.js';
import { listenKeyspace } from '../../support/keyspace-listener.js';
import { RESTART_WAYS } from '../../support/restarts.js';
import { sdkClient } from '../../support/sdk.js';

const restarts = embeddedOnly('restarts Larder on the same data dir (the data is the server\'s)');
const PARAM = 'notify-keyspace-events';

/** The next `count` messages a subscriber gets, as [channel, message]; fails after ten seconds without them. */
function collect(sub: { on(type: any, listener: (data: any) => void): void }, count: number): Promise<[string, unknown][]> {
  const seen: [string, unknown][] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${seen.length} of ${count} messages came: ${JSON.stringify(seen)}`)), 10_000);
    sub.on('message', ({ channel, message }: { channel: string; message: unknown }) => {
      seen.push([channel, message]);
      if (seen.length === count) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

describe('keyspace notifications', () => {
  const t = suiteLarder();
  const { reply, fails } = replies(() => t);

  it('CONFIG SET and GET notify-keyspace-events answer as Redis 7.0 does', async () => {
    await reply(['config', 'get', PARAM], [PARAM, '']);
    await reply(['config', 'set', PARAM, 'KEA'], 'OK');
    await reply(['config', 'get', PARAM], [PARAM, 'AKE']);
    await reply(['config', 'set', PARAM, 'Ez'], 'OK');
    await reply(['config', 'get', 'notify-*'], [PARAM, 'zE']);
    await reply(['config', 'set', PARAM.toUpperCase(), 'tdn'], 'OK');
    await reply(['config', 'get', PARAM], [PARAM, 'tdn']);
    // Redis 7.0 shows A without the n it holds.
    await reply(['config', 'set', PARAM, 'AKEmn'], 'OK');
    await reply(['config', 'get', PARAM], [PARAM, 'AKEm']);
    await fails(['config', 'set', PARAM, 'Kq'], "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
    await fails(['config', 'set', 'maxmemory', '10'], "ERR Unknown option or number of arguments for CONFIG SET - 'maxmemory'");
    await fails(['config', 'set', PARAM, 'Kx', 'FOO', 'bar'], "ERR Unknown option or number of arguments for CONFIG SET - 'FOO'");
    await fails(['config', 'set', PARAM, 'Kx', PARAM, 'E'], "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - duplicate parameter");
    await fails(['config', 'set', PARAM], "ERR wrong number of arguments for 'config|set' command");
    await fails(['config', 'set', PARAM, 'K', 'x'], "ERR wrong number of arguments for 'config|set' command");
    // All or nothing: the failed calls left the classes as they were.
    await reply(['config', 'get', PARAM], [PARAM, 'AKEm']);
    // Administration: not for the read-only token.
    assert.deepEqual(await t.command(['config', 'set', PARAM, ''], { token: t.readOnlyToken }), {
      status: 400,
      body: { error: "NOPERM this user has no permissions to run the 'config|set' command or its subcommand" },
    });
    await reply(['config', 'set', PARAM, ''], 'OK');
  });

  it('a key whose time runs out publishes expired, found by a read or by the active expiry', async () => {
    const redis = sdkClient(t);
    await reply(['config', 'set', PARAM, 'Exg'], 'OK');
    const channels = ['__keyevent@0__:expired', '__keyevent@0__:expire', '__keyevent@0__:del'];
    const sub = redis.subscribe(channels);
    let confirmed = 0;
    await new Promise((resolve) => sub.on('subscribe', () => ++confirmed === channels.length && resolve(undefined)));
    const messages = collect(sub, 5);
    await reply(['set', 'lazy', 'v', 'PX', '30'], 'OK');
    await new Promise((r) => setTimeout(r, 60));
    await reply(['get', 'lazy'], null); // found expired by the read
    await reply(['set', 'active', 'v', 'PX', '30'], 'OK'); // never read: the expiry cycle finds it
    await reply(['set', 'gone', 'v'], 'OK');
    await reply(['del', 'gone'], 1);
    const got = await messages;
    const by = (channel: string) => got.filter(([c]) => c === channel).map(([, m]) => m);
    assert.deepEqual(by('__keyevent@0__:expire'), ['lazy', 'active']);
    assert.deepEqual(by('__keyevent@0__:del'), ['gone']);
    assert.deepEqual(by('__keyevent@0__:expired'), ['lazy', 'active']);
    await sub.unsubscribe();
    await reply(['config', 'set', PARAM, ''], 'OK');
  });

  it('a pattern subscription hears the events of every key (on a Cluster, of every master) and each PUBLISH once', async () => {
    await reply(['config', 'set', PARAM, 'K$'], 'OK');
    // Events are plain text, which the SDK would JSON-parse (and drop) as pattern messages.
    const sub = sdkClient(t, { deserialize: false }).psubscribe<string>('*');
    const seen: string[] = [];
    sub.on('pmessage', ({ channel, message }) => seen.push(`${channel} ${message}`));
    await new Promise((resolve) => sub.on('psubscribe', resolve));
    const keys = Array.from({ length: 8 }, (_, i) => `spread-${i}`); // in a Cluster, on every master
    for (const key of keys) await reply(['set', key, 'v'], 'OK');
    assert.equal((await t.command(['publish', 'news', 'hi'])).status, 200);
    const expected = [...keys.map((key) => `__keyspace@0__:${key} set`), 'news hi'].sort();
    await eventually(async () => seen.length >= expected.length, 'every event');
    await new Promise((r) => setTimeout(r, 100)); // time for a copy to follow
    assert.deepEqual(seen.sort(), expected);
    await sub.unsubscribe();
    await reply(['config', 'set', PARAM, ''], 'OK');
  });

  it('a read that misses its key publishes keymiss; a write, MEMORY USAGE or class m off do not', async () => {
    const redis = sdkClient(t);
    await reply(['config', 'set', PARAM, 'KEm'], 'OK');
    const channels = ['__keyevent@0__:keymiss', '__keyspace@0__:miss:read', '__keyspace@0__:miss:write', '__keyspace@0__:miss:end'];
    const sub = redis.subscribe(channels);
    let confirmed = 0;
    await new Promise((resolve) => sub.on('subscribe', () => ++confirmed === channels.length && resolve(undefined)));
    const messages = collect(sub, 4);
    assert.equal(await redis.get('miss:read'), null);
    assert.equal(await redis.set('miss:write', 'v'), 'OK'); // a write's lookup (Redis's lookupKeyWrite)
    await reply(['memory', 'usage', 'miss:usage'], null); // Redis's LOOKUP_NONOTIFY
    await reply(['config', 'set', PARAM, 'KE'], 'OK');
    assert.equal(await redis.get('miss:off'), null);
    await reply(['config', 'set', PARAM, 'KEm'], 'OK');
    assert.equal(await redis.get('miss:end'), null); // the last: nothing else came before it
    const got = await messages;
    // By channel: on a remote backend, messages of different channels may come in either order.
    const by = (channel: string) => got.filter(([c]) => c === channel).map(([, m]) => m);
    assert.deepEqual(by('__keyevent@0__:keymiss'), ['miss:read', 'miss:end']);
    assert.deepEqual(by('__keyspace@0__:miss:read'), ['keymiss']);
    assert.deepEqual(by('__keyspace@0__:miss:write'), []);
    assert.deepEqual(by('__keyspace@0__:miss:end'), ['keymiss']);
    await sub.unsubscribe();
    await reply(['config', 'set', PARAM, ''], 'OK');
  });

  for (const way of RESTART_WAYS) {
    restarts(`the classes come back after a restart (${way.how})`, async () => {
      let server = await startTestLarder(way.config);
      try {
        await server.ok(['config', 'set', PARAM, 'Kg$']);
        await server.ok(['set', 'k', 'v']); // a write after it: with compaction, the classes are in the snapshot
        let dataDir = server.dataDir;
        await server.close(true);
        server = await startTestLarder(way.config, dataDir);
        assert.deepEqual(await server.ok(['config', 'get', PARAM]), [PARAM, 'g$K']);
        // A with n, which CONFIG GET does not show, comes back whole.
        await server.ok(['config', 'set', PARAM, 'EAn']);
        await server.ok(['set', 'k', 'v2']);
        dataDir = server.dataDir;
        await server.close(true);
        server = await startTestLarder(way.config, dataDir);
        assert.deepEqual(await server.ok(['config', 'get', PARAM]), [PARAM, 'AE']);
        const heard = await listenKeyspace(server, '__keyevent@0__:new');
        await server.ok(['set', 'fresh', 'v']);
        await heard.expect(['__keyevent@0__:new fresh']);
        await heard.stop();
      } finally {
        await server.close();
      }
    });
  }

  restarts('a snapshot of the version that kept the classes as bits still loads them', async () => {
    const config = { kv: { compactAfterBytes: 1 } };
    let server = await startTestLarder(config);
    try {
      await server.ok(['config', 'set', PARAM, 'Kg$']);
      await server.ok(['set', 'k', 'v']);
      const dataDir = server.dataDir;
      await server.close(true);
      const dir = join(dataDir, 'kv', 'default');
      const snapshots = readdirSync(dir).filter((name) => name.startsWith('snapshot-'));
      assert.notEqual(snapshots.length, 0, 'compaction wrote a snapshot');
      for (const name of snapshots) {
        const { frames } = readFrames(readFileSync(join(dir, name)));
        const header = JSON.parse(frames[0].toString());
        assert.equal(header.keyspaceEvents, 'g$K');
        header.keyspaceEvents = 0b1101; // K, g and $ as Redis's NOTIFY_* bits, as that version wrote them
        writeFileSync(join(dir, name), Buffer.concat([Buffer.from(JSON.stringify(header)), ...frames.slice(1)].map(frame)));
      }
      server = await startTestLarder(config, dataDir);
      assert.deepEqual(await server.ok(['config', 'get', PARAM]), [PARAM, 'g$K']);
      assert.equal(await server.ok(['get', 'k']), 'v');
    } finally {
      await server.close();
    }
  });
});

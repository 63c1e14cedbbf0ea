// Pub/sub over HTTP, against a real Larder: PUBLISH and PUBSUB as Redis 7.0 answers them
// (checked against redis-server), and the server-sent event streams /subscribe, /psubscribe,
// /ssubscribe and /monitor read with raw fetch and raw sockets.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeCommands } from '../../../src/kv/engine/command-codec.js';
import { readFrames } from '../../../src/storage/frames.js';
import { eventually } from '../../support/eventually.js';
import { openEvents } from '../../support/event-stream.js';
import { embeddedOnly, notOnCluster, replies, startTestLarder, type TestLarder } from '../../support/larder.js';

/** Why a test of subscriber counts skips on a Cluster. */
const NODE_COUNTS = 'PUBLISH and PUBSUB count the subscribers of the node that answers';

describe('pub/sub commands over HTTP', () => {
  let t: TestLarder;
  before(async () => {
    const users = [
      { name: 'nosub', rules: 'on >pw ~* &* +@all -subscribe' },
      { name: 'news', rules: 'on >pw ~* &news:* +@all' },
    ];
    t = await startTestLarder({ kv: { databases: { default: { users } } } });
  });
  after(() => t.close());
  const { reply, fails } = replies(() => t);
  const numsub = async (channel: string) => (await t.ok(['pubsub', 'numsub', channel]))[1];

  it('PUBLISH counts receivers; nobody listens to start with', async () => {
    await reply(['publish', 'ch', 'hello'], 0);
    await reply(['spublish', 'ch', 'hello'], 0);
    await fails(['publish', 'ch'], "ERR wrong number of arguments for 'publish' command");
    await fails(['publish', 'ch', 'a', 'b'], "ERR wrong number of arguments for 'publish' command");
    await fails(['spublish', 'ch'], "ERR wrong number of arguments for 'spublish' command");
  });

  it('PUBSUB subcommands on an idle server, and their errors', async () => {
    await reply(['pubsub', 'channels'], []);
    await reply(['pubsub', 'channels', '*'], []);
    await reply(['pubsub', 'numsub'], []);
    await reply(['pubsub', 'numsub', 'a', 'b'], ['a', 0, 'b', 0]);
    await reply(['pubsub', 'numpat'], 0);
    await reply(['pubsub', 'shardchannels'], []);
    await reply(['pubsub', 'shardnumsub', 'a'], ['a', 0]);
    await fails(['pubsub', 'channels', 'a', 'b'], "ERR unknown subcommand or wrong number of arguments for 'channels'. Try PUBSUB HELP.");
    await fails(['pubsub', 'SHARDCHANNELS', 'a', 'b'], "ERR unknown subcommand or wrong number of arguments for 'SHARDCHANNELS'. Try PUBSUB HELP.");
    await fails(['pubsub', 'numpat', 'x'], "ERR wrong number of arguments for 'pubsub|numpat' command");
    await fails(['pubsub', 'foo'], "ERR unknown subcommand 'foo'. Try PUBSUB HELP.");
    await fails(['pubsub'], "ERR wrong number of arguments for 'pubsub' command");
    const help = await t.ok(['pubsub', 'help']);
    assert.equal(help[0], 'PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:');
    assert.equal(help.length, 14);
  });

  it('refuses SUBSCRIBE, MONITOR and the UNSUBSCRIBE family as plain commands', async () => {
    for (const name of ['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe']) {
      const argv = name.endsWith('unsubscribe') ? [name] : [name, 'ch'];
      await fails(argv, `ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`);
    }
    await fails(['monitor'], "ERR Command is not available: 'monitor'. See https://upstash.com/docs/redis/overall/rediscompatibility for details");
    await fails(['subscribe'], "ERR wrong number of arguments for 'subscribe' command");
  });

  embeddedOnly("COMMAND INFO is the server's (Redis 7.0 adds the pubsub, loading and stale flags)")('describes the commands as Redis does in COMMAND INFO', async () => {
    const info = await t.ok(['command', 'info', 'publish', 'subscribe', 'monitor']);
    assert.deepEqual(info[0].slice(0, 7), ['publish', 3, ['fast'], 0, 0, 0, ['@pubsub', '@fast']]);
    assert.deepEqual(info[1].slice(0, 7), ['subscribe', -2, [], 0, 0, 0, ['@pubsub', '@slow']]);
    assert.deepEqual(info[2].slice(0, 7), ['monitor', 1, ['admin'], 0, 0, 0, ['@admin', '@slow', '@dangerous']]);
  });

  notOnCluster(NODE_COUNTS)('streams subscribe confirmations and messages; PUBLISH counts the subscriber', async () => {
    const sub = await openEvents(t, '/subscribe/news/sport');
    assert.equal(sub.status, 200);
    assert.equal(sub.headers.get('content-type'), 'text/event-stream');
    assert.equal(await sub.next(), 'subscribe,news,1');
    assert.equal(await sub.next(), 'subscribe,sport,2');
    await reply(['pubsub', 'numsub', 'news', 'sport', 'other'], ['news', 1, 'sport', 1, 'other', 0]);
    assert.deepEqual((await t.ok(['pubsub', 'channels'])).sort(), ['news', 'sport']);
    await reply(['pubsub', 'channels', 'n*'], ['news']);
    await reply(['publish', 'news', 'hello'], 1);
    await reply(['publish', 'sport', '{"score":[1,2]}'], 1);
    await reply(['publish', 'other', 'unheard'], 0);
    assert.equal(await sub.next(), 'message,news,hello');
    assert.equal(await sub.next(), 'message,sport,{"score":[1,2]}');
    // UTF-8 text arrives as the same text; line breaks become several data lines.
    await reply(['publish', 'news', 'héllo ✓'], 1);
    assert.equal(await sub.next(), 'message,news,héllo ✓');
    await reply(['publish', 'news', 'one\ntwo\r\nthree'], 1);
    assert.equal(await sub.next(), 'message,news,one\ntwo\nthree');
    // A second subscriber as the SDK opens it; the stream is text whatever the encoding header.
    const second = await openEvents(t, '/subscribe/news', {
      method: 'POST',
      body: '[]',
      headers: { accept: 'text/event-stream', 'upstash-encoding': 'base64' },
    });
    assert.equal(await second.next(), 'subscribe,news,1');
    // The path form of PUBLISH.
    assert.deepEqual(await (await t.request('/publish/news/b%C3%B6th')).json(), { result: 2 });
    assert.equal(await sub.next(), 'message,news,böth');
    assert.equal(await second.next(), 'message,news,böth');
    sub.close();
    second.close();
    await eventually(async () => (await numsub('news')) === 0, 'NUMSUB news drops to 0');
  });

  notOnCluster(NODE_COUNTS)('a client that aborts its stream is unsubscribed at once', async () => {
    const sub = await openEvents(t, '/subscribe/abort-me');
    assert.equal(await sub.next(), 'subscribe,abort-me,1');
    assert.equal(await numsub('abort-me'), 1);
    sub.close();
    await eventually(async () => (await numsub('abort-me')) === 0, 'NUMSUB abort-me drops to 0');
    await reply(['publish', 'abort-me', 'gone'], 0);
    await reply(['pubsub', 'channels', 'abort-me'], []);
  });

  notOnCluster(NODE_COUNTS)('streams pattern messages; a client matching twice counts twice', async () => {
    const sub = await openEvents(t, '/psubscribe/user:*/user:1%3F');
    assert.equal(await sub.next(), 'psubscribe,user:*,1');
    assert.equal(await sub.next(), 'psubscribe,user:1?,2');
    await reply(['pubsub', 'numpat'], 2);
    await reply(['pubsub', 'numsub', 'user:*'], ['user:*', 0]);
    await reply(['publish', 'user:7', 'a'], 1);
    await reply(['publish', 'user:12', 'b'], 2);
    await reply(['publish', 'group:1', 'c'], 0);
    assert.equal(await sub.next(), 'pmessage,user:*,user:7,a');
    // One PUBLISH matching two patterns: Redis sends them in its own (hash table) order.
    assert.deepEqual([await sub.next(), await sub.next()].sort(), ['pmessage,user:*,user:12,b', 'pmessage,user:1?,user:12,b']);
    sub.close();
    await eventually(async () => (await t.ok(['pubsub', 'numpat'])) === 0, 'NUMPAT drops to 0');
  });

  notOnCluster(NODE_COUNTS)('streams shard channels apart from the others', async () => {
    const sub = await openEvents(t, '/ssubscribe/orders');
    assert.equal(await sub.next(), 'ssubscribe,orders,1');
    await reply(['pubsub', 'shardchannels'], ['orders']);
    await reply(['pubsub', 'shardnumsub', 'orders'], ['orders', 1]);
    await reply(['pubsub', 'numsub', 'orders'], ['orders', 0]);
    await reply(['publish', 'orders', 'not-shard'], 0);
    await reply(['spublish', 'orders', 'o1'], 1);
    assert.equal(await sub.next(), 'smessage,orders,o1');
    sub.close();
    await eventually(async () => (await t.ok(['pubsub', 'shardnumsub', 'orders']))[1] === 0, 'SHARDNUMSUB drops to 0');
  });

  it('admits a stream like its command: tokens, ACL and arity', async () => {
    const noToken = await t.request('/subscribe/x', { token: null });
    assert.equal(noToken.status, 401);
    await noToken.body?.cancel();
    const token = await t.ok(['acl', 'resttoken', 'nosub', 'pw']);
    const refused = await t.request('/subscribe/x', { token });
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), {
      error: "NOPERM this user has no permissions to run the 'subscribe' command or its subcommand",
    });
    const allowed = await openEvents(t, '/psubscribe/x', { token });
    assert.equal(await allowed.next(), 'psubscribe,x,1');
    allowed.close();
    // Read-only tokens may listen, but not monitor (administration).
    const readOnly = await openEvents(t, '/subscribe/ro', { token: t.readOnlyToken });
    assert.equal(await readOnly.next(), 'subscribe,ro,1');
    readOnly.close();
    const monitor = await t.request('/monitor', { token: t.readOnlyToken });
    assert.equal(monitor.status, 400);
    assert.deepEqual(await monitor.json(), {
      error: "NOPERM this user has no permissions to run the 'monitor' command or its subcommand",
    });
    const bare = await t.request('/subscribe');
    assert.equal(bare.status, 400);
    assert.deepEqual(await bare.json(), { error: "ERR wrong number of arguments for 'subscribe' command" });
    const head = await t.request('/subscribe/x', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/event-stream');
    await eventually(async () => (await numsub('ro')) === 0, 'read-only stream ends');
    await eventually(async () => (await t.ok(['pubsub', 'numpat'])) === 0, 'ACL user stream ends');
    await reply(['pubsub', 'numsub', 'x'], ['x', 0]);
  });

  it("keeps an ACL user to its channels: PUBLISH and SUBSCRIBE match them, PSUBSCRIBE's pattern must be one", async () => {
    const token = await t.ok(['acl', 'resttoken', 'news', 'pw']);
    const refused = { status: 400, body: { error: 'NOPERM this user has no permissions to access one of the channels used as arguments' } };
    assert.deepEqual(await t.command(['publish', 'news:1', 'x'], { token }), { status: 200, body: { result: 0 } });
    assert.deepEqual(await t.command(['publish', 'other', 'x'], { token }), refused);
    assert.deepEqual(await t.command(['spublish', 'other', 'x'], { token }), refused);
    for (const path of ['/subscribe/news:1/other', '/ssubscribe/other', '/psubscribe/news:1*', '/psubscribe/*']) {
      const res = await t.request(path, { token });
      assert.deepEqual({ status: res.status, body: await res.json() }, refused, path);
    }
    const allowed = await openEvents(t, '/psubscribe/news:*', { token });
    assert.equal(await allowed.next(), 'psubscribe,news:*,1');
    allowed.close();
    await reply(['acl', 'dryrun', 'news', 'publish', 'other', 'x'], "This user has no permissions to access the 'other' channel");
    await reply(['acl', 'dryrun', 'news', 'publish', 'news:2', 'x'], 'OK');
    await eventually(async () => (await t.ok(['pubsub', 'numpat'])) === 0, 'ACL user stream ends');
  });

  it("refuses a script's PUBLISH to a channel its user may not use", async () => {
    const token = await t.ok(['acl', 'resttoken', 'news', 'pw']);
    const res = await t.command(['eval', "return redis.call('publish', 'other', 'x')", '0'], { token });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /^ERR The user executing the script can't publish to the channel mentioned in the command script: /);
  });

  embeddedOnly('/monitor is refused (the server would show every client of it)')('monitor streams every command as Redis MONITOR lines', async () => {
    const monitor = await openEvents(t, '/monitor');
    assert.equal(await monitor.next(), 'OK');
    await t.ok(['set', 'k', 'a "quoted"\nvalue\u00e9']);
    await t.command(['get', 'k']);
    await t.command(['incr', 'k']); // an error still ran
    await t.command(['config', 'get', 'maxmemory']); // administration is not shown
    await t.command(['nosuchcommand']); // never ran
    await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['ping'], ['echo', 'x']]) }).then((r) => r.text());
    const line = /^(\d+)\.(\d{6}) \[0 http\] (.*)$/;
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = line.exec(await monitor.next());
      assert.ok(m !== null);
      assert.ok(Math.abs(Number(m[1]) - Date.now() / 1000) < 3600);
      seen.push(m[3]);
    }
    assert.deepEqual(seen, [
      '"set" "k" "a \\"quoted\\"\\nvalue\\xc3\\xa9"',
      '"get" "k"',
      '"incr" "k"',
      '"ping"',
      '"echo" "x"',
    ]);
    monitor.close();
  });

  embeddedOnly("Larder's own journal and sync token: the data is the server's")('PUBLISH is not logged and changes no sync token', async () => {
    const before = (await t.request('/publish/log/x')).headers.get('upstash-sync-token');
    const after = (await t.request('/publish/log/y')).headers.get('upstash-sync-token');
    assert.equal(after, before);
    await t.ok(['set', 'logged', '1']);
    const dir = join(t.dataDir, 'kv', 'default');
    const logged = readdirSync(dir)
      .filter((name) => name.endsWith('.aof'))
      .flatMap((name) => readFrames(readFileSync(join(dir, name))).frames.flatMap((f) => decodeCommands(f).map((a) => a[0])));
    assert.ok(logged.includes('set'), JSON.stringify(logged));
    assert.ok(!logged.some((name) => name.toLowerCase().includes('publish')), JSON.stringify(logged));
  });
});

/** A raw HTTP request on a socket the test never reads from: the slowest possible client. */
function stuckSubscriber(url: string, path: string, token: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${new URL(url).pathname}${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('slow subscribers', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder({ kv: { streamBufferBytes: 64 * 1024 } });
  });
  after(() => t.close());

  notOnCluster(NODE_COUNTS)('a subscriber that reads nothing is disconnected; publishers never wait and others still hear', async () => {
    const stuck = await stuckSubscriber(t.kvUrl, '/subscribe/flood', t.token);
    const fast = await openEvents(t, '/subscribe/flood');
    assert.equal(await fast.next(), 'subscribe,flood,1');
    const numsub = async () => (await t.ok(['pubsub', 'numsub', 'flood']))[1];
    await eventually(async () => (await numsub()) === 2, 'both subscribers are in');
    const message = 'x'.repeat(64 * 1024);
    let received = 0;
    const reading = (async () => {
      for (let event = await fast.next(); event !== 'message,flood,end'; event = await fast.next()) {
        assert.equal(event, `message,flood,${message}`);
        received++;
      }
    })();
    // Loopback socket buffers take a few MiB; past them and the 64 KiB queue, the stuck client
    // is cut. Every PUBLISH is answered meanwhile.
    let published = 1;
    while ((await t.ok(['publish', 'flood', message])) === 2) {
      published++;
      assert.ok(published < 2000, 'the stuck subscriber was never disconnected');
    }
    assert.equal(await numsub(), 1);
    assert.equal(await t.ok(['publish', 'flood', 'end']), 1);
    await reading;
    assert.equal(received, published);
    // Its connection is cut: once the client reads, it sees the stream end short.
    let bytes = 0;
    stuck.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const closed = new Promise<void>((resolve) => stuck.on('close', () => resolve()));
    stuck.resume();
    await closed;
    assert.ok(bytes < published * message.length, `${bytes} bytes of ${published * message.length}`);
    fast.close();
  });
});

describe('shutdown with open streams', () => {
  it('closes while subscribers are connected', async () => {
    const t = await startTestLarder();
    const sub = await openEvents(t, '/subscribe/ch');
    assert.equal(await sub.next(), 'subscribe,ch,1');
    await t.close();
    await assert.rejects(sub.next());
  });

  embeddedOnly('/monitor is refused (the server would show every client of it)')('closes while monitors are connected', async () => {
    const t = await startTestLarder();
    const monitor = await openEvents(t, '/monitor');
    assert.equal(await monitor.next(), 'OK');
    await t.close();
    await assert.rejects(monitor.next());
  });
});

// The remote backend on a real standalone redis-server: bytes and reply kinds survive the trip,
// admission happens in Larder before anything is sent, transactions never interleave, and an
// outage answers 503 until the gateway has reconnected by itself.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EMBEDDED } from '../../../src/kv/commands/spec.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';
import { eventually } from '../../support/eventually.js';
import { launchLarder } from '../../support/larder-process.js';
import { startTestLarder, type KvClient, type TestLarder } from '../../support/larder.js';

const REDIS = findRedisServer();
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('remote backend: standalone Redis', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  let db: KvClient;
  before(async () => {
    redis = await startRedisServer(REDIS!);
    // A database of its own name, so LARDER_TEST_KV_BACKEND (which moves 'default') leaves it be.
    t = await startTestLarder({ kv: { databases: { default: {}, remote: { url: `redis://127.0.0.1:${redis.port}` } } } });
    db = t.database('remote');
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('keeps the data in Redis', async () => {
    assert.equal(await db.ok(['set', 'where', 'remote']), 'OK');
    assert.equal(await redis.client.call(['GET', 'where']), '$6\r\nremote\r\n');
  });

  it('reads replies as bytes: binary values, base64, Status apart from bulk, integers past 2^53', async () => {
    const bytes = Buffer.from([0xff, 0x00, 0x80, 0x0d, 0x0a]);
    const put = await db.request('/set/bin', { method: 'POST', body: bytes });
    assert.equal(put.status, 200);
    const b64 = { headers: { 'upstash-encoding': 'base64' } };
    assert.deepEqual(await db.command(['get', 'bin'], b64), { status: 200, body: { result: bytes.toString('base64') } });
    await db.ok(['set', 'ok', 'OK']);
    // The status OK stays "OK" in base64; the bulk string "OK" is encoded.
    assert.deepEqual(await db.command(['set', 'ok', 'OK'], b64), { status: 200, body: { result: 'OK' } });
    assert.deepEqual(await db.command(['get', 'ok'], b64), { status: 200, body: { result: 'T0s=' } });
    const resp2 = async (argv: string[]) =>
      Buffer.from(await (await db.request('', { method: 'POST', body: JSON.stringify(argv), headers: { 'upstash-response-format': 'resp2' } })).arrayBuffer()).toString('latin1');
    assert.equal(await resp2(['type', 'ok']), '+string\r\n');
    assert.equal(await resp2(['get', 'ok']), '$2\r\nOK\r\n');
    const big = await db.request('', { method: 'POST', body: '["incrby","big","9007199254740993"]' });
    assert.equal(await big.text(), '{"result":9007199254740993}');
    assert.deepEqual(await db.ok(['hgetall', 'nohash']), []);
    await db.ok(['hset', 'h', 'a', '1']);
    assert.deepEqual(await db.ok(['hgetall', 'h']), ['a', '1']);
  });

  it('passes the server’s errors through with their text', async () => {
    await db.ok(['set', 'str', 'x']);
    assert.equal(await db.fails(['lpush', 'str', 'y']), 'WRONGTYPE Operation against a key holding the wrong kind of value');
    assert.equal(await db.fails(['incr', 'str']), 'ERR value is not an integer or out of range');
  });

  it('admits commands in Larder before sending them: read-only tokens, unknown commands, arity', async () => {
    const refused = await db.command(['set', 'ro', 'x'], { token: db.readOnlyToken });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /^NOPERM /);
    assert.equal(await redis.client.call(['EXISTS', 'ro']), ':0\r\n');
    assert.equal(await db.fails(['get']), "ERR wrong number of arguments for 'get' command");
    // CONFIG SET passes notify-keyspace-events alone: the server's other settings stay out of reach.
    assert.equal(await db.fails(['config', 'set', 'maxmemory', '1']), "ERR Unknown option or number of arguments for CONFIG SET - 'maxmemory'");
    assert.equal(await db.fails(['config', 'set', 'notify-keyspace-events', 'KEA', 'dir', '/tmp']), "ERR Unknown option or number of arguments for CONFIG SET - 'dir'");
    assert.equal(await redis.client.call(['CONFIG', 'GET', 'maxmemory']), '*2\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n');
    // CONFIG GET shows the server's values of the settings the embedded engine shows, no others
    // (requirepass, masterauth and the server's paths stay out of reach).
    assert.deepEqual(await db.ok(['config', 'get', 'dir', 'requirepass', 'masterauth']), []);
    const all = (await db.ok(['config', 'get', '*'])) as string[];
    const names = all.filter((_, i) => i % 2 === 0).sort();
    assert.deepEqual(names, ['appendonly', 'databases', 'maxmemory', 'maxmemory-policy', 'notify-keyspace-events', 'save', 'timeout']);
    assert.deepEqual(await db.ok(['config', 'get', 'MAXMEMORY']), ['maxmemory', '0']);
    const res = await db.request('/pipeline', { method: 'POST', body: '[["set","p","1"],["nosuch"],["incr","p"]]' });
    const body = (await res.json()) as { result?: unknown; error?: string }[];
    assert.deepEqual(body[0], { result: 'OK' });
    assert.match(body[1].error!, /^ERR unknown command 'nosuch'/);
    assert.deepEqual(body[2], { result: 2 });
  });

  it('manages ACL users and tokens in Larder, not in Redis', async () => {
    assert.equal(await db.ok(['acl', 'setuser', 'reader', 'on', '>pw', '~r:*', '+get']), 'OK');
    const token = await db.ok(['acl', 'resttoken', 'reader', 'pw']);
    assert.equal(await redis.client.call(['ACL', 'USERS']), '*1\r\n$7\r\ndefault\r\n');
    await db.ok(['set', 'r:1', 'v']);
    assert.deepEqual(await db.command(['get', 'r:1'], { token }), { status: 200, body: { result: 'v' } });
    assert.equal((await db.command(['get', 'other'], { token })).status, 400);
  });

  it("keeps to its own database of the server: FLUSHALL flushes it alone, COPY's DB names no other", async () => {
    const inDb1 = async (argv: string[]) => {
      await redis.client.call(['SELECT', '1']);
      const out = await redis.client.call(argv);
      await redis.client.call(['SELECT', '0']);
      return out;
    };
    await inDb1(['SET', 'elsewhere', 'kept']);
    await db.ok(['set', 'mine', 'v']);
    assert.equal(await db.ok(['flushall', 'sync']), 'OK');
    assert.equal(await db.ok(['dbsize']), 0);
    assert.equal(await inDb1(['GET', 'elsewhere']), '$4\r\nkept\r\n');
    await db.ok(['set', 'src', 'v']);
    assert.equal(await db.fails(['copy', 'src', 'dst', 'db', '1']), 'ERR DB index is out of range');
    assert.equal(await db.fails(['copy', 'src', 'dst', 'db', '0', 'replace', 'db', '1']), 'ERR DB index is out of range');
    assert.equal(await inDb1(['EXISTS', 'dst']), ':0\r\n');
    assert.equal(await db.ok(['copy', 'src', 'dst', 'db', '0']), 1);
    assert.equal(await db.ok(['get', 'dst']), 'v');
    await inDb1(['DEL', 'elsewhere']);
  });

  it("INFO shows the server's values of what the embedded engine shows, this database's keyspace alone", async () => {
    await redis.client.call(['SELECT', '1']);
    await redis.client.call(['SET', 'elsewhere', 'v']);
    await redis.client.call(['SELECT', '0']);
    await db.ok(['set', 'mine', 'v']);
    const info: string = await db.ok(['info', 'everything']);
    assert.match(info, /^# Server\r\nredis_version:7\.\d+\.\d+\r\n/);
    assert.match(info, /\r\n# Keyspace\r\ndb0:keys=\d+,expires=\d+,avg_ttl=\d+\r\n$/);
    const sections = info.split('\r\n').filter((l) => l.startsWith('# '));
    assert.deepEqual(sections, ['# Server', '# Clients', '# Memory', '# Persistence', '# Stats', '# Replication', '# CPU', '# Keyspace']);
    // The server's paths, its other indexes, its every client's command counts: not this database's.
    for (const hidden of ['executable:', 'config_file:', 'db1:', 'cmdstat_', 'tcp_port:']) assert.ok(!info.includes(hidden), hidden);
    assert.equal(await db.ok(['info', 'keyspace']), (await db.ok(['info', 'KEYSPACE', 'commandstats'])) as string);
    assert.match(await db.ok(['info', 'stats']), /^# Stats\r\ntotal_commands_processed:\d+\r\nexpired_keys:\d+\r\n$/);
    await redis.client.call(['SELECT', '1']);
    await redis.client.call(['DEL', 'elsewhere']);
    await redis.client.call(['SELECT', '0']);
  });

  it('sends RESTORE only to a server that checks its payloads in full (sanitize-dump-payload)', async () => {
    await db.ok(['set', 'orig', 'value']);
    const dumped = await db.command(['dump', 'orig'], { headers: { 'upstash-encoding': 'base64' } });
    // The payload is binary: it travels percent-encoded in the path.
    const payload = [...Buffer.from(dumped.body.result as string, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const restore = async (key: string) => {
      const res = await db.request(`/restore/${key}/0/${payload}`);
      return { status: res.status, body: (await res.json()) as { result?: unknown; error?: string } };
    };
    const unchecked = "ERR RESTORE is refused unless the Redis server checks payloads in full (sanitize-dump-payload 'yes' or 'clients'): it is 'no'";
    // Redis's default: a crafted payload would be read unchecked by the server every database shares.
    await redis.client.call(['CONFIG', 'SET', 'sanitize-dump-payload', 'no']);
    assert.deepEqual(await restore('copy'), { status: 400, body: { error: unchecked } });
    assert.equal(await redis.client.call(['EXISTS', 'copy']), ':0\r\n');
    const batch = '[["set","a","1"],["restore","b","0","junk"],["incr","a"]]';
    const piped = await db.request('/pipeline', { method: 'POST', body: batch });
    assert.deepEqual(await piped.json(), [{ result: 'OK' }, { error: unchecked }, { result: 2 }]);
    const multi = await db.request('/multi-exec', { method: 'POST', body: batch });
    assert.deepEqual(await multi.json(), [{ result: 'OK' }, { error: unchecked }, { result: 2 }]);
    // A server that checks them: RESTORE goes, and the server judges the payload.
    for (const setting of ['clients', 'yes']) {
      await redis.client.call(['CONFIG', 'SET', 'sanitize-dump-payload', setting]);
      await db.ok(['del', 'copy']);
      assert.deepEqual(await restore('copy'), { status: 200, body: { result: 'OK' } });
      assert.equal(await db.ok(['get', 'copy']), 'value');
      const checked = await db.request('/pipeline', { method: 'POST', body: batch });
      assert.deepEqual(await checked.json(), [{ result: 'OK' }, { error: 'ERR DUMP payload version or checksum are wrong' }, { result: 2 }]);
    }
  });

  it("runs a limited user's scripts as a Redis user of its own, made again when the server lost it", async () => {
    assert.equal(await db.ok(['acl', 'setuser', 'lim', 'on', '>pw', '~l:*', '+@all']), 'OK');
    const token = await db.ok(['acl', 'resttoken', 'lim', 'pw']);
    const script = ['eval', "return redis.call('SET', KEYS[1], 'v')", '1', 'l:1'];
    const scriptUsers = async () => ((await redis.client.call(['ACL', 'USERS'])).match(/larder-script:lim:\S+/g) ?? []).sort();
    assert.deepEqual(await db.command(script, { token }), { status: 200, body: { result: 'OK' } });
    const first = (await scriptUsers())[0];
    assert.ok(first !== undefined, 'the Redis user made for lim');
    const made = await redis.client.call(['ACL', 'GETUSER', first]);
    assert.match(made, /~l:\*/);
    // The commands one by one, those Larder runs: none that reaches another database or that Larder refuses.
    for (const absent of ['+migrate', '+swapdb', '+copy', '+flushall', '+restore', '+debug', '+json']) assert.ok(!made.includes(absent), absent);
    for (const script of ["return redis.call('SWAPDB', '0', '1')", "return redis.call('FLUSHALL')", "return redis.call('LASTSAVE')"]) {
      const res = await db.command(['eval', script, '0'], { token });
      assert.equal(res.status, 400, script);
      assert.match(res.body.error, /^ERR The user executing the script can't run this command or subcommand script: /, script);
    }
    // Forgotten, as by a restart without an ACL file: its connection is cut, and it is made again.
    await redis.client.call(['ACL', 'DELUSER', first]);
    assert.deepEqual(await db.command(script, { token }), { status: 200, body: { result: 'OK' } });
    assert.deepEqual(await scriptUsers(), [first]);
    // New rules, a new Redis user: the older one goes.
    await db.ok(['acl', 'setuser', 'lim', '~m:*']);
    assert.deepEqual(await db.command(['eval', "return redis.call('SET', 'm:1', 'v')", '0'], { token }), { status: 200, body: { result: 'OK' } });
    const now = await scriptUsers();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], first);
    // One connection as it: the older user's connection was closed, not left reconnecting.
    const clients = async () => (await redis.client.call(['CLIENT', 'LIST'])).split('\n').filter((l) => l.includes(' user=larder-script:lim:')).length;
    await eventually(async () => (await clients()) === 1, 'one connection as the Redis user of lim');
    // Deleting the user deletes its Redis user, and that user's connection with it.
    assert.equal(await db.ok(['acl', 'deluser', 'lim']), 1);
    await eventually(async () => (await scriptUsers()).length === 0 && (await clients()) === 0, 'no Redis user or connection of lim');
  });

  it('runs 50 concurrent transactions without interleaving them', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        db.request('/multi-exec', { method: 'POST', body: '[["incr","counter"],["get","counter"]]' }).then((r) => r.json()),
      ),
    );
    const seen = results.map((r: any) => {
      // Nothing ran between this transaction's INCR and its GET.
      assert.equal(String(r[0].result), r[1].result);
      return r[0].result as number;
    });
    assert.deepEqual(seen.sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 1));
    assert.equal(await db.ok(['get', 'counter']), '50');
  });

  it('changes the sync token after each write', async () => {
    const token = async (argv: string[]) => (await db.request('', { method: 'POST', body: JSON.stringify(argv) })).headers.get('upstash-sync-token');
    const a = await token(['get', 'k']);
    const b = await token(['set', 'k', '1']);
    const c = await token(['get', 'k']);
    assert.notEqual(a, b);
    assert.equal(b, c);
  });

  // Plain Redis has no SEARCH.*, VECTOR.* or arrays (AR*), and Larder does not forward them.
  it('refuses every command of the embedded engine alone with one error saying it needs that engine', async () => {
    const commands = [...TABLE.values()].filter((c) => (c.bits & EMBEDDED) !== 0);
    for (const prefix of ['search.', 'vector.', 'ar']) assert.ok(commands.some((c) => c.name.startsWith(prefix)), prefix);
    for (const { name, arity } of commands) {
      // As many arguments as the command takes (arity counts the name): admission checks arity first.
      const argv = [name.toUpperCase(), 'idx', '{}', 'ON', 'JSON', 'PREFIX', '1', 'p'].slice(0, Math.abs(arity));
      assert.deepEqual(await db.command(argv), {
        status: 400,
        body: { error: `ERR ${name.toUpperCase()} needs Larder's embedded engine; this database uses engine: redis` },
      }, name);
    }
    // Inside a pipeline too.
    const res = await db.request('/pipeline', { method: 'POST', body: JSON.stringify([['search.listindexes'], ['ping']]) });
    assert.deepEqual(await res.json(), [{ error: "ERR SEARCH.LISTINDEXES needs Larder's embedded engine; this database uses engine: redis" }, { result: 'PONG' }]);
  });

  it('answers 503 while Redis is down, then serves again without a restart', async () => {
    await db.ok(['set', 'before', '1']);
    const port = redis.port;
    await redis.stop();
    for (const send of [
      () => db.command(['get', 'before']),
      () => db.request('/pipeline', { method: 'POST', body: '[["get","before"]]' }).then(async (r) => ({ status: r.status, body: await r.json() })),
      () => db.request('/multi-exec', { method: 'POST', body: '[["incr","x"]]' }).then(async (r) => ({ status: r.status, body: await r.json() })),
    ]) {
      const res = await send();
      assert.equal(res.status, 503);
      assert.match((res.body as { error: string }).error, /^ERR the Redis backend at 127\.0\.0\.1:\d+ is unavailable \(.+\); retry later$/);
    }
    redis = await startRedisServer(REDIS!, { port });
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await db.command(['set', 'after', '1'])).status;
      if (status !== 200) await delay(100);
    }
    assert.equal(status, 200);
    assert.equal(await db.ok(['get', 'after']), '1');
    const tx = await db.request('/multi-exec', { method: 'POST', body: '[["incr","x"]]' });
    assert.equal(tx.status, 200);
  });
});

describe('larder start --kv-backend', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  it('puts the default database on the Redis at the URL', async () => {
    const redis = await startRedisServer(REDIS!);
    const dir = mkdtempSync(join(tmpdir(), 'larder-kvb-'));
    const p = launchLarder({ dataDir: dir, flags: ['--kv-backend', `redis://127.0.0.1:${redis.port}`] });
    try {
      const ready = await p.ready;
      const creds = ready.databases.get('default')!;
      const res = await fetch(`${creds.url}/set/cli/yes`, { headers: { authorization: `Bearer ${creds.token}` } });
      assert.deepEqual(await res.json(), { result: 'OK' });
      assert.equal(await redis.client.call(['GET', 'cli']), '$3\r\nyes\r\n');
    } finally {
      await p.stop('SIGTERM');
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

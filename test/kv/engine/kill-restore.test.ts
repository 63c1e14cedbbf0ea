// Every value type, with key TTLs and hash field TTLs, survives kill -9 under `fsync: always`.
// The log is compacted every few kilobytes, so part of the data comes back from a snapshot and
// part from the log replayed after it. Each key is read back type by type (and its encoding,
// so a big set does not come back as a small one) before the kill and after the restart.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder } from '../../support/larder-process.js';
import { kvClient, type KvClient } from '../../support/larder.js';

const LATER_MS = Date.parse('2099-01-01T00:00:00Z');
const BATCH = 200;

type Argv = (string | number)[];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
/** Arguments `prefix0 value0 prefix1 value1 ...` for n items. */
const pairs = (n: number, item: (i: number) => [string | number, string | number]) => range(n).flatMap(item);

/** One key of every type and encoding, some with a TTL, some hash fields with their own. */
function writes(): Argv[] {
  const big = 300; // past every listpack/intset limit
  const cmds: Argv[] = [
    ['SET', 'str', 'plain'],
    ['SET', 'str:ttl', 'expiring', 'PXAT', LATER_MS],
    ['SET', 'str:int', 12345],
    ['SET', 'str:bytes', '\u00ff\u0000\u0080 binary'],
    ['SETBIT', 'bitmap', 100_000, 1],
    ['PFADD', 'hll:sparse', 'a', 'b', 'c'],
    ['PFADD', 'hll:dense', ...range(5000).map((i) => `e${i}`)],
    ['HSET', 'hash:small', 'f1', 'v1', 'f2', 'v2', 'f3', 'v3'],
    ['HPEXPIREAT', 'hash:small', LATER_MS + 1, 'FIELDS', 2, 'f1', 'f2'],
    ['HSET', 'hash:big', ...pairs(big, (i) => [`f${i}`, `v${i}`.repeat(i % 5)])],
    ['HPEXPIREAT', 'hash:big', LATER_MS + 2, 'FIELDS', 3, 'f0', 'f150', 'f299'],
    ['PEXPIREAT', 'hash:big', LATER_MS + 3],
    ['RPUSH', 'list:small', 'a', 'b', 'c'],
    ['RPUSH', 'list:big', ...range(big * 3).map((i) => `item${i}`)],
    ['LPUSH', 'list:big', 'head'],
    ['PEXPIREAT', 'list:small', LATER_MS + 4],
    ['SADD', 'set:int', 1, 2, 3, 42],
    ['SADD', 'set:small', 'x', 'y', 'z'],
    ['SADD', 'set:big', ...range(big).map((i) => `m${i}`)],
    ['PEXPIREAT', 'set:big', LATER_MS + 5],
    ['ZADD', 'zset:small', 1, 'a', 2.5, 'b', '-inf', 'c'],
    ['ZADD', 'zset:big', ...pairs(big, (i) => [i / 7, `m${i}`])],
    ['PEXPIREAT', 'zset:small', LATER_MS + 6],
    ['GEOADD', 'geo', 13.361389, 38.115556, 'Palermo', 15.087269, 37.502669, 'Catania'],
    ['JSON.SET', 'json', '$', '{"a":1,"b":[true,null,2.5],"c":{"d":"text"}}'],
    ['JSON.NUMINCRBY', 'json', '$.a', 41],
    ['PEXPIREAT', 'json', LATER_MS + 7],
    ['XADD', 'stream', '1-1', 'f', 'v'],
    ['XADD', 'stream', '*', 'g', 'w'],
    ['XGROUP', 'CREATE', 'stream', 'readers', '0'],
    ['XREADGROUP', 'GROUP', 'readers', 'alice', 'COUNT', 1, 'STREAMS', 'stream', '>'],
  ];
  // Enough churn to compact the log several times: overwritten and deleted keys.
  for (const i of range(40)) cmds.push(['SET', `churn:${i % 4}`, 'x'.repeat(500)], ['DEL', `churn:${(i + 2) % 4}`]);
  cmds.push(['ZADD', 'zset:big', 1000, 'after-compaction'], ['HSET', 'hash:small', 'late', 'field']);
  return cmds;
}

/** What one key holds, read through commands that depend on its type. */
async function read(client: KvClient, key: string): Promise<unknown> {
  const ok = async (argv: Argv) => {
    const { status, body } = await client.command(argv, { headers: { 'upstash-encoding': 'base64' } });
    assert.equal(status, 200, `${JSON.stringify(argv)}: ${JSON.stringify(body)}`);
    return body.result;
  };
  const type = Buffer.from(await ok(['TYPE', key]), 'base64').toString();
  const common = { type, expireAt: await ok(['PEXPIRETIME', key]), encoding: await ok(['OBJECT', 'ENCODING', key]) };
  switch (type) {
    case 'string':
      return { ...common, value: await ok(['GET', key]) };
    case 'hash': {
      const fields = (await ok(['HKEYS', key])).map((f: string) => Buffer.from(f, 'base64').toString('latin1')).sort();
      return { ...common, all: await ok(['HGETALL', key]), fieldExpireAt: await ok(['HPEXPIRETIME', key, 'FIELDS', fields.length, ...fields]) };
    }
    case 'list':
      return { ...common, items: await ok(['LRANGE', key, 0, -1]) };
    case 'set':
      return { ...common, members: (await ok(['SMEMBERS', key])).sort() };
    case 'zset':
      return { ...common, members: await ok(['ZRANGE', key, 0, -1, 'WITHSCORES']) };
    case 'ReJSON-RL':
      return { ...common, document: await ok(['JSON.GET', key]) };
    case 'stream': {
      const pending = await ok(['XPENDING', key, 'readers', '-', '+', 10]);
      // Idle times run on; what is pending, for whom and how often delivered must not change.
      const delivered = pending.map(([id, consumer, , count]: unknown[]) => [id, consumer, count]);
      return { ...common, entries: await ok(['XRANGE', key, '-', '+']), groups: await ok(['XINFO', 'GROUPS', key]), delivered };
    }
    default:
      return { ...common, dump: await ok(['DUMP', key]) };
  }
}

async function readAll(client: KvClient): Promise<Map<string, unknown>> {
  const keys = ((await client.ok(['KEYS', '*'])) as string[]).sort();
  const state = new Map<string, unknown>();
  for (const key of keys) state.set(key, await read(client, key));
  return state;
}

async function connect(dataDir: string) {
  const config = { logLevel: 'silent', kv: { fsync: 'always', compactAfterBytes: 8192 } };
  const p = await spawnLarder({ config, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('kv restore after kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-kill-restore-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('brings back every type with its TTLs and hash field TTLs', async () => {
    const { p, client } = await connect(dataDir);
    const cmds = writes();
    for (let i = 0; i < cmds.length; i += BATCH) {
      const res = await client.request('/pipeline', { method: 'POST', body: JSON.stringify(cmds.slice(i, i + BATCH)) });
      const body = (await res.json()) as { error?: string }[];
      assert.equal(res.status, 200);
      assert.deepEqual(body.filter((r) => r.error !== undefined), []);
    }
    // A key whose TTL runs out before the kill must stay gone.
    await client.ok(['SET', 'gone', 'soon', 'PX', 50]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await readAll(client);
    assert.ok(before.has('hash:big') && before.has('zset:big') && !before.has('gone'));
    // Part of the data must come back from a snapshot, the rest from the log after it.
    assert.ok(readdirSync(join(dataDir, 'kv', 'default')).some((f) => f.startsWith('snapshot-')), 'the log was compacted');
    p.kill("SIGKILL");
    assert.equal((await p.exited).signal, 'SIGKILL');

    const restarted = await connect(dataDir);
    try {
      assert.deepEqual(await readAll(restarted.client), before);
    } finally {
      await restarted.p.stop('SIGTERM');
    }
  });
});

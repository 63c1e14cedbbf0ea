// MEMORY USAGE over HTTP: nil for a missing key, Redis's option errors, and, for values of
// every type and encoding, an estimate close to what redis-server 7.0 reports for the same
// value (the oracle runs beside Larder when redis-server is on PATH). Exact where Redis's
// figure is deterministic; within 15% where it is not: a small dict may be caught in the
// middle of a rehash (both bucket arrays counted), skiplist levels are random, and Redis
// samples a dict in hash order.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { notOnCluster, replies, startTestLarder, type TestLarder } from '../../support/larder.js';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';

const SYNTAX = 'ERR syntax error';
const NOT_INTEGER = 'ERR value is not an integer or out of range';

/** The oracle is a standalone redis-server: a Cluster node counts 16 bytes more a key (its slot's list of keys). */
const standaloneIt = notOnCluster("a Cluster node counts 16 bytes more a key, its slot's list of keys");

const count = (n: number, f: (i: number) => string | string[]) => Array.from({ length: n }, (_, i) => f(i)).flat();

/** Keys built the same way on both sides, and whether Redis's figure for them is exact. */
const VALUES: readonly { key: string; build: string[][]; exact: boolean }[] = [
  { key: 'str:int', build: [['set', 'str:int', '12345678901']], exact: true },
  { key: 'str:embstr', build: [['set', 'str:embstr', 'x'.repeat(44)]], exact: true },
  { key: 'str:raw', build: [['set', 'str:raw', 'x'.repeat(45)]], exact: true },
  { key: 'str:big', build: [['set', 'str:big', 'x'.repeat(70000)]], exact: true },
  // Strings changed in part (edited in place past 1 KiB): the room Redis's string has, and grows by doubling.
  { key: 'str:edited', build: [['set', 'str:edited', 'x'.repeat(2000)], ['setrange', 'str:edited', '1998', 'abc'], ['append', 'str:edited', 'Z']], exact: true },
  { key: 'str:setrange', build: [['setrange', 'str:setrange', '1500', 'q']], exact: true },
  { key: 'str:bits', build: [['setbit', 'str:bits', '40000', '1'], ['setbit', 'str:bits', '40008', '1']], exact: true },
  { key: 'str:grown', build: [['setbit', 'str:grown', '40000', '1'], ['append', 'str:grown', 'x'.repeat(20000)], ['bitfield', 'str:grown', 'set', 'u8', '#30000', '1']], exact: true },
  { key: 'k'.repeat(300), build: [['set', 'k'.repeat(300), 'v']], exact: true },
  { key: 'list:small', build: [['rpush', 'list:small', ...count(10, (i) => `v${i}`), '1', '-70000']], exact: true },
  { key: 'list:nodes', build: [['rpush', 'list:nodes', ...count(3000, (i) => `value${i}`)]], exact: true },
  { key: 'list:long', build: [['rpush', 'list:long', ...count(500, () => 'x'.repeat(100))]], exact: true },
  { key: 'set:intset', build: [['sadd', 'set:intset', ...count(100, (i) => String(i * 1000))]], exact: true },
  { key: 'set:intset64', build: [['sadd', 'set:intset64', '1', '9000000000']], exact: true },
  { key: 'set:table', build: [['sadd', 'set:table', ...count(1000, (i) => `member${i}`)]], exact: false },
  { key: 'zset:listpack', build: [['zadd', 'zset:listpack', ...count(50, (i) => [String(i * 1.5), `m${i}`]), '0.1', 'tenth']], exact: true },
  { key: 'zset:skiplist', build: [['zadd', 'zset:skiplist', ...count(1000, (i) => [String(i), `member${i}`])]], exact: false },
  { key: 'hash:listpack', build: [['hset', 'hash:listpack', ...count(50, (i) => [`f${i}`, `v${i}`])]], exact: true },
  { key: 'hash:table', build: [['hset', 'hash:table', ...count(1000, (i) => [`field${i}`, `value${i}`])]], exact: false },
  { key: 'hash:long', build: [['hset', 'hash:long', ...count(10, (i) => [`f${i}`, 'x'.repeat(100)])]], exact: false },
  {
    key: 'stream',
    build: [
      ...count(1000, (i) => [`${i + 1}-0`]).map((id) => ['xadd', 'stream', id, 'f', `v${id}`]),
      ['xgroup', 'create', 'stream', 'g', '0'],
      ['xreadgroup', 'group', 'g', 'alice', 'count', '50', 'streams', 'stream', '>'],
      ['xreadgroup', 'group', 'g', 'bob', 'count', '7', 'streams', 'stream', '>'],
    ],
    exact: true,
  },
  { key: 'stream:big', build: count(30, (i) => [`${i + 1}-0`]).map((id) => ['xadd', 'stream:big', id, 'f', 'x'.repeat(10 * parseInt(id, 10))]), exact: true },
];

describe('MEMORY USAGE over HTTP', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
  });
  after(() => t.close());
  const { reply, fails } = replies(() => t);

  it("answers nil for a missing key and checks SAMPLES as Redis does", async () => {
    await t.command(['set', 'k', 'v']);
    await reply(['memory', 'usage', 'missing'], null);
    await reply(['memory', 'usage', 'missing', 'SAMPLES', '0'], null);
    await fails(['memory', 'usage', 'k', 'samples'], SYNTAX);
    await fails(['memory', 'usage', 'k', 'samples', '-1'], SYNTAX);
    await fails(['memory', 'usage', 'k', 'other', '1'], SYNTAX);
    await fails(['memory', 'usage', 'missing', 'samples', 'x'], NOT_INTEGER);
    await fails(['memory', 'usage'], "ERR wrong number of arguments for 'memory|usage' command");
  });

  standaloneIt('counts a string as redis-server 7.0 does: an integer, embstr and raw, and the key', async () => {
    for (const [value, bytes] of [['1', 48], ['hello', 64], ['x'.repeat(44), 96], ['x'.repeat(45), 112], ['x'.repeat(1000), 1072]] as const) {
      await t.command(['set', 'a', value]);
      await reply(['memory', 'usage', 'a'], bytes);
    }
  });

  describe('close to redis-server 7.0 for the same value', { skip: findRedisServer() === undefined && 'redis-server is not on PATH' }, () => {
    let redis: RedisServer;
    before(async () => {
      redis = await startRedisServer(findRedisServer()!);
      for (const { build } of VALUES) {
        for (const argv of build) {
          await redis.client.call(argv);
          assert.equal((await t.command(argv)).status, 200, argv.slice(0, 3).join(' '));
        }
      }
    });
    after(() => redis?.stop());

    for (const { key, exact } of VALUES) {
      standaloneIt(`${key.slice(0, 20)} (${exact ? 'exact' : 'within 15%'})`, async () => {
        // Where Redis's figure is not deterministic, a sample of 2 or 5 random skiplist nodes or
        // dict entries can stray past 15% by chance: compare those with every element counted.
        for (const samples of exact ? [[], ['SAMPLES', '0'], ['SAMPLES', '2']] : [['SAMPLES', '0']]) {
          const argv = ['memory', 'usage', key, ...samples];
          const oracle = Number(/^:(\d+)\r\n$/.exec(await redis.client.call(argv))![1]);
          const { body } = await t.command(argv);
          if (exact) assert.equal(body.result, oracle, argv.join(' '));
          else assert.ok(Math.abs(body.result - oracle) <= oracle * 0.15, `${argv.join(' ')}: ${body.result}, redis-server ${oracle}`);
        }
      });
    }
  });
});

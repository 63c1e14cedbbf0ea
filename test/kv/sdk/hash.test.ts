// The hash commands as the official @upstash/redis SDK calls them, with auto-pipelining off
// and on: every hash method it has, with the typed results it returns (it parses values as
// JSON where it can, so "1" comes back as 1, and turns field lists into objects).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';
import { embeddedOnly } from '../../support/larder.js';

/** 2100-01-01: later than any test runs. */
const LATER = 4102444800;

for (const mode of PIPELINE_MODES) {
  describe(`hash commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('hset, hget, hmget, hgetall, hkeys, hvals, hlen, hexists, hstrlen', async () => {
      assert.equal(await redis.hset('h', { name: 'ada', age: 36, profile: { langs: ['en'] } }), 3);
      assert.equal(await redis.hset('h', { age: 37 }), 0);
      assert.equal(await redis.hget('h', 'name'), 'ada');
      assert.equal(await redis.hget('h', 'age'), 37);
      assert.deepEqual(await redis.hget('h', 'profile'), { langs: ['en'] });
      assert.equal(await redis.hget('h', 'missing'), null);
      assert.deepEqual(await redis.hmget('h', 'name', 'missing'), { name: 'ada', missing: null });
      assert.equal(await redis.hmget('h', 'nope', 'none'), null);
      assert.deepEqual(await redis.hgetall('h'), { name: 'ada', age: 37, profile: { langs: ['en'] } });
      assert.equal(await redis.hgetall('h:none'), null);
      assert.deepEqual(await redis.hkeys('h'), ['name', 'age', 'profile']);
      assert.deepEqual(await redis.hvals('h'), ['ada', 37, { langs: ['en'] }]);
      assert.equal(await redis.hlen('h'), 3);
      assert.equal(await redis.hexists('h', 'name'), 1);
      assert.equal(await redis.hexists('h', 'nope'), 0);
      assert.equal(await redis.hstrlen('h', 'name'), 3);
      assert.equal(await redis.hstrlen('h', 'nope'), 0);
    });

    it('hmset, hsetnx, hdel', async () => {
      assert.equal(await redis.hmset('m', { a: 1, b: 'two' }), 'OK');
      assert.equal(await redis.hsetnx('m', 'a', 5), 0);
      assert.equal(await redis.hsetnx('m', 'c', 'three'), 1);
      assert.deepEqual(await redis.hgetall('m'), { a: 1, b: 'two', c: 'three' });
      assert.equal(await redis.hdel('m', 'a', 'zz'), 1);
      assert.equal(await redis.hdel('m', 'b', 'c'), 2);
      assert.equal(await redis.exists('m'), 0);
    });

    it('hincrby and hincrbyfloat', async () => {
      assert.equal(await redis.hincrby('n', 'i', 5), 5);
      assert.equal(await redis.hincrby('n', 'i', -7), -2);
      assert.equal(await redis.hincrbyfloat('n', 'f', 0.1), 0.1);
      assert.equal(await redis.hincrbyfloat('n', 'f', 0.2), 0.3);
      await redis.hset('n', { s: 'text' });
      await assert.rejects(redis.hincrby('n', 's', 1), /hash value is not an integer/);
      await assert.rejects(redis.hincrbyfloat('n', 's', 1), /hash value is not a float/);
    });

    it('hrandfield, with a count and with values', async () => {
      await redis.hset('r', { a: 1, b: 2, c: 3 });
      assert.ok(['a', 'b', 'c'].includes((await redis.hrandfield('r'))!));
      assert.equal(await redis.hrandfield('r:none'), null);
      const two = await redis.hrandfield('r', 2);
      assert.equal(new Set(two).size, 2);
      assert.deepEqual(await redis.hrandfield('r', 10), ['a', 'b', 'c']);
      assert.deepEqual(await redis.hrandfield<Record<string, number>>('r', 3, true), { a: 1, b: 2, c: 3 });
      const picked = await redis.hrandfield<Record<string, number>>('r', -5, true);
      for (const [f, v] of Object.entries(picked)) assert.equal(v, { a: 1, b: 2, c: 3 }[f]);
      assert.equal(await redis.hrandfield('r:none', 2, true), null);
    });

    it('hscan with match and count', async () => {
      await redis.hset('s', { a1: 1, a2: 'x', b1: 3 });
      assert.deepEqual(await redis.hscan('s', 0), ['0', ['a1', 1, 'a2', 'x', 'b1', 3]]);
      assert.deepEqual(await redis.hscan('s', 0, { match: 'a*', count: 1 }), ['0', ['a1', 1, 'a2', 'x']]);
      assert.deepEqual(await redis.hscan('s:none', 0), ['0', []]);
      const big: Record<string, number> = {};
      for (let i = 0; i < 200; i++) big[`f${i}`] = i;
      await redis.hset('s:big', big);
      const seen = new Set<string | number>();
      let cursor: string | number = 0;
      do {
        const [next, items]: [string, (string | number)[]] = await redis.hscan('s:big', cursor, { count: 30 });
        for (let i = 0; i < items.length; i += 2) seen.add(items[i]);
        cursor = next;
      } while (cursor !== '0');
      assert.equal(seen.size, 200);
    });

    embeddedOnly('Redis 7.0 lacks hash field expiry (7.4)')('hexpire, hpexpire, hexpireat, hpexpireat with their conditions', async () => {
      await redis.hset('x', { a: 1, b: 2, c: 3, d: 4 });
      assert.deepEqual(await redis.hexpire('x', ['a', 'missing'], 1000), [1, -2]);
      assert.deepEqual(await redis.hexpire('x', 'a', 2000, 'NX'), [0]);
      assert.deepEqual(await redis.hpexpire('x', ['a', 'b'], 3_000_000, 'GT'), [1, 0]);
      assert.deepEqual(await redis.hexpireat('x', 'c', LATER), [1]);
      assert.deepEqual(await redis.hpexpireat('x', ['c', 'd'], LATER * 1000 - 1, 'LT'), [1, 1]);
      assert.deepEqual(await redis.hpexpireat('x', 'd', 1), [2]);
      assert.deepEqual(await redis.hexpire('x:none', ['a'], 10), [-2]);
      assert.deepEqual(await redis.hkeys('x'), ['a', 'b', 'c']);
    });

    // The SDK's own pipeline test passes Date.now() + 1000, milliseconds, to HEXPIREAT: Upstash
    // takes any time EXPIREAT takes for a key, past Redis 7.4's field limit of 2^46 ms.
    embeddedOnly('Redis 7.0 lacks hash field expiry (7.4)')('hexpireat, hpexpireat and hexpire in the far future', async () => {
      await redis.hset('far', { a: 1, b: 2, c: 3 });
      const ms = Date.now() + 1000;
      assert.deepEqual(await redis.hexpireat('far', 'a', ms), [1]);
      assert.deepEqual(await redis.hexpiretime('far', 'a'), [ms]);
      assert.deepEqual(await redis.hpexpireat('far', 'b', 2 ** 50), [1]);
      assert.deepEqual(await redis.hpexpiretime('far', 'b'), [2 ** 50]);
      assert.deepEqual(await redis.hexpire('far', 'c', 2 ** 40), [1]);
      assert.deepEqual(await redis.pipeline().hexpireat('far:none', 'a', ms).hexpireat('far', 'c', ms, 'GT').exec(), [[-2], [1]]);
      await assert.rejects(redis.hexpireat('far', 'a', 9223372036854776), /ERR invalid expire time in 'hexpireat' command/);
      assert.deepEqual(await redis.hgetall('far'), { a: 1, b: 2, c: 3 });
    });

    embeddedOnly('Redis 7.0 lacks hash field expiry (7.4)')('httl, hpttl, hexpiretime, hpexpiretime and hpersist', async () => {
      await redis.hset('y', { a: 1, b: 2 });
      await redis.hexpireat('y', 'a', LATER);
      assert.deepEqual(await redis.hexpiretime('y', ['a', 'b', 'c']), [LATER, -1, -2]);
      assert.deepEqual(await redis.hpexpiretime('y', 'a'), [LATER * 1000]);
      const [ttl] = await redis.httl('y', 'a');
      assert.ok(ttl > 0 && ttl <= LATER - Math.floor(Date.now() / 1000) + 1);
      const [pttl, none] = await redis.hpttl('y', ['a', 'b']);
      assert.ok(pttl > 0);
      assert.equal(none, -1);
      assert.deepEqual(await redis.hpersist('y', ['a', 'b', 'c']), [1, -1, -2]);
      assert.deepEqual(await redis.httl('y', 'a'), [-1]);
    });

    embeddedOnly('Redis 7.0 lacks HGETDEL, HGETEX, HSETEX (8.0)')('hgetdel, hgetex and hsetex', async () => {
      await redis.hset('z', { a: 1, b: 'two', c: 3 });
      assert.deepEqual(await redis.hgetdel('z', 'a', 'missing'), { a: 1, missing: null });
      assert.equal(await redis.hgetdel('z', 'nope'), null);
      assert.deepEqual(await redis.hgetex('z', { ex: 1000 }, 'b', 'c'), { b: 'two', c: 3 });
      const [ttl] = await redis.httl('z', 'b');
      assert.ok(ttl > 990 && ttl <= 1000);
      assert.deepEqual(await redis.hgetex('z', { exat: LATER }, 'b'), { b: 'two' });
      assert.deepEqual(await redis.hgetex('z', { pxat: LATER * 1000 + 5 }, 'c'), { c: 3 });
      assert.deepEqual(await redis.hpexpiretime('z', ['b', 'c']), [LATER * 1000, LATER * 1000 + 5]);
      assert.deepEqual(await redis.hgetex('z', { persist: true }, 'b'), { b: 'two' });
      assert.deepEqual(await redis.hgetex('z', { px: 100_000 }, 'nope'), null);
      assert.deepEqual(await redis.httl('z', 'b'), [-1]);

      assert.equal(await redis.hsetex('w', { expiration: { ex: 1000 } }, { a: 1, b: 2 }), 1);
      assert.equal(await redis.hsetex('w', { conditional: 'FNX', expiration: { px: 10 } }, { a: 9 }), 0);
      assert.equal(await redis.hsetex('w', { conditional: 'fxx', expiration: { keepttl: true } }, { a: 10 }), 1);
      assert.equal(await redis.hsetex('w', { expiration: { exat: LATER } }, { c: 'x' }), 1);
      assert.equal(await redis.hsetex('w', { expiration: { pxat: LATER * 1000 + 1 } }, { d: 'y' }), 1);
      assert.equal(await redis.hsetex('w', {}, { e: 'z' }), 1);
      assert.deepEqual(await redis.hgetall('w'), { a: 10, b: 2, c: 'x', d: 'y', e: 'z' });
      const [a, , c, d, e] = await redis.hpexpiretime('w', ['a', 'b', 'c', 'd', 'e']);
      assert.ok(a > Date.now());
      assert.deepEqual([c, d, e], [LATER * 1000, LATER * 1000 + 1, -1]);
    });

    embeddedOnly('Redis 7.0 lacks hash field expiry (7.4)')('hash commands in a pipeline and a transaction', async () => {
      const p = redis.pipeline();
      p.hset('pl', { a: 1 }).hincrby('pl', 'a', 2).hexpire('pl', 'a', 100).hgetall('pl').hget('str:none', 'a');
      assert.deepEqual(await p.exec(), [1, 3, [1], { a: 3 }, null]);
      const tx = redis.multi();
      tx.hset('tx', { a: 'x' }).hgetdel('tx', 'a').exists('tx');
      assert.deepEqual(await tx.exec(), [1, { a: 'x' }, 0]);
      await redis.set('str', 'v');
      await assert.rejects(redis.hget('str', 'a'), /WRONGTYPE/);
    });
  });
}

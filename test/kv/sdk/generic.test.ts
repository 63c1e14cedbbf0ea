import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';
import { embeddedOnly, notOnCluster } from '../../support/larder.js';

// Every generic, server and connection command the official SDK exposes, as the SDK sends
// them and parses their replies.

for (const mode of PIPELINE_MODES) {
  describe(`generic and server commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);
    beforeEach(async () => {
      await redis.flushall();
    });

    it('del, unlink, exists, touch, type', async () => {
      await Promise.all([redis.set('{t}a', 'x'), redis.set('{t}b', 'y'), redis.set('{t}c', 'z')]);
      assert.deepEqual(await Promise.all([redis.exists('{t}a', '{t}a', '{t}missing'), redis.touch('{t}a', '{t}b', '{t}missing')]), [2, 2]);
      assert.deepEqual(await Promise.all([redis.type('{t}a'), redis.type('{t}missing')]), ['string', 'none']);
      assert.equal(await redis.del('{t}a', '{t}missing'), 1);
      assert.equal(await redis.unlink('{t}b', '{t}c'), 2);
      assert.equal(await redis.exists('{t}a', '{t}b', '{t}c'), 0);
    });

    it('expire with and without options, ttl, pttl, persist', async () => {
      await redis.set('k', 'v');
      assert.equal(await redis.expire('k', 100, 'XX'), 0);
      assert.equal(await redis.expire('k', 100, 'nx'), 1);
      assert.equal(await redis.expire('k', 50, 'GT'), 0);
      assert.equal(await redis.expire('k', 200, 'gt'), 1);
      assert.equal(await redis.expire('k', 150, 'LT'), 1);
      const [ttl, pttl] = await Promise.all([redis.ttl('k'), redis.pttl('k')]);
      assert.ok(ttl > 140 && ttl <= 150, String(ttl));
      assert.ok(pttl > 140_000 && pttl <= 150_000, String(pttl));
      assert.equal(await redis.persist('k'), 1);
      assert.deepEqual(await Promise.all([redis.ttl('k'), redis.pttl('k'), redis.ttl('missing')]), [-1, -1, -2]);
      assert.equal(await redis.expire('k', 10), 1);
      assert.equal(await redis.expire('missing', 10), 0);
    });

    it('pexpire, expireat, pexpireat, and an expiry in the past deleting the key', async () => {
      await Promise.all([redis.set('a', 'v'), redis.set('b', 'v'), redis.set('c', 'v'), redis.set('gone', 'v')]);
      const at = Math.floor(Date.now() / 1000) + 1000;
      assert.deepEqual(
        await Promise.all([
          redis.pexpire('a', 100_000),
          redis.expireat('b', at),
          redis.pexpireat('c', at * 1000 + 5),
          redis.pexpire('gone', -1),
        ]),
        [1, 1, 1, 1],
      );
      const pttl = await redis.pttl('a');
      assert.ok(pttl > 90_000 && pttl <= 100_000, String(pttl));
      const [bTtl, cTtl] = await Promise.all([redis.ttl('b'), redis.pttl('c')]);
      assert.ok(bTtl > 990 && bTtl <= 1000, String(bTtl));
      assert.ok(cTtl > 990_000 && cTtl <= 1_000_005, String(cTtl));
      assert.equal(await redis.exists('gone'), 0);
      assert.equal(await redis.pexpireat('a', at * 1000, 'LT'), 0);
    });

    it('rename and renamenx keep the expiry', async () => {
      await Promise.all([redis.set('{t}a', 'one'), redis.set('{t}b', 'two')]);
      await redis.expire('{t}a', 100);
      assert.equal(await redis.renamenx('{t}a', '{t}b'), 0);
      assert.equal(await redis.rename('{t}a', '{t}c'), 'OK');
      assert.equal(await redis.get('{t}c'), 'one');
      assert.ok((await redis.ttl('{t}c')) > 90);
      assert.equal(await redis.renamenx('{t}c', '{t}d'), 1);
      await assert.rejects(redis.rename('{t}missing', '{t}x'), /ERR no such key/);
    });

    embeddedOnly('Upstash behaviour, Redis differs: COPY onto itself')('copy, including onto itself', async () => {
      await Promise.all([redis.set('src', 'value'), redis.set('taken', 'other')]);
      assert.equal(await redis.copy('src', 'dst'), 'COPIED');
      assert.equal(await redis.get('dst'), 'value');
      assert.equal(await redis.copy('src', 'taken'), 'NOT_COPIED');
      assert.equal(await redis.copy('src', 'taken', { replace: true }), 'COPIED');
      assert.equal(await redis.get('taken'), 'value');
      assert.equal(await redis.copy('src', 'src'), 'NOT_COPIED');
      assert.equal(await redis.copy('missing', 'x'), 'NOT_COPIED');
    });

    it('keys and randomkey', async () => {
      assert.equal(await redis.randomkey(), null);
      await Promise.all([redis.set('user:1', 'a'), redis.set('user:2', 'b'), redis.set('order:1', 'c')]);
      assert.deepEqual((await redis.keys('user:*')).sort(), ['user:1', 'user:2']);
      assert.deepEqual((await redis.keys('*')).length, 3);
      assert.ok(['user:1', 'user:2', 'order:1'].includes((await redis.randomkey())!));
    });

    embeddedOnly('SCAN order and WITHTYPE (Upstash)')('scan with match, count, type and withType', async () => {
      const keys = Array.from({ length: 12 }, (_, i) => `item:${i}`);
      await Promise.all([...keys.map((k) => redis.set(k, 'v')), redis.set('other', 'v')]);
      const seen: string[] = [];
      let cursor: string | number = 0;
      let rounds = 0;
      do {
        const [next, batch]: [string, string[]] = await redis.scan(cursor, { match: 'item:*', count: 5 });
        assert.equal(typeof next, 'string');
        seen.push(...batch);
        cursor = next;
        rounds++;
      } while (cursor !== '0' && rounds < 50);
      assert.deepEqual(seen.sort(), [...keys].sort());
      assert.deepEqual(await redis.scan(0, { match: 'other', count: 100, type: 'string' }), ['0', ['other']]);
      assert.deepEqual(await redis.scan(0, { count: 100, type: 'list' }), ['0', []]);
      assert.deepEqual(await redis.scan(0, { match: 'oth*', count: 100, withType: true }), [
        '0',
        [{ key: 'other', type: 'string' }],
      ]);
    });

    // The SDK has no method for MEMORY USAGE; redis.exec sends any command. The figures are
    // redis-server 7.0's for these values (test/kv/commands/memory.test.ts compares more).
    notOnCluster("a Cluster node counts 16 bytes more a key, its slot's list of keys")('memory usage, through redis.exec', async () => {
      await redis.set('mu:s', 'hello');
      await redis.hset('mu:h', { f: 'v', f2: 'v2' });
      assert.equal(await redis.exec(['memory', 'usage', 'mu:s']), 64);
      assert.equal(await redis.exec(['memory', 'usage', 'mu:h', 'SAMPLES', 0]), 80);
      assert.equal(await redis.exec(['memory', 'usage', 'mu:none']), null);
      await assert.rejects(redis.exec(['memory', 'usage', 'mu:s', 'SAMPLES', -1]), /ERR syntax error/);
    });

    it('dbsize, flushdb, flushall', async () => {
      await Promise.all([redis.set('a', '1'), redis.set('b', '2')]);
      assert.equal(await redis.dbsize(), 2);
      assert.equal(await redis.flushdb(), 'OK');
      assert.equal(await redis.dbsize(), 0);
      await redis.set('a', '1');
      assert.equal(await redis.flushdb({ async: true }), 'OK');
      await redis.set('a', '1');
      assert.equal(await redis.flushall([{ async: true }]), 'OK');
      assert.equal(await redis.dbsize(), 0);
    });

    it('ping, echo, time', async () => {
      assert.deepEqual(await Promise.all([redis.ping(), redis.ping(['hello']), redis.echo('hi there')]), [
        'PONG',
        'hello',
        'hi there',
      ]);
      const [seconds, micros] = await redis.time();
      assert.equal(typeof seconds, 'number');
      assert.ok(Math.abs(seconds - Date.now() / 1000) < 60);
      assert.ok(micros >= 0 && micros < 1_000_000);
    });
  });
}

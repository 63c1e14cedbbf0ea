// The set commands as the official @upstash/redis SDK calls them, with auto-pipelining off and
// on. The SDK parses members as JSON where it can: "1" comes back as 1, objects as objects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

const sorted = <T>(xs: T[]): T[] => [...xs].sort((a, b) => String(a).localeCompare(String(b)));

for (const mode of PIPELINE_MODES) {
  describe(`set commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('sadd, srem, scard, sismember, smismember and smembers', async () => {
      assert.equal(await redis.sadd('s', 'a', 'b', 'c'), 3);
      assert.equal(await redis.sadd('s', 'a'), 0);
      assert.equal(await redis.scard('s'), 3);
      assert.equal(await redis.sismember('s', 'a'), 1);
      assert.equal(await redis.sismember('s', 'z'), 0);
      assert.deepEqual(await redis.smismember('s', ['a', 'z', 'c']), [1, 0, 1]);
      assert.deepEqual(sorted(await redis.smembers('s')), ['a', 'b', 'c']);
      assert.equal(await redis.srem('s', 'a', 'z'), 1);
      assert.deepEqual(sorted(await redis.smembers('s')), ['b', 'c']);
      assert.deepEqual(await redis.smembers('none'), []);
      assert.equal(await redis.scard('none'), 0);
    });

    it('members are JSON values to the SDK: numbers and objects come back parsed', async () => {
      assert.equal(await redis.sadd('json', 3, 1, 2), 3);
      assert.deepEqual(await redis.smembers('json'), [1, 2, 3]);
      assert.equal(await redis.sadd('objs', { id: 1 }, { id: 2 }), 2);
      assert.deepEqual(sorted((await redis.smembers<{ id: number }[]>('objs')).map((o) => o.id)), [1, 2]);
      assert.equal(await redis.sismember('objs', { id: 1 }), 1);
    });

    it('smove', async () => {
      await redis.sadd('{t}mv:a', 'x', 'y');
      assert.equal(await redis.smove('{t}mv:a', '{t}mv:b', 'x'), 1);
      assert.equal(await redis.smove('{t}mv:a', '{t}mv:b', 'nope'), 0);
      assert.deepEqual(await redis.smembers('{t}mv:b'), ['x']);
      assert.deepEqual(await redis.smembers('{t}mv:a'), ['y']);
    });

    it('spop with and without a count', async () => {
      await redis.sadd('pop', 'a', 'b', 'c', 'd');
      const one = await redis.spop<string>('pop');
      assert.ok(['a', 'b', 'c', 'd'].includes(one!));
      const two = await redis.spop<string[]>('pop', 2);
      assert.equal(two!.length, 2);
      assert.equal(await redis.scard('pop'), 1);
      const rest = await redis.spop<string[]>('pop', 5);
      assert.deepEqual(sorted([one!, ...two!, ...rest!]), ['a', 'b', 'c', 'd']);
      assert.equal(await redis.exists('pop'), 0);
      assert.equal(await redis.spop('pop'), null);
    });

    it('srandmember with positive and negative counts', async () => {
      await redis.sadd('rand', 'a', 'b', 'c');
      assert.ok(['a', 'b', 'c'].includes((await redis.srandmember<string>('rand'))!));
      const two = await redis.srandmember<string[]>('rand', 2);
      assert.equal(new Set(two).size, 2);
      assert.deepEqual(sorted((await redis.srandmember<string[]>('rand', 10))!), ['a', 'b', 'c']);
      const repeated = await redis.srandmember<string[]>('rand', -7);
      assert.equal(repeated!.length, 7);
      assert.ok(repeated!.every((m) => ['a', 'b', 'c'].includes(m)));
      assert.equal(await redis.srandmember('none'), null);
      assert.equal(await redis.scard('rand'), 3);
    });

    it('sinter, sintercard, sunion, sdiff and their store forms', async () => {
      await redis.sadd('{t}x', 'a', 'b', 'c');
      await redis.sadd('{t}y', 'b', 'c', 'd');
      assert.deepEqual(sorted(await redis.sinter('{t}x', '{t}y')), ['b', 'c']);
      assert.equal(await redis.sintercard(['{t}x', '{t}y']), 2);
      assert.equal(await redis.sintercard(['{t}x', '{t}y'], { limit: 1 }), 1);
      assert.deepEqual(sorted(await redis.sunion('{t}x', '{t}y')), ['a', 'b', 'c', 'd']);
      assert.deepEqual(await redis.sdiff('{t}x', '{t}y'), ['a']);
      assert.equal(await redis.sinterstore('{t}inter', '{t}x', '{t}y'), 2);
      assert.equal(await redis.sunionstore('{t}union', '{t}x', '{t}y'), 4);
      assert.equal(await redis.sdiffstore('{t}diff', '{t}x', '{t}y'), 1);
      assert.deepEqual(sorted(await redis.smembers('{t}inter')), ['b', 'c']);
      assert.equal(await redis.scard('{t}union'), 4);
      assert.deepEqual(await redis.smembers('{t}diff'), ['a']);
      assert.equal(await redis.sinterstore('{t}inter', '{t}x', '{t}none'), 0);
      assert.equal(await redis.exists('{t}inter'), 0);
    });

    it('sscan walks with match and count', async () => {
      const letters = [...'abcdefghijklmnopqrstuvwxyz'];
      await redis.sadd('scan', letters[0], ...letters.slice(1));
      const seen: (string | number)[] = [];
      let cursor: string | number = 0;
      let calls = 0;
      do {
        const [next, found]: [string | number, (string | number)[]] = await redis.sscan('scan', cursor, { count: 5 });
        seen.push(...found);
        cursor = next;
        calls++;
      } while (String(cursor) !== '0' && calls < 100);
      assert.ok(calls > 1);
      assert.deepEqual(sorted(seen), letters);
      const [end, matched] = await redis.sscan('scan', 0, { match: '[xyz]', count: 100 });
      assert.equal(String(end), '0');
      assert.deepEqual(sorted(matched), ['x', 'y', 'z']);
      await redis.sadd('scan:ints', 2, 1);
      assert.deepEqual(await redis.sscan('scan:ints', 0), ['0', [1, 2]]);
    });

    it('errors reach the caller with Redis texts', async () => {
      await redis.set('str', 'v');
      await assert.rejects(redis.sadd('str', 'a'), /WRONGTYPE Operation against a key holding the wrong kind of value/);
      await assert.rejects(redis.spop('s', -1), /ERR value is out of range, must be positive/);
      await assert.rejects(redis.sintercard(['x'], { limit: -1 }), /ERR LIMIT can't be negative/);
    });

    it('pipelines and transactions', async () => {
      const p = redis.pipeline();
      p.sadd('p:s', 'a', 'b');
      p.scard('p:s');
      p.smembers('p:s');
      const [added, card, all] = await p.exec<[number, number, string[]]>();
      assert.deepEqual([added, card, sorted(all)], [2, 2, ['a', 'b']]);
      const tx = redis.multi();
      tx.srem('p:s', 'a');
      tx.sismember('p:s', 'a');
      tx.spop('p:s', 5);
      assert.deepEqual(await tx.exec(), [1, 0, ['b']]);
    });
  });
}

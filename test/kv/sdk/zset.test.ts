// The sorted-set commands as the official @upstash/redis SDK calls them, with auto-pipelining
// off and on. The SDK parses results as JSON where that reads back the same text, so "2.5"
// comes back as 2.5 but "0.10000000000000001" stays a string, as against Upstash.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';
import { embeddedOnly } from '../../support/larder.js';

for (const mode of PIPELINE_MODES) {
  describe(`sorted-set commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('zadd with every option, zscore, zincrby and zcard', async () => {
      assert.equal(await redis.zadd('z', { score: 1, member: 'a' }), 1);
      assert.equal(await redis.zadd('z', { score: 2, member: 'b' }, { score: 3, member: 'c' }), 2);
      assert.equal(await redis.zadd('z', { ch: true }, { score: 5, member: 'a' }, { score: 4, member: 'd' }), 2);
      assert.equal(await redis.zadd('z', { nx: true }, { score: 9, member: 'a' }), 0);
      assert.equal(await redis.zadd('z', { xx: true }, { score: 9, member: 'nope' }), 0);
      assert.equal(await redis.zadd('z', { gt: true, ch: true }, { score: 1, member: 'a' }), 0);
      assert.equal(await redis.zadd('z', { lt: true, ch: true }, { score: 1, member: 'a' }), 1);
      assert.equal(await redis.zadd('z', { incr: true }, { score: 1.5, member: 'a' }), 2.5);
      assert.equal(await redis.zadd('z', { nx: true, incr: true }, { score: 1, member: 'a' }), null);
      assert.equal(await redis.zscore('z', 'a'), 2.5);
      assert.equal(await redis.zscore('z', 'missing'), null);
      assert.equal(await redis.zincrby('z', 0.1, 'e'), '0.10000000000000001');
      assert.equal(await redis.zincrby('z', 2, 'b'), 4);
      assert.equal(await redis.zcard('z'), 5);
      assert.equal(await redis.zcard('none'), 0);
      await redis.set('str', 'v');
      await assert.rejects(redis.zadd('str', { score: 1, member: 'a' }), /WRONGTYPE/);
    });

    it('zadd serializes members and zrange parses them back', async () => {
      await redis.zadd<{ id: number } | string>('obj', { score: 1, member: { id: 1 } }, { score: 2, member: 'text' });
      assert.deepEqual(await redis.zrange('obj', 0, -1), [{ id: 1 }, 'text']);
    });

    /** ZADD of several members: the SDK's signature wants the first one apart. */
    const zaddAll = (key: string, members: { score: number; member: string }[]) => redis.zadd(key, members[0], ...members.slice(1));

    embeddedOnly('Upstash behaviour, Redis differs: ZRANGE LIMIT by index')('zrange by index, score and lex, reversed, limited, with scores', async () => {
      await zaddAll('r', [1, 2, 3, 4, 5].map((s) => ({ score: s, member: `m${s}` })));
      assert.deepEqual(await redis.zrange('r', 1, 3), ['m2', 'm3', 'm4']);
      assert.deepEqual(await redis.zrange('r', 0, 1, { withScores: true }), ['m1', 1, 'm2', 2]);
      assert.deepEqual(await redis.zrange('r', 0, 1, { rev: true }), ['m5', 'm4']);
      assert.deepEqual(await redis.zrange('r', 2, '(4', { byScore: true }), ['m2', 'm3']);
      assert.deepEqual(await redis.zrange('r', '-inf', '+inf', { byScore: true, offset: 1, count: 2 }), ['m2', 'm3']);
      assert.deepEqual(await redis.zrange('r', '+inf', 4, { byScore: true, rev: true, withScores: true }), ['m5', 5, 'm4', 4]);
      // The SDK sends LIMIT without BYSCORE when given offset and count alone; Upstash pages the index range.
      assert.deepEqual(await redis.zrange('r', 0, -1, { offset: 1, count: 2 }), ['m2', 'm3']);
      await zaddAll('lex', ['a', 'b', 'c', 'd'].map((member) => ({ score: 0, member })));
      assert.deepEqual(await redis.zrange('lex', '(a', '[c', { byLex: true }), ['b', 'c']);
      assert.deepEqual(await redis.zrange('lex', '+', '-', { byLex: true, rev: true, offset: 0, count: 2 }), ['d', 'c']);
      assert.deepEqual(await redis.zrange('none', 0, -1), []);
    });

    it('zrank, zrevrank, zcount, zlexcount and zmscore', async () => {
      await redis.zadd('k', { score: 1, member: 'a' }, { score: 2, member: 'b' }, { score: 3, member: 'c' });
      assert.equal(await redis.zrank('k', 'b'), 1);
      assert.equal(await redis.zrevrank('k', 'b'), 1);
      assert.equal(await redis.zrank('k', 'x'), null);
      assert.equal(await redis.zcount('k', '(1', '+inf'), 2);
      assert.equal(await redis.zcount('k', 1, 2), 2);
      assert.equal(await redis.zlexcount('k', '-', '+'), 3);
      assert.deepEqual(await redis.zmscore('k', ['a', 'x', 'c']), [1, null, 3]);
    });

    it('zrem and the zremrangeby commands', async () => {
      await zaddAll('d', [1, 2, 3, 4, 5, 6].map((s) => ({ score: s, member: `m${s}` })));
      assert.equal(await redis.zrem('d', 'm1', 'nope'), 1);
      assert.equal(await redis.zremrangebyrank('d', 0, 0), 1);
      assert.equal(await redis.zremrangebyscore('d', 5, '+inf'), 2);
      await zaddAll('dl', ['a', 'b', 'c'].map((member) => ({ score: 0, member })));
      assert.equal(await redis.zremrangebylex('dl', '[b', '+'), 2);
      assert.deepEqual(await redis.zrange('d', 0, -1), ['m3', 'm4']);
      assert.deepEqual(await redis.zrange('dl', 0, -1), ['a']);
    });

    it('zpopmin and zpopmax', async () => {
      await redis.zadd('p', { score: 1, member: 'a' }, { score: 2, member: 'b' }, { score: 3, member: 'c' });
      assert.deepEqual(await redis.zpopmin('p'), ['a', 1]);
      assert.deepEqual(await redis.zpopmax('p', 5), ['c', 3, 'b', 2]);
      assert.deepEqual(await redis.zpopmin('p'), []);
    });

    it('zunion, zunionstore, zinterstore and zdiffstore', async () => {
      await redis.zadd('{t}s1', { score: 1, member: 'a' }, { score: 2, member: 'b' });
      await redis.zadd('{t}s2', { score: 10, member: 'b' }, { score: 20, member: 'c' });
      assert.deepEqual(await redis.zunion(2, ['{t}s1', '{t}s2']), ['a', 'b', 'c']);
      assert.deepEqual(await redis.zunion(2, ['{t}s1', '{t}s2'], { withScores: true, aggregate: 'max' }), ['a', 1, 'b', 10, 'c', 20]);
      assert.deepEqual(await redis.zunion(2, ['{t}s1', '{t}s2'], { weights: [2, 1], withScores: true }), ['a', 2, 'b', 14, 'c', 20]);
      assert.equal(await redis.zunionstore('{t}out', 2, ['{t}s1', '{t}s2'], { aggregate: 'min' }), 3);
      assert.deepEqual(await redis.zrange('{t}out', 0, -1, { withScores: true }), ['a', 1, 'b', 2, 'c', 20]);
      assert.equal(await redis.zinterstore('{t}out', 2, ['{t}s1', '{t}s2'], { weights: [1, 2] }), 1);
      assert.deepEqual(await redis.zrange('{t}out', 0, -1, { withScores: true }), ['b', 22]);
      assert.equal(await redis.zinterstore('{t}one', 1, ['{t}s1'], { weight: 3 }), 2);
      assert.deepEqual(await redis.zrange('{t}one', 0, -1, { withScores: true }), ['a', 3, 'b', 6]);
      assert.equal(await redis.zdiffstore('{t}out', 2, '{t}s1', '{t}s2'), 1);
      assert.deepEqual(await redis.zrange('{t}out', 0, -1), ['a']);
    });

    it('zscan walks every member with its score', async () => {
      const members = Array.from({ length: 200 }, (_, i) => ({ score: i, member: `item:${i}` }));
      await zaddAll('sc', members);
      const seen = new Map<string, number>();
      let cursor: string | number = 0;
      do {
        const [next, page]: [string, (string | number)[]] = await redis.zscan('sc', cursor, { match: 'item:*', count: 30 });
        for (let i = 0; i < page.length; i += 2) seen.set(String(page[i]), Number(page[i + 1]));
        cursor = next;
      } while (String(cursor) !== '0');
      assert.equal(seen.size, 200);
      assert.equal(seen.get('item:150'), 150);
      await redis.zadd('small', { score: 1, member: 'a' }, { score: 2, member: 'b' });
      assert.deepEqual(await redis.zscan('small', 0, { match: 'a*' }), ['0', ['a', 1]]);
    });
  });
}

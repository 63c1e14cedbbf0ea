// The list commands as the official @upstash/redis SDK calls them, with auto-pipelining off
// and on. The SDK sends objects as JSON and parses what comes back as JSON where it can, so
// "1" comes back as 1 and an object pushed comes back as that object.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

for (const mode of PIPELINE_MODES) {
  describe(`list commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('lpush, rpush, lpushx, rpushx, llen and lrange', async () => {
      assert.equal(await redis.rpush('l', 'a', 'b'), 2);
      assert.equal(await redis.lpush('l', 'z'), 3);
      assert.equal(await redis.lpushx('l', 'y'), 4);
      assert.equal(await redis.rpushx('l', 'c', 'd'), 6);
      assert.equal(await redis.lpushx('none', 'x'), 0);
      assert.equal(await redis.rpushx('none', 'x'), 0);
      assert.equal(await redis.llen('l'), 6);
      assert.equal(await redis.llen('none'), 0);
      assert.deepEqual(await redis.lrange('l', 0, -1), ['y', 'z', 'a', 'b', 'c', 'd']);
      assert.deepEqual(await redis.lrange('l', 1, 2), ['z', 'a']);
      assert.deepEqual(await redis.lrange('none', 0, -1), []);
    });

    it('keeps JSON values and UTF-8 text', async () => {
      assert.equal(await redis.rpush<unknown>('json', { a: 1 }, 42, 'héllo ✓'), 3);
      assert.deepEqual(await redis.lrange('json', 0, -1), [{ a: 1 }, 42, 'héllo ✓']);
      assert.deepEqual(await redis.lindex('json', 0), { a: 1 });
      assert.equal(await redis.lpos('json', 'héllo ✓'), 2);
    });

    it('lpop and rpop, with and without a count', async () => {
      await redis.rpush('pop', 'a', 'b', 'c', 'd', 'e');
      assert.equal(await redis.lpop('pop'), 'a');
      assert.equal(await redis.rpop('pop'), 'e');
      assert.deepEqual(await redis.lpop('pop', 2), ['b', 'c']);
      assert.deepEqual(await redis.rpop('pop', 5), ['d']);
      assert.equal(await redis.exists('pop'), 0);
      assert.equal(await redis.lpop('pop'), null);
      assert.equal(await redis.rpop('pop', 2), null);
    });

    it('lindex, lset, lrem, ltrim and linsert', async () => {
      await redis.rpush('edit', 'a', 'b', 'a', 'c');
      assert.equal(await redis.lindex('edit', 1), 'b');
      assert.equal(await redis.lindex('edit', -1), 'c');
      assert.equal(await redis.lindex('edit', 10), null);
      assert.equal(await redis.lset('edit', 1, 'B'), 'OK');
      await assert.rejects(redis.lset('edit', 10, 'x'), /ERR index out of range/);
      await assert.rejects(redis.lset('missing', 0, 'x'), /ERR no such key/);
      assert.equal(await redis.linsert('edit', 'before', 'c', 'x'), 5);
      assert.equal(await redis.linsert('edit', 'after', 'nope', 'x'), -1);
      assert.deepEqual(await redis.lrange('edit', 0, -1), ['a', 'B', 'a', 'x', 'c']);
      assert.equal(await redis.lrem('edit', 0, 'a'), 2);
      assert.equal(await redis.ltrim('edit', 0, 1), 'OK');
      assert.deepEqual(await redis.lrange('edit', 0, -1), ['B', 'x']);
    });

    it('lpos with rank, count and maxLen', async () => {
      await redis.rpush('pos', 'a', 'b', 'c', '1', '2', '3', 'c', 'c');
      assert.equal(await redis.lpos('pos', 'c'), 2);
      assert.equal(await redis.lpos('pos', 'nope'), null);
      assert.equal(await redis.lpos('pos', 'c', { rank: -1 }), 7);
      assert.deepEqual(await redis.lpos('pos', 'c', { count: 2 }), [2, 6]);
      assert.deepEqual(await redis.lpos('pos', 'c', { rank: 2, count: 0 }), [6, 7]);
      assert.deepEqual(await redis.lpos('pos', 'c', { count: 0, maxLen: 7 }), [2, 6]);
      assert.equal(await redis.lpos('pos', 1), 3);
      await assert.rejects(redis.lpos('pos', 'c', { rank: 0 }), /ERR RANK can't be zero/);
    });

    it('lmove between lists and within one', async () => {
      await redis.rpush('{t}src', '1', '2', '3');
      assert.equal(await redis.lmove('{t}src', '{t}dst', 'left', 'right'), 1);
      assert.equal(await redis.lmove('{t}src', '{t}src', 'right', 'left'), 3);
      assert.deepEqual(await redis.lrange('{t}src', 0, -1), [3, 2]);
      assert.deepEqual(await redis.lrange('{t}dst', 0, -1), [1]);
      assert.equal(await redis.lmove('{t}missing', '{t}dst', 'left', 'left'), null);
    });

    it('lmpop', async () => {
      await redis.rpush('{t}mp:b', 'a', 'b', 'c');
      assert.deepEqual(await redis.lmpop(2, ['{t}mp:a', '{t}mp:b'], 'LEFT'), ['{t}mp:b', ['a']]);
      assert.deepEqual(await redis.lmpop(2, ['{t}mp:a', '{t}mp:b'], 'RIGHT', 5), ['{t}mp:b', ['c', 'b']]);
      assert.equal(await redis.lmpop(2, ['{t}mp:a', '{t}mp:b'], 'LEFT'), null);
    });

    it('errors reject with Redis texts', async () => {
      await redis.set('str', 'v');
      await assert.rejects(redis.lpush('str', 'a'), /WRONGTYPE Operation against a key holding the wrong kind of value/);
      await assert.rejects(redis.lrange('str', 0, -1), /WRONGTYPE/);
      await assert.rejects(redis.lpop('pop', -1), /ERR value is out of range, must be positive/);
    });

    it('pipelines and transactions', async () => {
      const p = redis.pipeline();
      p.rpush('pl', 'a', 'b');
      p.lpop('pl');
      p.lrange('pl', 0, -1);
      p.lpop('pl', 3);
      p.lpop('pl', 3);
      assert.deepEqual(await p.exec(), [2, 'a', ['b'], ['b'], null]);
      const tx = redis.multi();
      tx.rpush('{t}tx', 'x');
      tx.lmove('{t}tx', '{t}tx2', 'left', 'left');
      tx.llen('{t}tx2');
      assert.deepEqual(await tx.exec(), [1, 'x', 1]);
    });
  });
}

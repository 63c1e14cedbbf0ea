// The bitmap commands as the official @upstash/redis SDK calls them, with auto-pipelining off
// and on, and in an explicit pipeline: the typed results it returns.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Redis } from '@upstash/redis';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';
import { embeddedOnly } from '../../support/larder.js';

// The SDK types bitcount with both ends or neither, but its overloads only let the last through.
const wholeCount = (redis: Redis, key: string) => (redis.bitcount as (key: string) => Promise<number>)(key);

for (const mode of PIPELINE_MODES) {
  describe(`bitmap commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('setbit and getbit', async () => {
      assert.equal(await redis.setbit('b', 7, 1), 0);
      assert.equal(await redis.setbit('b', 7, 1), 1);
      assert.equal(await redis.getbit('b', 7), 1);
      assert.equal(await redis.getbit('b', 6), 0);
      assert.equal(await redis.getbit('none', 100), 0);
      await assert.rejects(redis.setbit('b', -1, 1), /ERR bit offset is not an integer or out of range/);
    });

    it('bitcount, whole or over a byte range', async () => {
      await redis.set('s', 'foobar');
      assert.equal(await wholeCount(redis, 's'), 26);
      assert.equal(await redis.bitcount('s', 1, 1), 6);
      assert.equal(await redis.bitcount('s', -2, -1), 7);
      assert.equal(await wholeCount(redis, 'none'), 0);
    });

    it('bitpos', async () => {
      await redis.set('s', 'foobar');
      assert.equal(await redis.bitpos('s', 1), 1);
      assert.equal(await redis.bitpos('s', 0), 0);
      assert.equal(await redis.bitpos('s', 1, 2), 17);
      assert.equal(await redis.bitpos('s', 1, 2, -1), 17);
      assert.equal(await redis.bitpos('none', 1), -1);
      assert.equal(await redis.bitpos('none', 0), 0);
    });

    embeddedOnly('Redis 7.0 lacks BITOP DIFF, DIFF1, ANDOR, ONE (8.2)')('bitop with every operation', async () => {
      await redis.set('x', 'foobar');
      await redis.set('y', 'abc');
      const ops = ['and', 'or', 'xor', 'diff', 'diff1', 'andor', 'one'] as const;
      const counts: number[] = [];
      for (const op of ops) {
        assert.equal(await redis.bitop(op as 'and', 'dest', 'x', 'y'), 6, op);
        counts.push(await wholeCount(redis, 'dest'));
      }
      assert.deepEqual(counts, [9, 27, 18, 17, 1, 9, 18]);
      assert.equal(await redis.get('dest'), '\x07\r\x0cbar');
      assert.equal(await redis.bitop('not', 'dest', 'y'), 3);
      assert.equal(await wholeCount(redis, 'dest'), 14);
      await assert.rejects(redis.bitop('diff', 'dest', 'x'), /ERR BITOP DIFF must be called with at least two source keys\./);
    });

    // The auto-pipelining proxy turns bitfield() into a promise, so the SDK's builder only works
    // without it; the pipeline test below covers both modes.
    const directIt = mode.autoPipeline ? it.skip : it;

    directIt('bitfield: get, set, incrby and overflow', async () => {
      assert.deepEqual(await redis.bitfield('f').set('u8', 0, 200).get('i8', 0).incrby('u4', '#1', 9).exec(), [0, -56, 1]);
      assert.deepEqual(
        await redis.bitfield('f').overflow('SAT').incrby('u8', 0, 100).overflow('FAIL').incrby('u8', 0, 1).overflow('WRAP').incrby('u8', 0, 1).exec(),
        [255, null, 0],
      );
      assert.deepEqual(await redis.bitfield('f').get('u8', 0).get('u16', 0).exec(), [0, 0]);
      assert.deepEqual(await redis.bitfield('none').get('u8', 0).exec(), [0]);
      await assert.rejects(redis.bitfield('f').get('u64', 0).exec(), /ERR Invalid bitfield type/);
    });

    // Past 1 KiB Larder edits a string in place rather than copying it per write.
    it('a long string takes setbit, setrange and append, and reads back as one string', async () => {
      await redis.set('long', 'x'.repeat(3000));
      assert.equal(await redis.setbit('long', 7, 1), 0); // 'x' becomes 'y'
      assert.equal(await redis.setrange('long', 2998, 'abc'), 3001);
      assert.equal(await redis.append('long', 'Z'), 3002);
      assert.equal(await redis.setbit('long', 3005 * 8 + 7, 1), 0);
      assert.equal(await redis.get('long'), 'y' + 'x'.repeat(2997) + 'abcZ\0\0\0\x01');
      assert.equal(await redis.getrange('long', 2998, 3001), 'abcZ');
      assert.equal(await redis.getbit('long', 7), 1);
      assert.equal(await wholeCount(redis, 'long'), 5 + 2997 * 4 + 3 + 3 + 4 + 4 + 1);
      assert.equal(await redis.strlen('long'), 3006);
    });

    it('the same commands in a pipeline', async () => {
      const p = redis.pipeline();
      p.setbit('{t}p', 1, 1);
      p.getbit('{t}p', 1);
      p.bitcount('{t}p', 0, -1);
      p.bitpos('{t}p', 1);
      p.bitop('not', '{t}p:not', '{t}p');
      p.bitfield('{t}p').get('u8', 0).exec();
      assert.deepEqual(await p.exec(), [0, 1, 1, 1, 1, [64]]);
    });
  });
}

// Arrays (Upstash's AR* commands) as @upstash/redis calls them, with auto-pipelining off and
// on: sparse values at 64-bit indexes, the append cursor, rings, ranges, search and
// aggregates, and the texts Upstash documents for what it refuses.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

const LAST = '18446744073709551614';

for (const mode of PIPELINE_MODES) {
  describe(`array commands through the SDK (${mode.name})`, () => {
    const { redis, t } = suiteSdk(mode);

    it('writes and reads sparse slots: count and length differ, nothing shifts', async () => {
      assert.equal(await redis.arset('a', 0, 'x', 'y', 'z'), 3);
      assert.equal(await redis.arset('a', 1, 'Y'), 0, 'an overwrite takes no new slot');
      assert.equal(await redis.armset('a', { 10: 'ten', 1000: 'thousand' }), 2);
      assert.equal(await redis.arget('a', 1), 'Y');
      assert.equal(await redis.arget('a', 5), null);
      assert.deepEqual(await redis.armget('a', 0, 5, 1000), ['x', null, 'thousand']);
      assert.equal(await redis.arcount('a'), 5);
      assert.equal(await redis.arlen('a'), '1001');
      assert.deepEqual(await redis.argetrange('a', 0, 3), ['x', 'Y', 'z', null]);
      assert.deepEqual(await redis.argetrange('a', 3, 0), [null, 'z', 'Y', 'x'], 'a reversed range reads downwards');
      assert.deepEqual(await redis.arscan('a', 0, 2000), [['0', 'x'], ['1', 'Y'], ['2', 'z'], ['10', 'ten'], ['1000', 'thousand']]);
      assert.deepEqual(await redis.arscan('a', 2, 2000, { limit: 2 }), [['2', 'z'], ['10', 'ten']]);
      assert.equal(await redis.ardel('a', 1, 5), 1);
      assert.equal(await redis.ardelrange('a', [0, 0], [100, 10]), 2);
      assert.deepEqual(await redis.arscan('a', 0, 2000), [['2', 'z'], ['1000', 'thousand']]);
      assert.equal(await redis.ardelrange('a', [0, 5000]), 2);
      assert.equal(await redis.exists('a'), 0, 'removing the last value deletes the key');
      assert.equal(await redis.arcount('a'), 0);
      assert.equal(await redis.arlen('a'), '0');
      assert.deepEqual(await redis.armget('a', 0, 1), [null, null]);
    });

    it('appends at the cursor, which positional writes and deletions never move', async () => {
      assert.equal(await redis.arnext('log'), '0');
      assert.equal(await redis.arinsert('log', 'only'), '0');
      assert.equal(await redis.arinsert('log', 'v1', 'v2', 'v3'), '3');
      assert.equal(await redis.arnext('log'), '4');
      await redis.arset('log', 10, 'far');
      await redis.ardel('log', 3);
      assert.equal(await redis.arnext('log'), '4');
      assert.equal(await redis.arinsert('log', 'next'), '4', 'a freed index is not reused');
      assert.deepEqual(await redis.arlastitems('log', 2), [null, 'next'], 'the walk back counts the emptied slot');
      assert.deepEqual(await redis.arlastitems('log', 3, { rev: true }), ['next', null, 'v2']);
      assert.equal(await redis.arseek('log', 1), 1);
      assert.equal(await redis.arinsert('log', 'again'), '1');
      assert.equal(await redis.arseek('missing', 1), 0);
      assert.equal(await redis.exists('missing'), 0, 'ARSEEK makes no key');
      assert.deepEqual(await redis.arlastitems('missing', 3), []);
      await redis.arset('big', LAST, 'last');
      assert.equal(await redis.arlen('big'), '18446744073709551615');
      await redis.arseek('big', LAST);
      assert.equal(await redis.arinsert('big', 'at the end'), LAST);
      assert.equal(await redis.arnext('big'), null, 'no append is left');
      await assert.rejects(redis.arinsert('big', 'past'), /ERR insert index overflow/);
      await assert.rejects(redis.arset('big', LAST, 'a', 'b'), /ERR invalid array index/);
      await assert.rejects(redis.arget('big', '18446744073709551615'), /ERR invalid array index/);
      await assert.rejects(redis.arget('big', -1), /ERR invalid array index/);
    });

    it('keeps a ring of the newest values, and lays them again when its size changes', async () => {
      assert.equal(await redis.arring('ring', 3, 'a', 'b', 'c'), '2');
      assert.equal(await redis.arring('ring', 3, 'd', 'e'), '1');
      assert.deepEqual(await redis.argetrange('ring', 0, 2), ['d', 'e', 'c']);
      assert.equal(await redis.arlen('ring'), '3');
      assert.deepEqual(await redis.arlastitems('ring', 3), ['c', 'd', 'e']);
      assert.equal(await redis.arring('ring', 2, 'f'), '0');
      assert.deepEqual(await redis.argetrange('ring', 0, 2), ['f', 'e', null]);
      assert.equal(await redis.arring('many', 2, '1', '2', '3', '4', '5'), '0');
      assert.deepEqual(await redis.arlastitems('many', 5), [4, 5], 'the SDK reads numeric values as numbers');
    });

    it('greps values with predicates and aggregates ranges', async () => {
      await redis.arinsert('events', 'error:disk', 'info:boot', 'ERROR:net', 'warn:disk', 'error:cpu');
      assert.deepEqual(await redis.argrep('events', '-', '+', { predicates: [{ glob: 'error:*' }] }), ['0', '4']);
      assert.deepEqual(await redis.argrep('events', '-', '+', { predicates: [{ glob: 'error:*' }], noCase: true, limit: 2 }), ['0', '2']);
      assert.deepEqual(
        await redis.argrep('events', 0, 4, { predicates: [{ match: 'disk' }, { re: '^warn' }], combine: 'AND', withValues: true }),
        [['3', 'warn:disk']],
      );
      assert.deepEqual(await redis.argrep('events', 0, 4, { predicates: [{ exact: 'info:boot' }, { match: 'cpu' }] }), ['1', '4']);
      // Through the raw API: auto-pipelined, the SDK runs ARGREP's and ARINFO's readers on a failed reply.
      assert.match((await t.command(['argrep', 'events', '0', '4', 'RE', '(a)\\1'])).body.error, /^ERR invalid regular expression/);

      await redis.arinsert('n', '30', '10', 'not a number', '20');
      assert.equal(await redis.arop('n', 0, 3, 'SUM'), 60);
      assert.equal(await redis.arop('n', 3, 0, 'MIN'), 10);
      assert.equal(await redis.arop('n', 0, 3, 'MAX'), 30);
      assert.equal(await redis.arop('n', 0, 3, 'USED'), 4);
      assert.equal(await redis.arop('n', 0, 3, { match: '10' }), 1);
      assert.equal(await redis.arop('n', 2, 2, 'SUM'), null, 'nothing to aggregate');
      await redis.arinsert('bits', '7', '5', '3.9');
      assert.equal(await redis.arop('bits', 0, 2, 'AND'), 1);
      assert.equal(await redis.arop('bits', 0, 2, 'OR'), 7);
      assert.equal(await redis.arop('bits', 0, 2, 'XOR'), 1);
    });

    it('describes its layout, refuses a missing key and other types', async () => {
      await redis.armset('laid', { 0: 'a', 100: 'b' });
      const info = await redis.arinfo('laid');
      assert.deepEqual(info, { len: '101', count: 2, sliceSize: 4096, slices: 1, directorySize: 1, superDirEntries: 0, nextInsertIndex: '0' });
      const full = await redis.arinfo('laid', { full: true });
      assert.equal(full.sparseSlices, 1);
      assert.equal(full.denseSlices, 0);
      assert.deepEqual((await t.command(['arinfo', 'nothing'])).body, { error: 'ERR no such key' });
      assert.equal(await redis.type('laid'), 'array');
      await redis.set('plain', 'text');
      await assert.rejects(redis.arset('plain', 0, 'x'), /WRONGTYPE/);
      await assert.rejects(redis.arcount('plain'), /WRONGTYPE/);
      assert.deepEqual((await t.command(['argetrange', 'laid', '0', '1000000'])).body, { error: 'ERR range exceeds maximum of 1000000 items' });
      assert.equal(((await t.command(['argetrange', 'laid', '1', '1000000'])).body.result as unknown[]).length, 1_000_000);
      assert.deepEqual((await t.command(['arscan', 'laid', '5', '1'])).body, { error: 'ERR start must not be greater than end' });
      assert.deepEqual((await t.command(['armset', 'laid', '1', 'a', '2'])).body, { error: "ERR wrong number of arguments for 'armset' command" });
    });
  });
}

// The stream commands as the official @upstash/redis SDK calls them, with auto-pipelining
// off and on: every x* method it has, with the typed results it returns (XRANGE and
// XREVRANGE become { id: { field: value } } with values parsed as JSON; the rest come back as
// Redis answers them).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from '@upstash/redis';
import { embeddedOnly, type TestLarder } from '../../support/larder.js';
import { PIPELINE_MODES, startSdk } from '../../support/sdk.js';

for (const mode of PIPELINE_MODES) {
  describe(`stream commands through the SDK (${mode.name})`, () => {
    let t: TestLarder;
    let redis: Redis;
    before(async () => ({ t, redis } = await startSdk(mode)));
    after(() => t.close());

    it('xadd, xlen, xrange, xrevrange, xdel, xtrim', async () => {
      assert.equal(await redis.xadd('s', '1-1', { name: 'ada', n: 1 }), '1-1');
      assert.equal(await redis.xadd('s', '2-*', { name: 'bob' }), '2-0');
      const auto = await redis.xadd('s', '*', { name: 'cy' });
      assert.match(auto, /^\d+-0$/);
      assert.equal(await redis.xadd('nokey', '*', { a: 1 }, { nomkStream: true }), null);
      assert.equal(await redis.xlen('s'), 3);
      assert.deepEqual(await redis.xrange('s', '-', '2-0'), { '1-1': { name: 'ada', n: 1 }, '2-0': { name: 'bob' } });
      assert.deepEqual(await redis.xrange('s', '(1-1', '+', 1), { '2-0': { name: 'bob' } });
      assert.deepEqual(Object.keys(await redis.xrevrange('s', '+', '-', 2)), [auto, '2-0']);
      assert.equal(await redis.xdel('s', ['1-1', '9-9']), 1);
      assert.equal(await redis.xtrim('s', { strategy: 'MAXLEN', exactness: '=', threshold: 1 }), 1);
      assert.equal(await redis.xadd('s', '*', { x: 1 }, { trim: { type: 'MAXLEN', comparison: '=', threshold: 1 } }) !== null, true);
      assert.equal(await redis.xlen('s'), 1);
      await assert.rejects(redis.xadd('s', '1-1', { a: 1 }), /equal or smaller than the target stream top item/);
    });

    it('xread, xgroup, xreadgroup, xack, xpending, xclaim, xautoclaim, xinfo', async () => {
      await redis.xadd('q', '1-0', { job: 'a' });
      await redis.xadd('q', '2-0', { job: 'b' });
      assert.deepEqual(await redis.xread('q', '0', { count: 1 }), [['q', [['1-0', ['job', 'a']]]]]);
      assert.equal(await redis.xread('q', '$'), null);
      // A short BLOCK ends as a timeout (and, auto-pipelined, does not wait at all).
      assert.equal(await redis.xread(['q'], ['$'], { blockMS: 20 }), null);
      assert.equal(await redis.xgroup('q', { type: 'CREATE', group: 'g', id: '0' }), 'OK');
      assert.equal(await redis.xgroup('q2', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true, ENTRIESREAD: 0 } }), 'OK');
      assert.equal(await redis.xgroup('q', { type: 'CREATECONSUMER', group: 'g', consumer: 'idle' }), 1);
      const read = await redis.xreadgroup('g', 'alice', 'q', '>', { count: 1 });
      assert.deepEqual(read, [['q', [['1-0', ['job', 'a']]]]]);
      assert.deepEqual(await redis.xreadgroup('g', 'bob', ['q'], ['>']), [['q', [['2-0', ['job', 'b']]]]]);
      assert.equal(await redis.xreadgroup('g', 'bob', 'q', '>', { NOACK: true, blockMS: 20 }), null);
      const summary = (await redis.xpending('q', 'g', '-', '+', 10)) as unknown[][];
      assert.deepEqual(summary.map((e) => [e[0], e[1], e[3]]), [['1-0', 'alice', 1], ['2-0', 'bob', 1]]);
      assert.deepEqual(await redis.xpending('q', 'g', '-', '+', 10, { consumer: 'nobody' }), []);
      assert.deepEqual(await redis.xclaim('q', 'g', 'carol', 0, '1-0', { justId: true }), ['1-0']);
      assert.deepEqual(await redis.xautoclaim('q', 'g', 'carol', 0, '0-0', { count: 10 }), ['0-0', [['1-0', ['job', 'a']], ['2-0', ['job', 'b']]], []]);
      assert.equal(await redis.xack('q', 'g', ['1-0', '9-0']), 1);
      const groups = (await redis.xinfo('q', { type: 'GROUPS' })) as unknown[][];
      assert.deepEqual(groups[0].slice(0, 10), ['name', 'g', 'consumers', 4, 'pending', 1, 'last-delivered-id', '2-0', 'entries-read', 2]);
      const consumers = (await redis.xinfo('q', { type: 'CONSUMERS', group: 'g' })) as unknown[][];
      assert.deepEqual(consumers.map((c) => [c[1], c[3]]), [['alice', 0], ['bob', 0], ['carol', 1], ['idle', 0]]);
      assert.equal(await redis.xgroup('q', { type: 'DELCONSUMER', group: 'g', consumer: 'carol' }), 1);
      assert.equal(await redis.xgroup('q', { type: 'SETID', group: 'g', id: '0', options: { ENTRIESREAD: 0 } }), 'OK');
      assert.equal(await redis.xgroup('q', { type: 'DESTROY', group: 'g' }), 1);
      await assert.rejects(redis.xreadgroup('nope', 'c', 'q', '>'), /NOGROUP/);
    });

    embeddedOnly('Redis trims ~ by whole nodes; Larder trims exactly, as Upstash does')('xtrim and xadd with ~ trim exactly to the threshold', async () => {
      const p = redis.pipeline();
      for (let i = 1; i <= 150; i++) p.xadd('tr', `${i}-0`, { n: i });
      await p.exec();
      assert.equal(await redis.xtrim('tr', { strategy: 'MAXLEN', threshold: 120 }), 30);
      await redis.xadd('tr', '151-0', { n: 151 }, { trim: { type: 'MAXLEN', comparison: '~', threshold: 100 } });
      assert.equal(await redis.xlen('tr'), 100);
      assert.equal(await redis.xtrim('tr', { strategy: 'MINID', threshold: '140-0', exactness: '~', limit: 10 }), 10);
      assert.deepEqual(Object.keys(await redis.xrange('tr', '-', '+', 1)), ['62-0']);
    });

    it('xreadgroup with NOACK delivers without adding to the pending entries list', async () => {
      await redis.xadd('na', '1-0', { job: 'a' });
      await redis.xadd('na', '2-0', { job: 'b' });
      await redis.xadd('na', '3-0', { job: 'c' });
      assert.equal(await redis.xgroup('na', { type: 'CREATE', group: 'g', id: '0' }), 'OK');
      assert.deepEqual(await redis.xreadgroup('g', 'alice', 'na', '>', { count: 1 }), [['na', [['1-0', ['job', 'a']]]]]);
      assert.deepEqual(await redis.xreadgroup('g', 'bob', 'na', '>', { NOACK: true }), [
        ['na', [['2-0', ['job', 'b']], ['3-0', ['job', 'c']]]],
      ]);
      const pending = (await redis.xpending('na', 'g', '-', '+', 10)) as unknown[][];
      assert.deepEqual(pending.map((e) => [e[0], e[1], e[3]]), [['1-0', 'alice', 1]]);
      assert.deepEqual(await redis.xpending('na', 'g', '-', '+', 10, { consumer: 'bob' }), []);
      assert.deepEqual(await redis.xreadgroup('g', 'bob', 'na', '0'), [['na', []]]);
      assert.equal(await redis.xack('na', 'g', ['2-0', '3-0']), 0);
    });

    embeddedOnly('Redis 7.0 lacks XDELEX and XACKDEL (Redis 8.2)')('xdelex and xackdel', async () => {
      await redis.xadd('d', '1-0', { a: 1 });
      await redis.xadd('d', '2-0', { a: 2 });
      await redis.xgroup('d', { type: 'CREATE', group: 'g', id: '0' });
      await redis.xreadgroup('g', 'c', 'd', '>');
      assert.deepEqual(await redis.xdelex('d', 'ACKED', '1-0', '7-0'), [2, -1]);
      assert.deepEqual(await redis.xackdel('d', 'g', 'KEEPREF', '1-0', '1-0'), [1, -1]);
      assert.deepEqual(await redis.xdelex('d', undefined, '2-0'), [1]);
      assert.equal(await redis.xlen('d'), 0);
    });

    // The SDK's xadd and xtrim have no option for these words yet: exec sends them as written.
    embeddedOnly('Redis 7.0 lacks XADD and XTRIM KEEPREF, DELREF and ACKED (Redis 8.2)')('xtrim and xadd with KEEPREF, DELREF and ACKED', async () => {
      for (const id of ['1-0', '2-0', '3-0']) await redis.xadd('r', id, { a: 1 });
      await redis.xgroup('r', { type: 'CREATE', group: 'g', id: '0' });
      await redis.xreadgroup('g', 'c', 'r', '>', { count: 2 });
      assert.equal(await redis.exec(['xtrim', 'r', 'MAXLEN', 0, 'ACKED']), 0);
      assert.equal(await redis.xack('r', 'g', '1-0'), 1);
      assert.equal(await redis.exec(['xtrim', 'r', 'MAXLEN', 0, 'ACKED']), 1);
      assert.equal(await redis.exec(['xadd', 'r', 'MAXLEN', 1, 'DELREF', '4-0', 'a', 2]), '4-0');
      assert.deepEqual(await redis.xpending('r', 'g', '-', '+', 10), []);
      assert.deepEqual(Object.keys(await redis.xrange('r', '-', '+')), ['4-0']);
      assert.equal(await redis.exec(['xtrim', 'r', 'KEEPREF', 'MINID', '5']), 1);
      await assert.rejects(redis.exec(['xtrim', 'r', 'MAXLEN', 0, 'ACKED', 'x']), /ERR syntax error/);
    });
  });
}

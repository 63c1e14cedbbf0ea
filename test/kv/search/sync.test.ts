// Every write path keeps the search indexes in sync (issue 23, point 5), beyond the ones
// commands.test.ts walks through: DEL/UNLINK, RENAME/RENAMENX/COPY onto indexed keys, MOVE
// (refused), RESTORE, FLUSHALL, key expiry set by SET/GETEX/EXPIREAT, hash-field expiry that
// leaves the key, HGETDEL/HGETEX, writes that change a key's type, JSON path writes, STRING
// writes that break the JSON, scripts (EVALSHA, FCALL, keys a script does not declare) and
// scripts inside transactions. Each step is checked with a query and an aggregation. A stream
// index is checked against XRANGE after each of a seeded run of stream writes.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, suiteLarder } from '../../support/larder.js';
import { Rng } from '../differential/prng.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('search indexes follow every write', () => {
  const t = suiteLarder();
  /** The keys `index` holds, sorted, as a query and as a terms aggregation over the keys' `tag` see them. */
  const keys = async (index: string) => ((await t.ok(['search.query', index, '{}', 'NOCONTENT', 'LIMIT', 100])) as [string, string][]).map((r) => r[0]).sort();
  const sum = async (index: string, field: string) =>
    ((await t.ok(['search.aggregate', index, '{}', JSON.stringify({ s: { $sum: { field } } })])) as [string, [string, number]])[1][1];

  embeddedOnly('SEARCH.* needs the embedded engine')('hash documents: DEL, UNLINK, RENAME, RENAMENX, COPY, MOVE, RESTORE, type changes', async () => {
    await t.ok(['search.create', 'hs', 'ON', 'HASH', 'PREFIX', '1', 'h:', 'SCHEMA', 'n', 'U64', 'FAST']);
    for (let i = 1; i <= 6; i++) await t.ok(['hset', `h:${i}`, 'n', String(i)]);
    assert.equal(await sum('hs', 'n'), 21);
    await t.ok(['del', 'h:1', 'h:2']);
    await t.ok(['unlink', 'h:3']);
    assert.deepEqual(await keys('hs'), ['h:4', 'h:5', 'h:6']);
    // RENAME onto an indexed key replaces its document; RENAMENX onto one changes nothing.
    await t.ok(['rename', 'h:4', 'h:5']);
    assert.deepEqual(await keys('hs'), ['h:5', 'h:6']);
    assert.equal(await sum('hs', 'n'), 10);
    assert.equal(await t.ok(['renamenx', 'h:5', 'h:6']), 0);
    assert.equal(await sum('hs', 'n'), 10);
    await t.ok(['hset', 'outside', 'n', '100']);
    await t.ok(['copy', 'outside', 'h:6', 'REPLACE']);
    assert.equal(await sum('hs', 'n'), 104);
    // MOVE is refused: nothing changes.
    assert.equal((await t.command(['move', 'h:6', '1'])).status, 400);
    assert.deepEqual(await keys('hs'), ['h:5', 'h:6']);
    // RESTORE brings a dumped document back, and REPLACE swaps one.
    // The dump's bytes travel percent-encoded in the path (a JSON body would carry text).
    const dumped = (await (await t.request('/dump/h:5', { headers: { 'upstash-encoding': 'base64' } })).json()) as { result: string };
    const payload = [...Buffer.from(dumped.result, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const restore = async (path: string) => (await t.request(`/restore/${path}`)).status;
    await t.ok(['del', 'h:5']);
    assert.deepEqual(await keys('hs'), ['h:6']);
    assert.equal(await restore(`h:5/0/${payload}`), 200);
    assert.equal(await restore(`h:6/0/${payload}/REPLACE`), 200);
    assert.equal(await sum('hs', 'n'), 8);
    // A write that makes the key another type takes it out.
    await t.ok(['set', 'h:5', 'plain']);
    await t.ok(['rpush', 'list', 'b', 'a']);
    await t.ok(['sort', 'list', 'ALPHA', 'STORE', 'h:6']);
    assert.deepEqual(await keys('hs'), []);
    await t.ok(['hset', 'h:7', 'n', '7']);
    await t.ok(['flushall']);
    assert.deepEqual(await keys('hs'), []);
    await t.ok(['hset', 'h:8', 'n', '8']);
    assert.equal(await sum('hs', 'n'), 8);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('expiry: SET EX, GETEX, EXPIREAT in the past, hash fields that leave the key, HGETDEL, HGETEX', async () => {
    await t.ok(['search.create', 'ex', 'ON', 'HASH', 'PREFIX', '1', 'e:', 'SCHEMA', 'a', 'U64', 'FAST', 'b', 'U64', 'FAST']);
    await t.ok(['hset', 'e:1', 'a', '1', 'b', '10']);
    await t.ok(['hset', 'e:2', 'a', '2', 'b', '20']);
    await t.ok(['hset', 'e:3', 'a', '3', 'b', '30']);
    await t.ok(['hset', 'e:4', 'a', '4', 'b', '40']);
    // A field expiring takes the field out of the document, the document stays.
    await t.ok(['hpexpire', 'e:1', '1', 'FIELDS', '1', 'b']);
    await t.ok(['hgetex', 'e:2', 'PX', '1', 'FIELDS', '1', 'b']);
    await t.ok(['hgetdel', 'e:3', 'FIELDS', '1', 'b']);
    await sleep(10);
    // Aggregations and counts over {} see the expiry before any query has looked at the keys.
    assert.equal(await sum('ex', 'b'), 40);
    assert.deepEqual(await keys('ex'), ['e:1', 'e:2', 'e:3', 'e:4']);
    assert.equal(await sum('ex', 'a'), 10);
    await t.ok(['pexpireat', 'e:4', '1']);
    assert.deepEqual(await keys('ex'), ['e:1', 'e:2', 'e:3']);
    await t.ok(['search.create', 'sx', 'ON', 'STRING', 'PREFIX', '1', 's:', 'SCHEMA', 'v', 'U64', 'FAST']);
    await t.ok(['set', 's:1', '{"v":1}', 'PX', '1']);
    await t.ok(['set', 's:2', '{"v":2}']);
    await t.ok(['getex', 's:2', 'PX', '1']);
    await t.ok(['set', 's:3', '{"v":3}']);
    await sleep(10);
    assert.equal(await t.ok(['search.count', 'sx', '{}']), 1);
    assert.equal(await sum('sx', 'v'), 3);
    assert.deepEqual(await keys('sx'), ['s:3']);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('JSON path writes and STRING writes that break the JSON', async () => {
    await t.ok(['search.create', 'js', 'ON', 'JSON', 'PREFIX', '1', 'j:', 'SCHEMA', 'n', 'F64', 'FAST', 'tags', 'KEYWORD', 'FAST', 'in.deep', 'U64', 'FAST']);
    await t.ok(['json.set', 'j:1', '$', '{"n":1,"tags":["a"],"in":{"deep":5}}']);
    await t.ok(['json.numincrby', 'j:1', '$.n', '2']);
    await t.ok(['json.arrappend', 'j:1', '$.tags', '"b"']);
    await t.ok(['json.set', 'j:1', '$.in.deep', '7']);
    await t.ok(['json.merge', 'j:1', '$', '{"extra":true}']);
    const terms = async () => t.ok(['search.aggregate', 'js', '{}', '{"t":{"$terms":{"field":"tags"}},"d":{"$sum":{"field":"in.deep"}},"n":{"$sum":{"field":"n"}}}']);
    assert.deepEqual(await terms(), ['t', ['buckets', [['key', 'a', 'docCount', 1], ['key', 'b', 'docCount', 1]], 'sumOtherDocCount', 0], 'd', ['value', 7], 'n', ['value', 3]]);
    await t.ok(['json.del', 'j:1', '$.in']);
    await t.ok(['json.arrpop', 'j:1', '$.tags']);
    assert.deepEqual(await terms(), ['t', ['buckets', [['key', 'a', 'docCount', 1]], 'sumOtherDocCount', 0], 'd', ['value', 0], 'n', ['value', 3]]);
    await t.ok(['json.del', 'j:1']);
    assert.deepEqual(await keys('js'), []);

    await t.ok(['search.create', 'st', 'ON', 'STRING', 'PREFIX', '1', 't:', 'SCHEMA', 'n', 'U64', 'FAST']);
    await t.ok(['set', 't:1', '{"n":4}']);
    await t.ok(['append', 't:1', 'garbage']);
    assert.deepEqual(await keys('st'), []);
    await t.ok(['setrange', 't:1', '6', '}          ']);
    assert.equal(await sum('st', 'n'), 4);
    await t.ok(['set', 't:2', '{"n":1}']);
    await t.ok(['bitop', 'OR', 't:2', 't:1', 'no:such:key']);
    assert.equal(await sum('st', 'n'), 8);
    await t.ok(['getdel', 't:2']);
    assert.deepEqual(await keys('st'), ['t:1']);
    // Past 1 KiB a string is edited in place, and is still the document.
    await t.ok(['set', 't:3', JSON.stringify({ n: 5, pad: 'p'.repeat(1100) })]);
    await t.ok(['setrange', 't:3', '5', '6']);
    await t.ok(['append', 't:3', '  ']);
    assert.equal(await sum('st', 'n'), 10);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('scripts: EVALSHA, FCALL, keys a script does not declare, scripts inside a transaction', async () => {
    await t.ok(['search.create', 'sc', 'ON', 'HASH', 'PREFIX', '1', 'c:', 'SCHEMA', 'n', 'U64', 'FAST']);
    const sha = await t.ok(['script', 'load', "redis.call('hset', KEYS[1], 'n', ARGV[1]); return 1"]);
    await t.ok(['evalsha', sha as string, '1', 'c:1', '5']);
    // The script writes a key it does not declare: each redis.call is synced on its own.
    await t.ok(['eval', "redis.call('hset', 'c:2', 'n', '6'); return 1", '0']);
    await t.ok(['function', 'load', "#!lua name=lib\nredis.register_function('put', function(keys, args) return redis.call('hset', keys[1], 'n', args[1]) end)"]);
    await t.ok(['fcall', 'put', '1', 'c:3', '7']);
    assert.equal(await sum('sc', 'n'), 18);
    const res = await t.request('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([['evalsha', sha, '1', 'c:4', '1'], ['del', 'c:1'], ['fcall', 'put', '1', 'c:2', '10']]),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await keys('sc'), ['c:2', 'c:3', 'c:4']);
    assert.equal(await sum('sc', 'n'), 18);
    // A script that fails half-way keeps what it wrote before the error (as Redis), and the index says so.
    assert.equal((await t.command(['eval', "redis.call('hset', KEYS[1], 'n', '50'); redis.call('incr', KEYS[1]); return 1", '1', 'c:5'])).status, 400);
    assert.equal(await sum('sc', 'n'), 68);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('stream documents: trimming XADDs, XDEL, XDELEX, XTRIM, XSETID, DEL, RENAME, RESTORE, scripts and transactions', async () => {
    await t.ok(['search.create', 'events', 'ON', 'STREAM', '{s}x', 'SCHEMA', 'n', 'U64', 'FAST']);
    const inStep = async (step: string) => {
      const entries = ((await t.ok(['xrange', '{s}x', '-', '+'])) ?? []) as [string, string[]][];
      const ids = entries.map((e) => e[0]).sort();
      assert.deepEqual(await keys('events'), ids, step);
      assert.equal(await sum('events', 'n'), entries.reduce((total, e) => total + Number(e[1][1]), 0), step);
    };
    const rng = new Rng(20261127);
    const anyId = async () => {
      const entries = ((await t.ok(['xrange', '{s}x', '-', '+'])) ?? []) as [string, string[]][];
      return entries.length === 0 ? '0-1' : entries[rng.int(0, entries.length - 1)][0];
    };
    let ms = 1;
    for (let step = 0; step < 150; step++) {
      const n = String(rng.int(1, 9));
      const pick = rng.int(0, 9);
      let argv: (string | number)[];
      if (pick <= 3) argv = ['xadd', '{s}x', `${ms++}-0`, 'n', n];
      else if (pick === 4) argv = ['xadd', '{s}x', 'MAXLEN', '=', rng.int(0, 6), `${ms++}-0`, 'n', n];
      else if (pick === 5) argv = ['xdel', '{s}x', await anyId(), await anyId()];
      else if (pick === 6) argv = rng.chance(0.5) ? ['xtrim', '{s}x', 'MAXLEN', rng.int(0, 8)] : ['xtrim', '{s}x', 'MINID', await anyId()];
      else if (pick === 7) argv = ['eval', "redis.call('xadd', KEYS[1], ARGV[1], 'n', ARGV[2]); return redis.call('xdel', KEYS[1], ARGV[3])", 1, '{s}x', `${ms++}-0`, n, await anyId()];
      else if (pick === 8) argv = rng.chance(0.8) ? ['xdelex', '{s}x', 'IDS', 1, await anyId()] : ['del', '{s}x'];
      else {
        // The ids go back: after a DEL, or XSETID down to the last entry left.
        ms = rng.chance(0.5) ? 1 : ms;
        if (ms === 1) await t.ok(['del', '{s}x']);
        argv = ['xadd', '{s}x', `${ms++}-0`, 'n', n];
      }
      const res = await t.command(argv);
      assert.equal(res.status, 200, `${argv.join(' ')}: ${JSON.stringify(res.body)}`);
      await inStep(`step ${step}: ${argv.join(' ')}`);
    }

    // A capped stream: each XADD cuts one entry from the front, well past the point where the ids taken in are compacted.
    await t.ok(['del', '{s}x']);
    const capped = Array.from({ length: 1500 }, (_, i) => ['xadd', '{s}x', 'MAXLEN', '=', '10', `${i + 1}-0`, 'n', '1']);
    assert.equal((await t.request('/pipeline', { method: 'POST', body: JSON.stringify(capped) })).status, 200);
    await inStep('capped');
    await t.ok(['xdel', '{s}x', '1495-0']);
    await inStep('capped, with a hole');
    // XTRIM ACKED passes over an entry a group has pending (1494-0) and trims the rest around it.
    await t.ok(['xgroup', 'CREATE', '{s}x', 'g', '0']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '3', 'NOACK', 'STREAMS', '{s}x', '>']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', '{s}x', '>']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', '{s}x', '>']);
    assert.equal(await t.ok(['xtrim', '{s}x', 'MAXLEN', '0', 'ACKED']), 8);
    await inStep('trimmed around a pending entry');

    // Another value under the key is read afresh, even with the same ids: RENAME, RESTORE, a transaction.
    await t.ok(['del', '{s}x', '{s}y']);
    for (let i = 1; i <= 3; i++) await t.ok(['xadd', '{s}x', `${i}-0`, 'n', '1']);
    for (let i = 1; i <= 3; i++) await t.ok(['xadd', '{s}y', `${i}-0`, 'n', '5']);
    await t.ok(['rename', '{s}y', '{s}x']);
    await inStep('rename');
    assert.equal(await sum('events', 'n'), 15);
    const dumped = (await (await t.request('/dump/{s}x', { headers: { 'upstash-encoding': 'base64' } })).json()) as { result: string };
    const payload = [...Buffer.from(dumped.result, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    await t.ok(['xdel', '{s}x', '2-0']);
    assert.equal((await t.request(`/restore/{s}x/0/${payload}/REPLACE`)).status, 200);
    await inStep('restore');
    const res = await t.request('/multi-exec', { method: 'POST', body: JSON.stringify([['xadd', '{s}x', '9-0', 'n', '2'], ['xtrim', '{s}x', 'MAXLEN', '2'], ['xsetid', '{s}x', '9-0']]) });
    assert.equal(res.status, 200);
    await inStep('transaction');
    assert.deepEqual(await keys('events'), ['3-0', '9-0']);
  });
});

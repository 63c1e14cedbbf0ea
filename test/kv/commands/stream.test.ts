// Stream commands over HTTP: every command and option with its exact reply, and the error
// texts as redis-server 7.0 answers them (XDELEX, XACKDEL and XADD's and XTRIM's KEEPREF,
// DELREF and ACKED follow the Redis 8.2 docs and source: Redis 7.0 has none of them).
// BLOCK: a blocked XREAD/XREADGROUP is answered by a later XADD, by its timeout, or (BLOCK 0)
// by the configured maxBlockMs; inside a pipeline it does not wait.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openEvents } from '../../support/event-stream.js';
import { embeddedOnly, replies, startTestLarder, type TestLarder } from '../../support/larder.js';

describe('stream commands over HTTP', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder({ kv: { maxBlockMs: 2000 } });
  });
  after(() => t.close());
  const { reply, fails } = replies(() => t);

  it('XADD: explicit, partial and auto ids, NOMKSTREAM, trimming, and its errors', async () => {
    await reply(['xadd', 's', '5-5', 'a', '1'], '5-5');
    await reply(['xadd', 's', '5-*', 'b', '2'], '5-6');
    await reply(['xadd', 's', '7', 'c', '3'], '7-0');
    const auto = (await t.ok(['xadd', 's', '*', 'd', '4'])) as string;
    assert.match(auto, /^\d{13}-0$/);
    await reply(['xadd', 'none', 'NOMKSTREAM', '*', 'a', '1'], null);
    await reply(['exists', 'none'], 0);
    await t.ok(['xadd', 's', 'MAXLEN', '=', '2', '*', 'e', '5']);
    await reply(['xlen', 's'], 2);
    await reply(['xadd', 't', '1-0', 'a', '1'], '1-0');
    await reply(['xadd', 't', '2-0', 'b', '2'], '2-0');
    await reply(['xadd', 't', 'MAXLEN', '=', '2', '8-0', 'e', '5'], '8-0');
    await reply(['xrange', 't', '-', '+'], [['2-0', ['b', '2']], ['8-0', ['e', '5']]]);
    await reply(['xadd', 't', 'MINID', '8', '9-0', 'f', '6'], '9-0');
    await reply(['xlen', 't'], 2);
    await fails(['xadd', 's', '0-0', 'a', '1'], 'ERR The ID specified in XADD must be greater than 0-0');
    await fails(['xadd', 's', '1-1', 'a', '1'], 'ERR The ID specified in XADD is equal or smaller than the target stream top item');
    await fails(['xadd', 's', 'MAXLEN', '-1', '*', 'a', '1'], 'ERR The MAXLEN argument must be >= 0.');
    await fails(['xadd', 's', 'LIMIT', '5', '*', 'a', '1'], 'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy');
    await fails(['xadd', 's', 'MAXLEN', '5', 'LIMIT', '5', '*', 'a', '1'], 'ERR syntax error, LIMIT cannot be used without the special ~ option');
    await fails(['xadd', 's', 'MAXLEN', '5', 'MINID', '5', '*', 'a', '1'], 'ERR syntax error, MAXLEN and MINID options at the same time are not compatible');
    await fails(['xadd', 's', 'MAXLEN', '~', '5', 'LIMIT', '-1', '*', 'a', '1'], 'ERR The LIMIT argument must be >= 0.');
    await fails(['xadd', 's', 'MAXLEN', 'x', '*', 'a', '1'], 'ERR value is not an integer or out of range');
    await fails(['xadd', 's', '5-x', 'a', '1'], 'ERR Invalid stream ID specified as stream command argument');
    await fails(['xadd', 's', '*', 'a'], "ERR wrong number of arguments for 'xadd' command");
    await t.ok(['set', 'str', 'x']);
    await fails(['xadd', 'str', '*', 'a', '1'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
    await reply(['xadd', 'max', '18446744073709551615-18446744073709551615', 'a', '1'], '18446744073709551615-18446744073709551615');
    await fails(['xadd', 'max', '*', 'a', '1'], 'ERR The stream has exhausted the last possible ID, unable to add more items');
    await reply(['type', 's'], 'stream');
    await reply(['object', 'encoding', 's'], 'stream');
  });

  it('XTRIM: exact trims, and its errors', async () => {
    for (let i = 1; i <= 50; i++) await t.ok(['xadd', 'ex', `${i}-0`, 'n', String(i)]);
    await reply(['xtrim', 'ex', 'MAXLEN', '10'], 40);
    await reply(['xtrim', 'ex', 'MINID', '=', '45-0'], 4);
    await reply(['xrange', 'ex', '-', '+', 'COUNT', '1'], [['45-0', ['n', '45']]]);
    await fails(['xtrim', 'ex', 'LIMIT', '5'], 'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy');
    await fails(['xtrim', 'ex', 'MAXLEN', '1', 'junk'], 'ERR syntax error');
    await reply(['xtrim', 'nokey', 'MAXLEN', '0'], 0);
  });

  // Redis trims `~` by whole nodes of 100 entries (here 100, then 0, where Larder trims 130);
  // Upstash trims exactly, and LIMIT caps the entries one call removes.
  embeddedOnly('Redis trims ~ by whole nodes; Larder trims exactly, as Upstash does')('XADD and XTRIM with ~ trim exactly to the threshold, as Upstash does', async () => {
    for (let i = 1; i <= 250; i++) await t.ok(['xadd', 'big', `${i}-0`, 'n', String(i)]);
    await reply(['xtrim', 'big', 'MAXLEN', '~', '120'], 130);
    await reply(['xtrim', 'big', 'MAXLEN', '~', '120'], 0);
    await reply(['xadd', 'big', 'MAXLEN', '~', '100', '251-0', 'n', '251'], '251-0');
    await reply(['xlen', 'big'], 100);
    await reply(['xtrim', 'big', 'MINID', '~', '240'], 88);
    await reply(['xrange', 'big', '-', '+', 'COUNT', '1'], [['240-0', ['n', '240']]]);
    await reply(['xtrim', 'big', 'MAXLEN', '~', '0', 'LIMIT', '5'], 5);
    await reply(['xadd', 'big', 'MINID', '~', '250', 'LIMIT', '3', '252-0', 'n', '252'], '252-0');
    await reply(['xrange', 'big', '-', '+', 'COUNT', '1'], [['248-0', ['n', '248']]]);
    await reply(['xtrim', 'big', 'MINID', '~', '250', 'LIMIT', '0'], 2);
    await reply(['xlen', 'big'], 3);
  });

  it('XRANGE and XREVRANGE: exclusive bounds, COUNT, errors', async () => {
    for (const id of ['1-0', '1-1', '2-0', '3-5']) await t.ok(['xadd', 'r', id, 'k', id]);
    await reply(['xrange', 'r', '(1-0', '2'], [['1-1', ['k', '1-1']], ['2-0', ['k', '2-0']]]);
    await reply(['xrevrange', 'r', '+', '(2-0', 'COUNT', '1'], [['3-5', ['k', '3-5']]]);
    await reply(['xrange', 'r', '1', '1'], [['1-0', ['k', '1-0']], ['1-1', ['k', '1-1']]]);
    await reply(['xrange', 'r', '-', '+', 'COUNT', '0'], null);
    await reply(['xrange', 'nokey', '-', '+'], []);
    await fails(['xrange', 'r', '(18446744073709551615-18446744073709551615', '+'], 'ERR invalid start ID for the interval');
    await fails(['xrange', 'r', '-', '(0-0'], 'ERR invalid end ID for the interval');
    await fails(['xrange', 'r', '(-', '+'], 'ERR Invalid stream ID specified as stream command argument');
    await fails(['xrange', 'r', '-', '+', 'COUNT', 'x'], 'ERR value is not an integer or out of range');
    await fails(['xrange', 'r', '-', '+', 'junk'], 'ERR syntax error');
  });

  it('XDEL and XSETID', async () => {
    for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', 'd', id, 'k', 'v']);
    await reply(['xdel', 'd', '2-0', '9-0'], 1);
    await reply(['xdel', 'nokey', 'x'], 0);
    await fails(['xdel', 'd', 'x'], 'ERR Invalid stream ID specified as stream command argument');
    await reply(['xsetid', 'd', '10-0', 'ENTRIESADDED', '10', 'MAXDELETEDID', '5-0'], 'OK');
    await reply(['xadd', 'd', '10-*', 'k', 'v'], '10-1');
    await fails(['xsetid', 'd', '1-1'], 'ERR The ID specified in XSETID is smaller than the target stream top item');
    await fails(['xsetid', 'd', '20-0', 'MAXDELETEDID', '30-0'], 'ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id');
    await fails(['xsetid', 'd', '20-0', 'ENTRIESADDED', '-1'], 'ERR entries_added must be positive');
    await fails(['xsetid', 'd', '20-0', 'ENTRIESADDED', '1'], 'ERR The entries_added specified in XSETID is smaller than the target stream length');
    await fails(['xsetid', 'nokey', '1-1'], 'ERR no such key');
  });

  it('XREAD: $, COUNT, several streams, errors', async () => {
    await t.ok(['xadd', '{r}1', '1-0', 'a', '1']);
    await t.ok(['xadd', '{r}2', '1-0', 'b', '1']);
    await t.ok(['xadd', '{r}2', '2-0', 'b', '2']);
    await reply(['xread', 'COUNT', '1', 'STREAMS', '{r}1', '{r}2', '0', '1-0'], [['{r}1', [['1-0', ['a', '1']]]], ['{r}2', [['2-0', ['b', '2']]]]]);
    await reply(['xread', 'STREAMS', '{r}1', '$'], null);
    await fails(['xread', 'STREAMS', '{r}1', '{r}2', '0'], "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.");
    await fails(['xread', 'BLOCK', '-1', 'STREAMS', '{r}1', '0'], 'ERR timeout is negative');
    await fails(['xread', 'BLOCK', 'x', 'STREAMS', '{r}1', '0'], 'ERR timeout is not an integer or out of range');
    await fails(['xread', 'GROUP', 'g', 'c', 'STREAMS', '{r}1', '0'], 'ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.');
    await fails(['xread', 'STREAMS', '{r}1', '>'], 'ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.');
  });

  it('XREAD BLOCK waits for an XADD, times out with nil, and does not wait in a pipeline', async () => {
    await t.ok(['xadd', '{b}1', '1-0', 'a', '1']);
    // Explicit ids: the answer is the same whether the XADD lands before or after the read blocks.
    const blocked = t.command(['xread', 'BLOCK', '0', 'STREAMS', '{b}1', '{b}2', '1-0', '0-0']);
    await t.ok(['xadd', '{b}2', '5-0', 'x', 'y']);
    assert.deepEqual((await blocked).body, { result: [['{b}2', [['5-0', ['x', 'y']]]]] });
    // '$' is fixed when the read blocks: woken, it answers only entries added after that.
    let done = false;
    const dollar = t.command(['xread', 'BLOCK', '0', 'STREAMS', '{b}1', '$']).finally(() => (done = true));
    for (let i = 2; !done && i < 10000; i++) await t.ok(['xadd', '{b}1', `${i}-0`, 'n', String(i)]);
    const [[key, entries]] = (await dollar).body.result;
    assert.equal(key, '{b}1');
    assert.equal(entries.length, 1);
    assert.notEqual(entries[0][0], '1-0');
    // BLOCK 0 waits at most kv.maxBlockMs (2000 here), then answers as a timeout.
    await reply(['xread', 'BLOCK', '0', 'STREAMS', '{b}1', '$'], null);
    await reply(['xread', 'BLOCK', '10', 'STREAMS', '{b}1', '$'], null);
    const res = await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['xread', 'BLOCK', '0', 'STREAMS', '{b}1', '$'], ['xlen', '{b}9']]) });
    assert.deepEqual(await res.json(), [{ result: null }, { result: 0 }]);
  });

  it('XREADGROUP BLOCK is served by a later XADD', async () => {
    await t.ok(['xgroup', 'CREATE', 'bg', 'g', '$', 'MKSTREAM']);
    const blocked = t.command(['xreadgroup', 'GROUP', 'g', 'c', 'BLOCK', '0', 'STREAMS', 'bg', '>']);
    await t.ok(['xadd', 'bg', '3-0', 'k', 'v']);
    assert.deepEqual((await blocked).body, { result: [['bg', [['3-0', ['k', 'v']]]]] });
    await reply(['xpending', 'bg', 'g'], [1, '3-0', '3-0', [['c', '1']]]);
  });

  it('two blocked XREADGROUPs each get their own entry', async () => {
    await t.ok(['xgroup', 'CREATE', 'two', 'g', '$', 'MKSTREAM']);
    const read = (c: string) => t.command(['xreadgroup', 'GROUP', 'g', c, 'COUNT', '1', 'BLOCK', '0', 'STREAMS', 'two', '>']);
    const [a, b] = [read('c1'), read('c2')];
    await t.ok(['xadd', 'two', '1-0', 'k', '1']);
    await t.ok(['xadd', 'two', '2-0', 'k', '2']);
    const got = [(await a).body.result[0][1][0][0], (await b).body.result[0][1][0][0]].sort();
    assert.deepEqual(got, ['1-0', '2-0']);
  });

  it('XGROUP subcommands and their errors', async () => {
    await t.ok(['xadd', 'gs', '1-0', 'a', '1']);
    await reply(['xgroup', 'CREATE', 'gs', 'g', '$'], 'OK');
    await fails(['xgroup', 'CREATE', 'gs', 'g', '$'], 'BUSYGROUP Consumer Group name already exists');
    await fails(['xgroup', 'CREATE', 'nokey', 'g', '$'], 'ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.');
    await fails(['xgroup', 'CREATE', 'gs', 'g2', '$', 'ENTRIESREAD', '-5'], 'ERR value for ENTRIESREAD must be positive or -1');
    await fails(['xgroup', 'CREATE', 'gs', 'g2', '$', 'junk'], "ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.");
    await fails(['xgroup', 'SETID', 'gs', 'nog', '$'], "NOGROUP No such consumer group 'nog' for key name 'gs'");
    await fails(['xgroup', 'foo', 'gs'], "ERR unknown subcommand 'foo'. Try XGROUP HELP.");
    await reply(['xgroup', 'CREATECONSUMER', 'gs', 'g', 'c'], 1);
    await reply(['xgroup', 'CREATECONSUMER', 'gs', 'g', 'c'], 0);
    await reply(['xgroup', 'SETID', 'gs', 'g', '0', 'ENTRIESREAD', '0'], 'OK');
    await reply(['xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 'gs', '>'], [['gs', [['1-0', ['a', '1']]]]]);
    await reply(['xgroup', 'DELCONSUMER', 'gs', 'g', 'c'], 1);
    await reply(['xgroup', 'DESTROY', 'gs', 'g'], 1);
    await reply(['xgroup', 'DESTROY', 'gs', 'g'], 0);
    assert.equal(((await t.ok(['xgroup', 'HELP'])) as string[])[0], 'XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:');
  });

  it('XREADGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM', async () => {
    for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', 'q', id, 'k', id]);
    await t.ok(['xgroup', 'CREATE', 'q', 'g', '0']);
    await reply(['xreadgroup', 'GROUP', 'g', 'alice', 'COUNT', '2', 'STREAMS', 'q', '>'], [['q', [['1-0', ['k', '1-0']], ['2-0', ['k', '2-0']]]]]);
    await reply(['xreadgroup', 'GROUP', 'g', 'bob', 'NOACK', 'STREAMS', 'q', '>'], [['q', [['3-0', ['k', '3-0']]]]]);
    await reply(['xreadgroup', 'GROUP', 'g', 'alice', 'STREAMS', 'q', '0'], [['q', [['1-0', ['k', '1-0']], ['2-0', ['k', '2-0']]]]]);
    await reply(['xreadgroup', 'GROUP', 'g', 'carol', 'STREAMS', 'q', '>'], null);
    await reply(['xpending', 'q', 'g'], [2, '1-0', '2-0', [['alice', '2']]]);
    const extended = (await t.ok(['xpending', 'q', 'g', '-', '+', '10', 'alice'])) as unknown[][];
    assert.deepEqual(extended.map((e) => [e[0], e[1], e[3]]), [['1-0', 'alice', 2], ['2-0', 'alice', 2]]);
    await reply(['xpending', 'q', 'g', 'IDLE', '100000', '-', '+', '10'], []);
    await reply(['xclaim', 'q', 'g', 'bob', '0', '1-0', 'JUSTID'], ['1-0']);
    await reply(['xclaim', 'q', 'g', 'bob', '0', '2-0', 'RETRYCOUNT', '7'], [['2-0', ['k', '2-0']]]);
    await reply(['xdel', 'q', '2-0'], 1);
    await reply(['xautoclaim', 'q', 'g', 'carol', '0', '0', 'COUNT', '5'], ['0-0', [['1-0', ['k', '1-0']]], ['2-0']]);
    await reply(['xack', 'q', 'g', '1-0', '1-0'], 1);
    await reply(['xack', 'q', 'nog', '1-0'], 0);
    await reply(['xpending', 'q', 'g'], [0, null, null, null]);
    await fails(['xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 'q', '$'], 'ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.');
    await fails(['xreadgroup', 'GROUP', 'nog', 'c', 'STREAMS', 'q', '>'], "NOGROUP No such key 'q' or consumer group 'nog' in XREADGROUP with GROUP option");
    await fails(['xpending', 'q', 'nog'], "NOGROUP No such key 'q' or consumer group 'nog'");
    await fails(['xpending', 'q', 'g', 'x'], 'ERR syntax error');
    await fails(['xclaim', 'q', 'g', 'c', 'x', '1-1'], 'ERR Invalid min-idle-time argument for XCLAIM');
    await fails(['xclaim', 'q', 'g', 'c', '0', '1-1', 'IDLE', 'x'], 'ERR Invalid IDLE option argument for XCLAIM');
    await fails(['xclaim', 'q', 'g', 'c', '0', '1-1', 'TIME', 'x'], 'ERR Invalid TIME option argument for XCLAIM');
    await fails(['xclaim', 'q', 'g', 'c', '0', '1-1', 'RETRYCOUNT', 'x'], 'ERR Invalid RETRYCOUNT option argument for XCLAIM');
    await fails(['xclaim', 'q', 'g', 'c', '0', '1-1', 'junk'], "ERR Unrecognized XCLAIM option 'junk'");
    await fails(['xautoclaim', 'q', 'g', 'c', '0', '0', 'COUNT', '0'], 'ERR COUNT must be > 0');
    await fails(['xautoclaim', 'q', 'g', 'c', 'x', '0'], 'ERR Invalid min-idle-time argument for XAUTOCLAIM');
    await fails(['xautoclaim', 'q', 'g', 'c', '0', '0', 'junk'], 'ERR syntax error');
  });

  it('XINFO STREAM (FULL), GROUPS, CONSUMERS', async () => {
    await t.ok(['xadd', 'i', '1-0', 'a', '1']);
    await t.ok(['xadd', 'i', '2-0', 'b', '2']);
    await t.ok(['xgroup', 'CREATE', 'i', 'g', '0']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'i', '>']);
    const info = (await t.ok(['xinfo', 'stream', 'i'])) as unknown[];
    assert.deepEqual(info.slice(0, 2), ['length', 2]);
    assert.deepEqual(info.slice(6), [
      'last-generated-id', '2-0', 'max-deleted-entry-id', '0-0', 'entries-added', 2, 'recorded-first-entry-id', '1-0',
      'groups', 1, 'first-entry', ['1-0', ['a', '1']], 'last-entry', ['2-0', ['b', '2']],
    ]);
    const full = (await t.ok(['xinfo', 'stream', 'i', 'FULL', 'COUNT', '1'])) as unknown[];
    assert.deepEqual(full.slice(14, 16), ['entries', [['1-0', ['a', '1']]]]);
    const group = (full[17] as unknown[][])[0];
    assert.deepEqual(group.slice(0, 10), ['name', 'g', 'last-delivered-id', '1-0', 'entries-read', 1, 'lag', 1, 'pel-count', 1]);
    await reply(['xinfo', 'groups', 'i'], [['name', 'g', 'consumers', 1, 'pending', 1, 'last-delivered-id', '1-0', 'entries-read', 1, 'lag', 1]]);
    const consumers = (await t.ok(['xinfo', 'consumers', 'i', 'g'])) as unknown[][];
    assert.deepEqual(consumers[0].slice(0, 4), ['name', 'c', 'pending', 1]);
    await fails(['xinfo', 'stream', 'nokey'], 'ERR no such key');
    await fails(['xinfo', 'consumers', 'i', 'nog'], "NOGROUP No such consumer group 'nog' for key name 'i'");
    await fails(['xinfo', 'stream', 'i', 'junk'], "ERR unknown subcommand or wrong number of arguments for 'stream'. Try XINFO HELP.");
  });

  embeddedOnly('Redis 7.0 lacks XDELEX and XACKDEL (Redis 8.2)')('XDELEX and XACKDEL (Redis 8.2 docs)', async () => {
    for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', 'x', id, 'k', 'v']);
    await t.ok(['xgroup', 'CREATE', 'x', 'g', '0']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '2', 'STREAMS', 'x', '>']);
    // 1-0 and 2-0 are pending, 3-0 not delivered yet: ACKED keeps all three.
    await reply(['xdelex', 'x', 'ACKED', 'IDS', '3', '1-0', '3-0', '9-0'], [2, 2, -1]);
    await reply(['xackdel', 'x', 'g', 'ACKED', 'IDS', '1', '1-0'], [1]);
    await reply(['xackdel', 'x', 'g', 'IDS', '2', '1-0', '2-0'], [-1, 1]);
    await reply(['xdelex', 'x', 'DELREF', 'IDS', '1', '3-0'], [1]);
    await reply(['xlen', 'x'], 0);
    await reply(['xpending', 'x', 'g'], [0, null, null, null]);
    await fails(['xdelex', 'x', 'IDS', '0', '1-0'], 'ERR Number of IDs must be a positive integer');
    await fails(['xdelex', 'x', 'IDS', '3', '1-0'], 'ERR The `numids` parameter must match the number of arguments');
    await fails(['xackdel', 'x', 'g', 'BOGUS', 'IDS', '1', '1-1'], 'ERR syntax error');
  });

  // The differential notification runs cover the rest against Redis 7.0, which lacks these two.
  embeddedOnly('Redis 7.0 lacks XDELEX and XACKDEL (Redis 8.2)')('XDELEX and XACKDEL publish xdel only when an entry goes (Redis 8.2)', async () => {
    const channel = '__keyspace@0__:ev';
    await t.ok(['config', 'set', 'notify-keyspace-events', 'Kt']);
    const events = await openEvents(t, `/subscribe/${encodeURIComponent(channel)}`);
    try {
      assert.equal(await events.next(), `subscribe,${channel},1`);
      for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', 'ev', id, 'k', 'v']);
      await t.ok(['xgroup', 'CREATE', 'ev', 'g', '0']);
      await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '2', 'STREAMS', 'ev', '>']);
      await reply(['xdelex', 'ev', 'ACKED', 'IDS', '2', '1-0', '9-0'], [2, -1]); // nothing goes
      await reply(['xackdel', 'ev', 'g', 'IDS', '1', '9-0'], [-1]);
      await reply(['xackdel', 'ev', 'g', 'ACKED', 'IDS', '1', '1-0'], [1]); // xdel
      await reply(['xdelex', 'ev', 'IDS', '2', '2-0', '3-0'], [1, 1]); // one xdel for both
      await reply(['xackdel', 'ev', 'g', 'IDS', '1', '2-0'], [1]); // acknowledged only: 2-0 was gone
      await t.ok(['publish', channel, 'end']);
      const seen: string[] = [];
      for (let e = await events.next(); e !== `message,${channel},end`; e = await events.next()) seen.push(e.split(',')[2]);
      assert.deepEqual(seen, ['xadd', 'xadd', 'xadd', 'xgroup-create', 'xgroup-createconsumer', 'xdel', 'xdel']);
    } finally {
      events.close();
      await t.ok(['config', 'set', 'notify-keyspace-events', '']);
    }
  });

  const refs = embeddedOnly('Redis 7.0 lacks XADD and XTRIM KEEPREF, DELREF and ACKED (Redis 8.2)');

  refs('XTRIM KEEPREF keeps the trimmed entries pending, DELREF removes them from every group', async () => {
    for (const key of ['kr', 'dr']) {
      for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', key, id, 'k', 'v']);
      await t.ok(['xgroup', 'CREATE', key, 'g1', '0']);
      await t.ok(['xgroup', 'CREATE', key, 'g2', '0']);
      await t.ok(['xreadgroup', 'GROUP', 'g1', 'c', 'STREAMS', key, '>']);
      await t.ok(['xreadgroup', 'GROUP', 'g2', 'c', 'COUNT', '2', 'STREAMS', key, '>']);
    }
    await reply(['xtrim', 'kr', 'MAXLEN', '1', 'KEEPREF'], 2);
    await reply(['xrange', 'kr', '-', '+'], [['3-0', ['k', 'v']]]);
    await reply(['xpending', 'kr', 'g1'], [3, '1-0', '3-0', [['c', '3']]]);
    await reply(['xpending', 'kr', 'g2'], [2, '1-0', '2-0', [['c', '2']]]);
    await reply(['xtrim', 'dr', 'MAXLEN', '1', 'DELREF'], 2);
    await reply(['xrange', 'dr', '-', '+'], [['3-0', ['k', 'v']]]);
    await reply(['xpending', 'dr', 'g1'], [1, '3-0', '3-0', [['c', '1']]]);
    await reply(['xpending', 'dr', 'g2'], [0, null, null, null]);
    const consumers = (await t.ok(['xinfo', 'consumers', 'dr', 'g1'])) as unknown[][];
    assert.deepEqual(consumers[0].slice(0, 4), ['name', 'c', 'pending', 1]);
    // Only the entries trimmed lose their references: 3-0 stays pending in g1.
    await reply(['xtrim', 'dr', 'MINID', '3', 'DELREF'], 0);
    assert.equal(((await t.ok(['xpending', 'dr', 'g1'])) as unknown[])[0], 1);
  });

  refs('XTRIM ACKED passes over the entries a group still has pending or has not been given', async () => {
    for (let i = 1; i <= 6; i++) await t.ok(['xadd', 'ak', `${i}-0`, 'n', String(i)]);
    await t.ok(['xgroup', 'CREATE', 'ak', 'g1', '0']);
    await t.ok(['xgroup', 'CREATE', 'ak', 'g2', '0']);
    await t.ok(['xreadgroup', 'GROUP', 'g1', 'c', 'COUNT', '4', 'STREAMS', 'ak', '>']);
    await reply(['xack', 'ak', 'g1', '1-0', '3-0'], 2);
    await t.ok(['xreadgroup', 'GROUP', 'g2', 'c', 'COUNT', '5', 'NOACK', 'STREAMS', 'ak', '>']);
    // 2-0 and 4-0 are pending in g1; 5-0 is past g1's last delivered id, 6-0 past both groups'.
    // MAXLEN 3 would take four; only 1-0 and 3-0 may go, and the stream stays longer than 3.
    await reply(['xtrim', 'ak', 'MAXLEN', '3', 'ACKED'], 2);
    await reply(['xrange', 'ak', '-', '+'], [['2-0', ['n', '2']], ['4-0', ['n', '4']], ['5-0', ['n', '5']], ['6-0', ['n', '6']]]);
    await reply(['xtrim', 'ak', 'MINID', '9', 'ACKED'], 0);
    await reply(['xpending', 'ak', 'g1'], [2, '2-0', '4-0', [['c', '2']]]);
    await reply(['xack', 'ak', 'g1', '4-0'], 1);
    await reply(['xtrim', 'ak', 'ACKED', 'MINID', '9'], 1);
    await reply(['xrange', 'ak', '-', '+'], [['2-0', ['n', '2']], ['5-0', ['n', '5']], ['6-0', ['n', '6']]]);
    // Delivered everywhere and acknowledged: nothing holds 5-0 back once g1 has read it.
    await t.ok(['xreadgroup', 'GROUP', 'g1', 'c', 'COUNT', '1', 'NOACK', 'STREAMS', 'ak', '>']);
    await reply(['xack', 'ak', 'g1', '2-0'], 1);
    await reply(['xtrim', 'ak', 'MINID', '~', '9', 'LIMIT', '1', 'ACKED'], 1);
    await reply(['xtrim', 'ak', 'MAXLEN', '0', 'ACKED'], 1);
    await reply(['xrange', 'ak', '-', '+'], [['6-0', ['n', '6']]]);
    // Trimming is not deletion: the max deleted id stays 0-0, as after any trim.
    const info = (await t.ok(['xinfo', 'stream', 'ak'])) as unknown[];
    assert.deepEqual(info.slice(8, 10), ['max-deleted-entry-id', '0-0']);
    // Without groups ACKED holds nothing back.
    for (const id of ['1-0', '2-0']) await t.ok(['xadd', 'nog', id, 'k', 'v']);
    await reply(['xtrim', 'nog', 'MAXLEN', '0', 'ACKED'], 2);
  });

  refs('XADD trims with KEEPREF, DELREF or ACKED, given anywhere before the id', async () => {
    assert.match((await t.ok(['xadd', 'xa', 'KEEPREF', '*', 'f', 'v'])) as string, /^\d{13}-0$/);
    await reply(['xadd', 'xa:none', 'NOMKSTREAM', 'ACKED', '*', 'f', 'v'], null);
    for (const id of ['1-0', '2-0', '3-0']) await t.ok(['xadd', 'xk', id, 'k', 'v']);
    await t.ok(['xgroup', 'CREATE', 'xk', 'g', '0']);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 'xk', '>']);
    await reply(['xadd', 'xk', 'MAXLEN', '3', 'KEEPREF', '4-0', 'k', 'v'], '4-0');
    await reply(['xpending', 'xk', 'g'], [3, '1-0', '3-0', [['c', '3']]]);
    await reply(['xadd', 'xk', 'DELREF', 'MINID', '=', '3', '5-0', 'k', 'v'], '5-0');
    // 1-0 went with KEEPREF and stays pending; 2-0 went with DELREF and does not.
    await reply(['xpending', 'xk', 'g'], [2, '1-0', '3-0', [['c', '2']]]);
    await reply(['xrange', 'xk', '-', '+'], [['3-0', ['k', 'v']], ['4-0', ['k', 'v']], ['5-0', ['k', 'v']]]);
    // 3-0 is pending and 4-0 on are not delivered: ACKED trims nothing, the new entry included.
    await reply(['xadd', 'xk', 'ACKED', 'MAXLEN', '1', '6-0', 'k', 'v'], '6-0');
    await reply(['xlen', 'xk'], 4);
    await reply(['xack', 'xk', 'g', '3-0'], 1);
    await t.ok(['xreadgroup', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xk', '>']);
    await reply(['xadd', 'xk', 'MAXLEN', '~', '1', 'LIMIT', '2', 'ACKED', '7-0', 'k', 'v'], '7-0');
    await reply(['xrange', 'xk', '-', '+'], [['5-0', ['k', 'v']], ['6-0', ['k', 'v']], ['7-0', ['k', 'v']]]);
    // After the id, the words are field names.
    await reply(['xadd', 'xk', '8-0', 'ACKED', 'v'], '8-0');
    await reply(['xrange', 'xk', '8-0', '8-0'], [['8-0', ['ACKED', 'v']]]);
  });

  refs('XADD and XTRIM refuse misplaced reference options as Redis 8.2 does', async () => {
    await t.ok(['xadd', 'xe', '1-0', 'k', 'v']);
    await fails(['xtrim', 'xe', 'KEEPREF', 'LIMIT', '1'], 'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy');
    await fails(['xtrim', 'xe', 'ACKED', 'LIMIT', '0'], 'ERR syntax error, XTRIM must be called with a trimming strategy');
    await fails(['xtrim', 'xe', 'MAXLEN', '0', 'ACKED', 'junk'], 'ERR syntax error');
    await fails(['xtrim', 'xe', 'ACKEDX', 'MAXLEN', '0'], 'ERR syntax error');
    await fails(['xtrim', 'xe', 'MAXLEN', 'ACKED'], 'ERR value is not an integer or out of range');
    await fails(['xtrim', 'xe', 'MAXLEN', '0', 'LIMIT', '1', 'DELREF'], 'ERR syntax error, LIMIT cannot be used without the special ~ option');
    await fails(['xadd', 'xe', 'MAXLEN', '0', 'DELREFS', '*', 'f', 'v'], 'ERR Invalid stream ID specified as stream command argument');
    await fails(['xadd', 'xe', 'ACKED', '*', 'f'], "ERR wrong number of arguments for 'xadd' command");
    await reply(['xlen', 'xe'], 1);
  });
});

describe('a blocked read when the server stops', () => {
  // The read would otherwise wait the default maxBlockMs (30 s): the limit catches a stop that waits for it.
  it('does not hold the stop up', { timeout: 20_000 }, async () => {
    const t = await startTestLarder();
    await t.ok(['xadd', 's', '1-0', 'a', '1']);
    const blocked = t.command(['xread', 'BLOCK', '0', 'STREAMS', 's', '$']).catch((e: unknown) => e);
    await t.ok(['xlen', 's']);
    await t.close();
    await blocked; // answered or cut off; either way it ended with the server
  });
});

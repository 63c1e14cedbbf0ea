// SORT and SORT_RO over HTTP, against a real Larder. Every expected reply and error text was
// taken from redis-server 7.0 given the same commands.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { embeddedOnly, notOnCluster, replies, startTestLarder, type TestLarder } from '../../support/larder.js';

const NOT_DOUBLE = "ERR One or more scores can't be converted into double";

describe('SORT and SORT_RO over HTTP', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
  });
  after(async () => {
    await t.close();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  const result = (argv: (string | number)[]) => t.ok(argv);
  const { reply, fails } = replies(() => t);

  it('is declared as Redis 7.0 declares it', () => {
    const sort = TABLE.get('sort')!;
    const ro = TABLE.get('sort_ro')!;
    assert.deepEqual([sort.arity, ro.arity], [-2, -2]);
    assert.deepEqual([...sort.categories].sort(), ['all', 'dangerous', 'list', 'set', 'slow', 'sortedset', 'write']);
    assert.deepEqual([...ro.categories].sort(), ['all', 'dangerous', 'list', 'read', 'set', 'slow', 'sortedset']);
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: COMMAND INFO')('COMMAND INFO shows the categories in the order of Redis 7.0', async () => {
    await reply(
      ['command', 'info', 'sort', 'sort_ro'],
      [
        ['sort', -2, ['write', 'movablekeys'], 1, 1, 1, ['@write', '@set', '@sortedset', '@list', '@slow', '@dangerous'], [], [], []],
        ['sort_ro', -2, ['readonly'], 1, 1, 1, ['@read', '@set', '@sortedset', '@list', '@slow', '@dangerous'], [], [], []],
      ],
    );
  });

  it('sorts a list numerically, with DESC and LIMIT', async () => {
    await reply(['rpush', 'l', '3', '1', '2', '10', '-5'], 5);
    await reply(['sort', 'l'], ['-5', '1', '2', '3', '10']);
    await reply(['sort', 'l', 'desc'], ['10', '3', '2', '1', '-5']);
    await reply(['sort', 'l', 'limit', '1', '2'], ['1', '2']);
    await reply(['sort', 'l', 'limit', '-5', '2'], ['-5', '1']);
    await reply(['sort', 'l', 'limit', '10', '2'], []);
    await reply(['sort', 'l', 'limit', '0', '-1'], ['-5', '1', '2', '3', '10']);
    await reply(['sort', 'l', 'limit', '2', '0'], []);
    await reply(['sort_ro', 'l', 'desc', 'limit', '0', '2'], ['10', '3']);
    await reply(['sort', 'nosuch'], []);
  });

  it('reads numbers as C strtod does and refuses what is not a double', async () => {
    await reply(['rpush', 'n', '1', '2', 'inf', '-inf', '0x10', ' 4'], 6);
    await reply(['sort', 'n'], ['-inf', '1', '2', ' 4', '0x10', 'inf']);
    await reply(['rpush', 'bad', '1', 'x'], 2);
    await fails(['sort', 'bad'], NOT_DOUBLE);
    await reply(['sort', 'bad', 'alpha'], ['1', 'x']);
    await reply(['rpush', 'nanl', 'nan'], 1);
    await fails(['sort', 'nanl'], NOT_DOUBLE);
    await reply(['rpush', 'big', '1e400'], 1);
    await fails(['sort', 'big'], NOT_DOUBLE);
  });

  it('sorts by bytes with ALPHA', async () => {
    await reply(['rpush', 't', 'b', 'a', 'C', '10', '2'], 5);
    await fails(['sort', 't'], NOT_DOUBLE);
    await reply(['sort', 't', 'alpha'], ['10', '2', 'C', 'a', 'b']);
    await reply(['sort', 't', 'alpha', 'desc', 'limit', '0', '3'], ['b', 'a', 'C']);
  });

  embeddedOnly('relies on keys the skipped COMMAND INFO test leaves')('sorts sets and sorted sets, and keeps a sorted set in order BY nosort', async () => {
    await reply(['sadd', 's', '5', '3', '1'], 3);
    await reply(['sort', 's'], ['1', '3', '5']);
    await reply(['sort', 's', 'by', 'nosort'], ['1', '3', '5']);
    await reply(['sadd', 'ts', 'c', 'a', 'b'], 3);
    await reply(['sort', 'ts', 'alpha'], ['a', 'b', 'c']);
    await reply(['zadd', 'z', '1', 'c', '2', 'a', '3', 'b'], 3);
    await reply(['sort', 'z', 'alpha'], ['a', 'b', 'c']);
    await reply(['sort', 'z', 'by', 'nosort'], ['c', 'a', 'b']);
    await reply(['sort', 'z', 'by', 'nosort', 'desc'], ['b', 'a', 'c']);
    await reply(['sort', 'z', 'by', 'nosort', 'limit', '1', '1'], ['a']);
    await reply(['sort', 'z', 'by', 'nosort', 'desc', 'limit', '1', '5'], ['a', 'c']);
  });

  notOnCluster('Redis Cluster refuses BY and GET patterns, which name keys of any slot')('weighs BY strings and hash fields and looks up GET patterns', async () => {
    await reply(['del', 'l'], 1);
    await reply(['rpush', 'l', '3', '1', '2', '10', '-5'], 5);
    await reply(['mset', 'w_3', '30', 'w_1', '10', 'w_2', '5', 'w_10', '1'], 'OK');
    for (const [k, v] of [['h_3', 'c'], ['h_1', 'a'], ['h_2', 'b']]) await reply(['hset', k, 'f', v], 1);
    await reply(['sort', 'l', 'by', 'w_*'], ['-5', '10', '2', '1', '3']);
    await reply(
      ['sort', 'l', 'by', 'w_*', 'get', '#', 'get', 'w_*', 'get', 'h_*->f'],
      ['-5', null, null, '10', '1', null, '2', '5', 'b', '1', '10', 'a', '3', '30', 'c'],
    );
    // Missing weights sort first in ALPHA mode, in the list's order.
    await reply(['sort', 'l', 'by', 'h_*->f', 'alpha'], ['10', '-5', '1', '2', '3']);
    await reply(['sort', 'l', 'by', 'h_*->f', 'alpha', 'desc'], ['3', '2', '1', '10', '-5']);
    await fails(['sort', 'l', 'by', 'h_*->f'], NOT_DOUBLE);
    await reply(['sort', 'l', 'get', 'nosuch_*', 'get', 'h_*->g', 'get', 'w_'], Array(15).fill(null));
    await reply(['sort', 'l', 'by', 'nosort', 'get', '#'], ['3', '1', '2', '10', '-5']);
    await reply(['sort', 'l', 'by', 'nosort', 'desc', 'limit', '1', '2'], ['10', '2']);
  });

  embeddedOnly('relies on keys the test before it makes')('STOREs a list, replacing the destination and its TTL; an empty result deletes it', async () => {
    await reply(['sort', 'ts', 'alpha', 'store', 'dst'], 3);
    await reply(['lrange', 'dst', 0, -1], ['a', 'b', 'c']);
    await reply(['sort', 'l', 'by', 'w_*', 'store', 'dst'], 5);
    await reply(['lrange', 'dst', 0, -1], ['-5', '10', '2', '1', '3']);
    await reply(['sort', 'l', 'get', 'h_*->f', 'store', 'dst'], 5);
    await reply(['lrange', 'dst', 0, -1], ['', 'a', 'b', 'c', '']);
    await reply(['set', 'dst', 'x'], 'OK');
    await reply(['expire', 'dst', 100], 1);
    await reply(['sort', 'nosuch', 'store', 'dst'], 0);
    await reply(['exists', 'dst'], 0);
    await reply(['set', 'dst', 'x', 'ex', 100], 'OK');
    await reply(['sort', 'l', 'limit', '0', '2', 'store', 'dst'], 2);
    await reply(['ttl', 'dst'], -1);
    await reply(['lrange', 'dst', 0, -1], ['-5', '1']);
  });

  it('answers the errors Redis answers', async () => {
    await reply(['set', 'str', 'x'], 'OK');
    await fails(['sort', 'str'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
    await reply(['hset', 'hash', 'f', 'v'], 1);
    await fails(['sort', 'hash'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
    await fails(['sort', 'l', 'foo'], 'ERR syntax error');
    await fails(['sort', 'l', 'limit', '1'], 'ERR syntax error');
    await fails(['sort', 'l', 'limit', 'x', '1'], 'ERR value is not an integer or out of range');
    await fails(['sort', 'l', 'by'], 'ERR syntax error');
    await fails(['sort', 'l', 'store'], 'ERR syntax error');
    await fails(['sort_ro', 'l', 'store', 'dst'], 'ERR syntax error');
    await fails(['sort', 'str', 'foo'], 'ERR syntax error');
    await fails(['sort'], "ERR wrong number of arguments for 'sort' command");
  });

  // A remote Redis would check them against Larder's connection: Larder refuses them first.
  notOnCluster('Redis Cluster refuses BY and GET patterns, which name keys of any slot')('allows BY and GET patterns only to a user who may read every key', async () => {
    const token = async (name: string, ...rules: string[]) => {
      await reply(['acl', 'setuser', name, 'on', '>pw', '+@all', ...rules], 'OK');
      return (await result(['acl', 'resttoken', name, 'pw'])) as string;
    };
    const as = (tok: string, argv: string[]) => t.command(argv, { token: tok });
    const denied = (option: string) => ({ status: 400, body: { error: `ERR ${option} option of SORT denied due to insufficient ACL permissions.` } });
    const all = await token('sort-all', '~*');
    assert.deepEqual(await as(all, ['sort', 'l', 'by', 'w_*']), { status: 200, body: { result: ['-5', '10', '2', '1', '3'] } });
    const readAll = await token('sort-read', '%R~*');
    assert.deepEqual(await as(readAll, ['sort_ro', 'l', 'get', '#']), { status: 200, body: { result: ['-5', '1', '2', '3', '10'] } });
    const some = await token('sort-some', '~l*', '~w_*');
    assert.deepEqual(await as(some, ['sort', 'l', 'by', 'w_*']), denied('BY'));
    assert.deepEqual(await as(some, ['sort', 'l', 'get', '#']), denied('GET'));
    assert.deepEqual(await as(some, ['sort', 'l', 'get', 'w_*', 'by', 'w_*']), denied('GET'));
    assert.deepEqual(await as(some, ['sort', 'l', 'by', 'nosort']), { status: 200, body: { result: ['3', '1', '2', '10', '-5'] } });
    // Denied as it runs, as Redis does: in a transaction the error stands at its place, the rest runs.
    const multi = await t.request('/multi-exec', { method: 'POST', body: '[["incr","lcount"],["sort","l","by","w_*"],["incr","lcount"]]', token: some });
    assert.deepEqual(await multi.json(), [{ result: 1 }, { error: denied('BY').body.error }, { result: 2 }]);
  });

  embeddedOnly('restarts Larder on the same data dir')('keeps a STORE result across a restart (the log replays SORT as sent)', async () => {
    await reply(['rpush', 'r', '2', '1', '3'], 3);
    await reply(['mset', 'w_1', '3', 'w_2', '2', 'w_3', '1'], 'OK');
    await reply(['sort', 'r', 'by', 'w_*', 'get', '#', 'get', 'w_*', 'store', 'rdst'], 6);
    await reply(['sort', 'r', 'store', 'r'], 3);
    const dir = t.dataDir;
    await t.close(true);
    t = await startTestLarder({}, dir);
    await reply(['lrange', 'rdst', 0, -1], ['3', '1', '2', '2', '1', '3']);
    await reply(['lrange', 'r', 0, -1], ['1', '2', '3']);
  });
});

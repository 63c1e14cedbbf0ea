// The list family over HTTP, against a real Larder. Every expected reply and error text was
// taken from redis-server 7.0 given the same commands.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysOf } from '../../../src/kv/commands/spec.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const NOT_INTEGER = 'ERR value is not an integer or out of range';
const SYNTAX = 'ERR syntax error';
const arity = (name: string) => `ERR wrong number of arguments for '${name}' command`;

describe('list commands over HTTP', () => {
  const t = suiteLarder();

  const { reply, fails } = replies(() => t);
  const contents = async (key: string, expected: string[]) => reply(['lrange', key, 0, -1], expected);
  const resp2 = async (argv: string[]) =>
    (await t.request('', { method: 'POST', body: JSON.stringify(argv), headers: { 'upstash-response-format': 'resp2' } })).text();

  it('LPUSH and RPUSH add at either end and answer the new length', async () => {
    await reply(['rpush', 'p:l', 'a', 'b'], 2);
    await reply(['lpush', 'p:l', 'x', 'y'], 4);
    await reply(['RPUSH', 'p:l', 'z'], 5);
    await contents('p:l', ['y', 'x', 'a', 'b', 'z']);
    await reply(['type', 'p:l'], 'list');
    await reply(['object', 'encoding', 'p:l'], 'quicklist');
    await fails(['lpush', 'p:l'], arity('lpush'));
    await fails(['rpush', 'p:l'], arity('rpush'));
    await reply(['set', 'p:s', 'v'], 'OK');
    await fails(['lpush', 'p:s', 'a'], WRONGTYPE);
    await fails(['rpush', 'p:s', 'a'], WRONGTYPE);
  });

  it('LPUSHX and RPUSHX push only onto an existing list', async () => {
    await reply(['lpushx', 'x:l', 'a'], 0);
    await reply(['rpushx', 'x:l', 'a', 'b'], 0);
    await reply(['exists', 'x:l'], 0);
    await reply(['rpush', 'x:l', 'm'], 1);
    await reply(['lpushx', 'x:l', 'a', 'b'], 3);
    await reply(['rpushx', 'x:l', 'y', 'z'], 5);
    await contents('x:l', ['b', 'a', 'm', 'y', 'z']);
    await reply(['set', 'x:s', 'v'], 'OK');
    await fails(['lpushx', 'x:s', 'a'], WRONGTYPE);
    await fails(['rpushx', 'x:s', 'a'], WRONGTYPE);
    await fails(['lpushx', 'x:l'], arity('lpushx'));
  });

  it('LPOP and RPOP without a count answer one element or nil, and delete an emptied list', async () => {
    await reply(['lpop', 'o:none'], null);
    await reply(['rpush', 'o:l', 'a', 'b', 'c'], 3);
    await reply(['lpop', 'o:l'], 'a');
    await reply(['rpop', 'o:l'], 'c');
    await reply(['rpop', 'o:l'], 'b');
    await reply(['exists', 'o:l'], 0);
    await reply(['rpop', 'o:l'], null);
    await reply(['set', 'o:s', 'v'], 'OK');
    await fails(['lpop', 'o:s'], WRONGTYPE);
    await fails(['lpop', 'o:l', '1', '2'], arity('lpop'));
    await fails(['rpop', 'o:l', '1', '2'], arity('rpop'));
  });

  embeddedOnly('a null array reads as a null bulk string in resp2 (ioredis decodes both as null)')('LPOP and RPOP with a count: an array, null for a missing key, empty for 0', async () => {
    await reply(['rpush', 'c:l', 'a', 'b', 'c', 'd', 'e'], 5);
    await reply(['lpop', 'c:l', 2], ['a', 'b']);
    await reply(['rpop', 'c:l', '2'], ['e', 'd']);
    await reply(['lpop', 'c:l', 0], []);
    await reply(['rpop', 'c:l', '10'], ['c']);
    await reply(['exists', 'c:l'], 0);
    await reply(['lpop', 'c:l', 2], null);
    await reply(['lpop', 'c:l', 0], null);
    // RESP2 tells the two nils apart: a null array for a count, a null bulk string without.
    assert.equal(await resp2(['lpop', 'c:l', '2']), '*-1\r\n');
    assert.equal(await resp2(['lpop', 'c:l']), '$-1\r\n');
    const positive = 'ERR value is out of range, must be positive';
    await fails(['lpop', 'c:l', '-1'], positive);
    await fails(['rpop', 'c:l', 'x'], positive);
    await fails(['lpop', 'c:l', '9223372036854775808'], positive);
    await reply(['set', 'c:s', 'v'], 'OK');
    await fails(['lpop', 'c:s', 'x'], positive);
    await fails(['lpop', 'c:s', '1'], WRONGTYPE);
    await fails(['rpop', 'c:s', '0'], WRONGTYPE);
  });

  it('LLEN', async () => {
    await reply(['llen', 'n:none'], 0);
    await reply(['rpush', 'n:l', 'a', 'b', 'c'], 3);
    await reply(['llen', 'n:l'], 3);
    await reply(['set', 'n:s', 'v'], 'OK');
    await fails(['llen', 'n:s'], WRONGTYPE);
    await fails(['llen', 'n:l', 'x'], arity('llen'));
  });

  it('LRANGE clamps its range as Redis does', async () => {
    await reply(['rpush', 'r:l', 'a', 'b', 'c', 'd', 'e'], 5);
    const cases: [string, string, string[]][] = [
      ['0', '-1', ['a', 'b', 'c', 'd', 'e']],
      ['1', '2', ['b', 'c']],
      ['-2', '-1', ['d', 'e']],
      ['-100', '1', ['a', 'b']],
      ['3', '100', ['d', 'e']],
      ['2', '1', []],
      ['5', '10', []],
      ['-1', '-2', []],
      ['0', '0', ['a']],
      ['-9223372036854775808', '9223372036854775807', ['a', 'b', 'c', 'd', 'e']],
    ];
    for (const [start, stop, expected] of cases) await reply(['lrange', 'r:l', start, stop], expected);
    await reply(['lrange', 'r:none', '0', '-1'], []);
    await fails(['lrange', 'r:none', 'x', '1'], NOT_INTEGER);
    await fails(['lrange', 'r:l', '0', '1.5'], NOT_INTEGER);
    await reply(['set', 'r:s', 'v'], 'OK');
    await fails(['lrange', 'r:s', '0', '1'], WRONGTYPE);
    // The indexes are checked before the key's type.
    await fails(['lrange', 'r:s', 'x', '1'], NOT_INTEGER);
    await fails(['lrange', 'r:l', '0'], arity('lrange'));
  });

  it('LINDEX', async () => {
    await reply(['rpush', 'i:l', 'a', 'b', 'c'], 3);
    await reply(['lindex', 'i:l', 0], 'a');
    await reply(['lindex', 'i:l', '-1'], 'c');
    await reply(['lindex', 'i:l', '-3'], 'a');
    await reply(['lindex', 'i:l', 3], null);
    await reply(['lindex', 'i:l', '-4'], null);
    await reply(['lindex', 'i:l', '9223372036854775807'], null);
    await fails(['lindex', 'i:l', 'x'], NOT_INTEGER);
    // The key is looked at before the index is parsed.
    await reply(['lindex', 'i:none', 'x'], null);
    await reply(['set', 'i:s', 'v'], 'OK');
    await fails(['lindex', 'i:s', 'x'], WRONGTYPE);
  });

  it('LSET', async () => {
    await reply(['rpush', 's:l', 'a', 'b', 'c'], 3);
    await reply(['lset', 's:l', 1, 'B'], 'OK');
    await reply(['lset', 's:l', '-1', 'C'], 'OK');
    await contents('s:l', ['a', 'B', 'C']);
    await fails(['lset', 's:l', 3, 'x'], 'ERR index out of range');
    await fails(['lset', 's:l', '-4', 'x'], 'ERR index out of range');
    await fails(['lset', 's:l', 'x', 'x'], NOT_INTEGER);
    await fails(['lset', 's:none', 0, 'x'], 'ERR no such key');
    await fails(['lset', 's:none', 'x', 'x'], 'ERR no such key');
    await reply(['exists', 's:none'], 0);
    await reply(['set', 's:s', 'v'], 'OK');
    await fails(['lset', 's:s', 'x', 'x'], WRONGTYPE);
  });

  it('LREM from the head, the tail, or everywhere', async () => {
    await reply(['rpush', 'm:l', 'a', 'b', 'a', 'c', 'a', 'b'], 6);
    await reply(['lrem', 'm:l', '-2', 'a'], 2);
    await contents('m:l', ['a', 'b', 'c', 'b']);
    await reply(['lrem', 'm:l', 1, 'b'], 1);
    await contents('m:l', ['a', 'c', 'b']);
    await reply(['lrem', 'm:l', 0, 'zz'], 0);
    await reply(['rpush', 'm:l', 'a', 'a'], 5);
    await reply(['lrem', 'm:l', 0, 'a'], 3);
    await contents('m:l', ['c', 'b']);
    await reply(['lrem', 'm:l', '-9223372036854775808', 'c'], 1);
    await reply(['lrem', 'm:l', '9223372036854775807', 'b'], 1);
    await reply(['exists', 'm:l'], 0);
    await reply(['lrem', 'm:l', 0, 'a'], 0);
    await fails(['lrem', 'm:l', 'x', 'a'], NOT_INTEGER);
    await reply(['set', 'm:s', 'v'], 'OK');
    await fails(['lrem', 'm:s', '1', 'a'], WRONGTYPE);
    await fails(['lrem', 'm:s', 'x', 'a'], NOT_INTEGER);
  });

  it('LTRIM keeps a range, and an empty range deletes the key', async () => {
    await reply(['rpush', 't:l', 'a', 'b', 'c', 'd', 'e'], 5);
    await reply(['ltrim', 't:l', 1, '-2'], 'OK');
    await contents('t:l', ['b', 'c', 'd']);
    await reply(['ltrim', 't:l', '-100', '100'], 'OK');
    await contents('t:l', ['b', 'c', 'd']);
    await reply(['ltrim', 't:l', 1, 1], 'OK');
    await contents('t:l', ['c']);
    await reply(['ltrim', 't:l', 1, 0], 'OK');
    await reply(['exists', 't:l'], 0);
    await reply(['ltrim', 't:none', 0, 1], 'OK');
    await reply(['exists', 't:none'], 0);
    await fails(['ltrim', 't:none', 0, 'x'], NOT_INTEGER);
    await reply(['set', 't:s', 'v'], 'OK');
    await fails(['ltrim', 't:s', 0, 1], WRONGTYPE);
    await fails(['ltrim', 't:s', 'x', 1], NOT_INTEGER);
  });

  it('LINSERT before or after the first pivot', async () => {
    await reply(['rpush', 'n:i', 'a', 'b', 'a'], 3);
    await reply(['linsert', 'n:i', 'before', 'a', 'x'], 4);
    await reply(['linsert', 'n:i', 'AFTER', 'a', 'y'], 5);
    await reply(['linsert', 'n:i', 'after', 'a', 'z'], 6);
    await contents('n:i', ['x', 'a', 'z', 'y', 'b', 'a']);
    await reply(['linsert', 'n:i', 'before', 'nope', 'q'], -1);
    await reply(['linsert', 'n:none', 'before', 'a', 'q'], 0);
    await reply(['exists', 'n:none'], 0);
    await fails(['linsert', 'n:i', 'middle', 'a', 'q'], SYNTAX);
    await reply(['set', 'n:s', 'v'], 'OK');
    await fails(['linsert', 'n:s', 'before', 'a', 'q'], WRONGTYPE);
    await fails(['linsert', 'n:s', 'middle', 'a', 'q'], SYNTAX);
    await fails(['linsert', 'n:i', 'before', 'a'], arity('linsert'));
  });

  it('LINSERT in the middle of a long list keeps every element in order', async () => {
    const items = Array.from({ length: 300 }, (_, i) => `e${i}`);
    await reply(['rpush', 'n:long', ...items], 300);
    await reply(['linsert', 'n:long', 'after', 'e100', 'mid1'], 301);
    await reply(['linsert', 'n:long', 'before', 'e250', 'mid2'], 302);
    await reply(['lpop', 'n:long', 50], items.slice(0, 50));
    await reply(['rpush', 'n:long', 'end'], 253);
    await contents('n:long', [...items.slice(50, 101), 'mid1', ...items.slice(101, 250), 'mid2', ...items.slice(250), 'end']);
  });

  it('LPOS finds indexes with RANK, COUNT and MAXLEN', async () => {
    await reply(['rpush', 'q:l', 'a', 'b', 'c', '1', '2', '3', 'c', 'c'], 8);
    await reply(['lpos', 'q:l', 'c'], 2);
    await reply(['lpos', 'q:l', 'z'], null);
    await reply(['lpos', 'q:l', 'c', 'rank', 2], 6);
    await reply(['lpos', 'q:l', 'c', 'RANK', '-1'], 7);
    await reply(['lpos', 'q:l', 'c', 'rank', '-3'], 2);
    await reply(['lpos', 'q:l', 'c', 'rank', '4'], null);
    await reply(['lpos', 'q:l', 'c', 'count', 2], [2, 6]);
    await reply(['lpos', 'q:l', 'c', 'count', 0], [2, 6, 7]);
    await reply(['lpos', 'q:l', 'c', 'count', 0, 'rank', '-1'], [7, 6, 2]);
    await reply(['lpos', 'q:l', 'c', 'rank', 2, 'count', 5], [6, 7]);
    await reply(['lpos', 'q:l', 'z', 'count', 1], []);
    await reply(['lpos', 'q:l', 'c', 'count', 0, 'maxlen', 7], [2, 6]);
    await reply(['lpos', 'q:l', 'c', 'maxlen', 2], null);
    await reply(['lpos', 'q:l', 'c', 'rank', '-1', 'maxlen', 1], 7);
    await reply(['lpos', 'q:l', 'c', 'count', 1, 'count', 0], [2, 6, 7]);
    // Redis negates a rank of INT64_MIN to itself: from the tail, and COUNT never fills up.
    await reply(['lpos', 'q:l', 'c', 'rank', '-9223372036854775808'], 7);
    await reply(['lpos', 'q:l', 'c', 'rank', '-9223372036854775808', 'count', 1], [7, 6, 2]);
    await reply(['lpos', 'q:l', 'c', 'rank', '-9223372036854775807'], null);
    await reply(['lpos', 'q:none', 'c'], null);
    await reply(['lpos', 'q:none', 'c', 'count', 1], []);
  });

  it('LPOS refuses bad options before looking at the key', async () => {
    await reply(['set', 'q:s', 'v'], 'OK');
    await fails(['lpos', 'q:s', 'c'], WRONGTYPE);
    const rankZero =
      "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list";
    await fails(['lpos', 'q:s', 'c', 'rank', 0], rankZero);
    await fails(['lpos', 'q:none', 'c', 'rank', 0], rankZero);
    await fails(['lpos', 'q:s', 'c', 'rank', 'x'], NOT_INTEGER);
    await fails(['lpos', 'q:s', 'c', 'rank', '9223372036854775808'], NOT_INTEGER);
    await fails(['lpos', 'q:s', 'c', 'count', '-1'], "ERR COUNT can't be negative");
    await fails(['lpos', 'q:s', 'c', 'count', 'x'], "ERR COUNT can't be negative");
    await fails(['lpos', 'q:s', 'c', 'maxlen', '-1'], "ERR MAXLEN can't be negative");
    await fails(['lpos', 'q:s', 'c', 'maxlen', 'x'], "ERR MAXLEN can't be negative");
    await fails(['lpos', 'q:s', 'c', 'rank'], SYNTAX);
    await fails(['lpos', 'q:s', 'c', 'foo', '1'], SYNTAX);
    await fails(['lpos', 'q:s'], arity('lpos'));
  });

  it('LMOVE and RPOPLPUSH move one element between lists, or within one', async () => {
    await reply(['rpush', '{t}v:a', '1', '2', '3'], 3);
    await reply(['lmove', '{t}v:a', '{t}v:b', 'left', 'right'], '1');
    await reply(['lmove', '{t}v:a', '{t}v:b', 'RIGHT', 'LEFT'], '3');
    await contents('{t}v:a', ['2']);
    await contents('{t}v:b', ['3', '1']);
    await reply(['rpoplpush', '{t}v:b', '{t}v:a'], '1');
    await contents('{t}v:a', ['1', '2']);
    await reply(['lmove', '{t}v:a', '{t}v:a', 'left', 'right'], '1');
    await contents('{t}v:a', ['2', '1']);
    await reply(['rpoplpush', '{t}v:a', '{t}v:a'], '1');
    await contents('{t}v:a', ['1', '2']);
    await reply(['lmove', '{t}v:b', '{t}v:c', 'left', 'left'], '3');
    await reply(['exists', '{t}v:b'], 0);
    await reply(['lmove', '{t}v:none', '{t}v:a', 'left', 'left'], null);
    await reply(['rpoplpush', '{t}v:none', '{t}v:a'], null);
    await reply(['set', '{t}v:s', 'v'], 'OK');
    // Both types are checked before anything moves.
    await fails(['lmove', '{t}v:a', '{t}v:s', 'left', 'left'], WRONGTYPE);
    await fails(['rpoplpush', '{t}v:s', '{t}v:a'], WRONGTYPE);
    await reply(['lmove', '{t}v:none', '{t}v:s', 'left', 'left'], null);
    await contents('{t}v:a', ['1', '2']);
    await fails(['lmove', '{t}v:a', '{t}v:b', 'up', 'left'], SYNTAX);
    await fails(['lmove', '{t}v:none', '{t}v:b', 'left', 'down'], SYNTAX);
    await fails(['lmove', '{t}v:a', '{t}v:b', 'left'], arity('lmove'));
    await fails(['rpoplpush', '{t}v:a'], arity('rpoplpush'));
  });

  embeddedOnly('a null array reads as a null bulk string in resp2 (ioredis decodes both as null)')('LMPOP pops from the first non-empty list', async () => {
    await reply(['rpush', 'u:b', 'a', 'b', 'c'], 3);
    await reply(['lmpop', 2, 'u:a', 'u:b', 'left'], ['u:b', ['a']]);
    await reply(['lmpop', '2', 'u:a', 'u:b', 'RIGHT', 'count', 5], ['u:b', ['c', 'b']]);
    await reply(['exists', 'u:b'], 0);
    await reply(['lmpop', 2, 'u:a', 'u:b', 'left'], null);
    assert.equal(await resp2(['lmpop', '1', 'u:a', 'left']), '*-1\r\n');
    await reply(['set', 'u:s', 'v'], 'OK');
    await reply(['rpush', 'u:c', 'x'], 1);
    await fails(['lmpop', 2, 'u:s', 'u:c', 'left'], WRONGTYPE);
    await reply(['lmpop', 2, 'u:c', 'u:s', 'left'], ['u:c', ['x']]);
  });

  it('LMPOP argument errors', async () => {
    const numkeys = 'ERR numkeys should be greater than 0';
    const count = 'ERR count should be greater than 0';
    // '{left}u:a' shares its hash slot with 'left', which a numkeys of 2 reads as a key too.
    await fails(['lmpop', 0, '{left}u:a', 'left'], numkeys);
    await fails(['lmpop', '-1', '{left}u:a', 'left'], numkeys);
    await fails(['lmpop', 'x', '{left}u:a', 'left'], numkeys);
    await fails(['lmpop', 2, '{left}u:a', 'left'], SYNTAX);
    await fails(['lmpop', '9223372036854775807', '{left}u:a', 'left'], SYNTAX);
    await fails(['lmpop', 1, '{left}u:a', 'up'], SYNTAX);
    await fails(['lmpop', 1, '{left}u:a', 'left', 'count', 0], count);
    await fails(['lmpop', 1, '{left}u:a', 'left', 'count', 'x'], count);
    await fails(['lmpop', 1, '{left}u:a', 'left', 'count'], SYNTAX);
    await fails(['lmpop', 1, '{left}u:a', 'left', 'count', 1, 'count', 1], SYNTAX);
    await fails(['lmpop', 1, '{left}u:a', 'left', 'foo'], SYNTAX);
    await fails(['lmpop', 1, '{left}u:a'], arity('lmpop'));
  });

  it('refuses the blocking commands as unsupported', async () => {
    const refused = (name: string) =>
      `ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`;
    await reply(['rpush', 'b:l', 'a'], 1);
    await fails(['blpop', 'b:l', 0], refused('blpop'));
    await fails(['BRPOP', 'b:l', 0], refused('brpop'));
    await fails(['brpoplpush', 'b:l', 'b:m', 0], refused('brpoplpush'));
    await fails(['blmove', 'b:l', 'b:m', 'left', 'right', 0], refused('blmove'));
    await fails(['blmpop', 0, 1, 'b:l', 'left'], refused('blmpop'));
    await contents('b:l', ['a']);
    // A transaction holding one is discarded as a whole.
    const res = await t.request('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([
        ['rpush', 'b:l', 'b'],
        ['blpop', 'b:l', 0],
      ]),
    });
    assert.equal(res.status, 400);
    await contents('b:l', ['a']);
  });

  it('keeps binary elements byte for byte', async () => {
    const b64 = (bytes: string) => Buffer.from(bytes, 'latin1').toString('base64');
    assert.equal((await t.request('/rpush/bin:l/%00%FF/%C3%A9')).status, 200);
    const res = await t.command(['lrange', 'bin:l', 0, -1], { headers: { 'upstash-encoding': 'base64' } });
    assert.deepEqual(res.body.result, [b64('\x00\xff'), b64('\xc3\xa9')]);
    await reply(['lpos', 'bin:l', 'é'], 1);
  });

  it('COPY, RENAME and DUMP/RESTORE carry lists', async () => {
    await reply(['rpush', '{t}g:l', 'a', '', '\u00e9'], 3);
    await reply(['copy', '{t}g:l', '{t}g:copy'], 1);
    await reply(['rpush', '{t}g:copy', 'd'], 4);
    await contents('{t}g:l', ['a', '', '\u00e9']);
    await reply(['rename', '{t}g:copy', '{t}g:moved'], 'OK');
    await contents('{t}g:moved', ['a', '', '\u00e9', 'd']);
    const dumped = await t.command(['dump', '{t}g:l'], { headers: { 'upstash-encoding': 'base64' } });
    const path = [...Buffer.from(dumped.body.result, 'base64')].map((b) => '%' + b.toString(16).padStart(2, '0')).join('');
    assert.equal((await t.request(`/restore/g:restored/0/${path}`)).status, 200);
    await contents('g:restored', ['a', '', '\u00e9']);
    await reply(['type', 'g:restored'], 'list');
    await reply(['object', 'encoding', 'g:restored'], 'quicklist');
  });

  it('read-only tokens may read lists but not write them', async () => {
    await reply(['rpush', 'ro:l', 'a'], 1);
    const token = t.readOnlyToken;
    assert.deepEqual((await t.command(['lrange', 'ro:l', 0, -1], { token })).body, { result: ['a'] });
    assert.deepEqual((await t.command(['lpos', 'ro:l', 'a'], { token })).body, { result: 0 });
    for (const argv of [['rpush', 'ro:l', 'b'], ['lpop', 'ro:l'], ['lmpop', 1, 'ro:l', 'left'], ['lset', 'ro:l', 0, 'x']]) {
      assert.equal((await t.command(argv, { token })).status, 400, String(argv[0]));
    }
    await reply(['lrange', 'ro:l', 0, -1], ['a']);
  });
});

describe('list command table', () => {
  const keys = (argv: string[]) => keysOf(TABLE.get(argv[0])!, argv);

  it('declares where the keys are, for ACL and cluster routing', () => {
    assert.deepEqual(keys(['lpush', 'a', '1', '2']), ['a']);
    assert.deepEqual(keys(['lmove', 'a', 'b', 'left', 'right']), ['a', 'b']);
    assert.deepEqual(keys(['rpoplpush', 'a', 'b']), ['a', 'b']);
    assert.deepEqual(keys(['lmpop', '2', 'a', 'b', 'left', 'count', '3']), ['a', 'b']);
    assert.deepEqual(keys(['blpop', 'a', 'b', '0']), ['a', 'b']);
    assert.deepEqual(keys(['brpoplpush', 'a', 'b', '0']), ['a', 'b']);
    assert.deepEqual(keys(['blmove', 'a', 'b', 'left', 'left', '0']), ['a', 'b']);
    assert.deepEqual(keys(['blmpop', '0', '2', 'a', 'b', 'left']), ['a', 'b']);
  });

  it('matches COMMAND INFO of redis-server 7.0', () => {
    // name: arity, flags Larder declares, ACL categories
    const expected: Record<string, [number, string, string]> = {
      lpush: [-3, 'write fast', 'fast list write'],
      rpush: [-3, 'write fast', 'fast list write'],
      lpushx: [-3, 'write fast', 'fast list write'],
      rpushx: [-3, 'write fast', 'fast list write'],
      lpop: [-2, 'write fast', 'fast list write'],
      rpop: [-2, 'write fast', 'fast list write'],
      llen: [2, 'readonly fast', 'fast list read'],
      lrange: [4, 'readonly', 'list read slow'],
      lindex: [3, 'readonly', 'list read slow'],
      lset: [4, 'write', 'list slow write'],
      lrem: [4, 'write', 'list slow write'],
      ltrim: [4, 'write', 'list slow write'],
      linsert: [5, 'write', 'list slow write'],
      lpos: [-3, 'readonly', 'list read slow'],
      lmove: [5, 'write', 'list slow write'],
      rpoplpush: [3, 'write', 'list slow write'],
      lmpop: [-4, 'write', 'list slow write'],
      blpop: [-3, 'write unsupported', 'blocking list slow write'],
      brpop: [-3, 'write unsupported', 'blocking list slow write'],
      brpoplpush: [4, 'write unsupported', 'blocking list slow write'],
      blmove: [6, 'write unsupported', 'blocking list slow write'],
      blmpop: [-5, 'write unsupported', 'blocking list slow write'],
    };
    for (const [name, [arity, flags, categories]] of Object.entries(expected)) {
      const cmd = TABLE.get(name);
      assert.ok(cmd, name);
      assert.equal(cmd.arity, arity, name);
      assert.equal(cmd.flags.join(' '), flags, name);
      assert.equal([...cmd.categories].filter((c) => c !== 'all').sort().join(' '), categories, name);
    }
  });
});

// The hash family as Redis 7.0 has it, over HTTP against a real Larder. Every expected reply
// and error text was taken from redis-server 7.0 given the same commands. The field TTL
// commands and Redis 8's additions are in hash-expiry.test.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysOf } from '../../../src/kv/commands/spec.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const NOT_INTEGER = 'ERR value is not an integer or out of range';
/** HGETALL's flat [field, value, ...] as a map, for a hash whose order is its dict's. */
const fieldMap = (flat: string[]) => new Map(flat.flatMap((x, i) => (i % 2 === 0 ? [[x, flat[i + 1]] as const] : [])));
const arity = (name: string) => `ERR wrong number of arguments for '${name}' command`;

describe('hash commands over HTTP', () => {
  const t = suiteLarder();

  const run = async (argv: (string | number)[]) => (await t.command(argv)).body.result;
  const { reply, fails } = replies(() => t);
  const base64 = async (argv: string[]) =>
    (await t.command(argv, { headers: { 'upstash-encoding': 'base64' } })).body.result;
  const b64 = (bytes: string) => Buffer.from(bytes, 'latin1').toString('base64');

  it('HSET, HMSET and HSETNX set fields and count the new ones', async () => {
    await reply(['hset', 'h', 'a', '1', 'b', '2'], 2);
    await reply(['hset', 'h', 'a', '10', 'c', '3'], 1);
    await reply(['hmset', 'h', 'd', '4', 'a', '1'], 'OK');
    await reply(['hsetnx', 'h', 'a', 'x'], 0);
    await reply(['hsetnx', 'h', 'e', '5'], 1);
    await reply(['hsetnx', 'hnx', 'f', 'v'], 1);
    await reply(['hgetall', 'h'], ['a', '1', 'b', '2', 'c', '3', 'd', '4', 'e', '5']);
    await reply(['hgetall', 'hnx'], ['f', 'v']);
    await fails(['hset', 'h', 'a'], arity('hset'));
    await fails(['hset', 'h', 'a', '1', 'b'], arity('hset'));
    await fails(['hset', 'h'], arity('hset'));
    await fails(['hmset', 'h', 'a'], arity('hmset'));
    await fails(['hsetnx', 'h', 'a'], arity('hsetnx'));
  });

  it('HGET, HMGET, HEXISTS, HLEN and HSTRLEN read fields; a missing key is an empty hash', async () => {
    await run(['hset', 'r', 'a', '1', 'empty', '', '', 'no name']);
    await reply(['hget', 'r', 'a'], '1');
    await reply(['hget', 'r', 'zz'], null);
    await reply(['hget', 'r', ''], 'no name');
    await reply(['hget', 'r:none', 'a'], null);
    await reply(['hmget', 'r', 'a', 'zz', 'empty'], ['1', null, '']);
    await reply(['hmget', 'r:none', 'a', 'b'], [null, null]);
    await reply(['hexists', 'r', 'a'], 1);
    await reply(['hexists', 'r', 'zz'], 0);
    await reply(['hexists', 'r:none', 'a'], 0);
    await reply(['hlen', 'r'], 3);
    await reply(['hlen', 'r:none'], 0);
    await reply(['hstrlen', 'r', 'a'], 1);
    await reply(['hstrlen', 'r', 'empty'], 0);
    await reply(['hstrlen', 'r', 'zz'], 0);
    await reply(['hstrlen', 'r:none', 'zz'], 0);
    await run(['hset', 'r', 'utf8', 'é€']);
    await reply(['hstrlen', 'r', 'utf8'], 5);
    await fails(['hget', 'r'], arity('hget'));
    await fails(['hmget', 'r'], arity('hmget'));
    await fails(['hlen', 'r', 'a'], arity('hlen'));
  });

  it('HGETALL, HKEYS and HVALS answer in insertion order, as a listpack does', async () => {
    await run(['hset', 'o', 'z', '1', 'y', '2', 'x', '3']);
    await run(['hset', 'o', 'y', '20']);
    await run(['hdel', 'o', 'z']);
    await run(['hset', 'o', 'z', '10']);
    await reply(['hgetall', 'o'], ['y', '20', 'x', '3', 'z', '10']);
    await reply(['hkeys', 'o'], ['y', 'x', 'z']);
    await reply(['hvals', 'o'], ['20', '3', '10']);
    await reply(['hgetall', 'o:none'], []);
    await reply(['hkeys', 'o:none'], []);
    await reply(['hvals', 'o:none'], []);
  });

  it('HDEL counts the deleted fields and deletes the key with its last field', async () => {
    await run(['hset', 'd', 'a', '1', 'b', '2', 'c', '3']);
    await reply(['hdel', 'd', 'zz'], 0);
    await reply(['hdel', 'd', 'a', 'a', 'b'], 2);
    await reply(['exists', 'd'], 1);
    await reply(['hdel', 'd', 'c'], 1);
    await reply(['exists', 'd'], 0);
    await reply(['hdel', 'd:none', 'a'], 0);
    await fails(['hdel', 'd'], arity('hdel'));
  });

  it('every command refuses a key of another type', async () => {
    await run(['set', 'str', 'v']);
    for (const argv of [
      ['hset', 'str', 'a', '1'],
      ['hmset', 'str', 'a', '1'],
      ['hsetnx', 'str', 'a', '1'],
      ['hget', 'str', 'a'],
      ['hmget', 'str', 'a'],
      ['hgetall', 'str'],
      ['hkeys', 'str'],
      ['hvals', 'str'],
      ['hdel', 'str', 'a'],
      ['hexists', 'str', 'a'],
      ['hlen', 'str'],
      ['hstrlen', 'str', 'a'],
      ['hincrby', 'str', 'a', '1'],
      ['hincrbyfloat', 'str', 'a', '1'],
      ['hrandfield', 'str'],
      ['hrandfield', 'str', '1'],
      ['hscan', 'str', '0'],
    ]) {
      await fails(argv, WRONGTYPE);
    }
    await reply(['get', 'str'], 'v');
    await run(['hset', 'hh', 'a', '1']);
    await fails(['get', 'hh'], WRONGTYPE);
    await reply(['type', 'hh'], 'hash');
  });

  it('HINCRBY adds 64-bit integers and keeps to them', async () => {
    await reply(['hincrby', 'i', 'f', '5'], 5);
    await reply(['hincrby', 'i', 'f', '-10'], -5);
    await reply(['hincrby', 'i', 'f', '9223372036854775807'], 9223372036854775802);
    // Past 2^53 the JSON number is exact in the raw body.
    const raw = await (await t.request('', { method: 'POST', body: JSON.stringify(['hget', 'i', 'f']) })).text();
    assert.equal(raw, '{"result":"9223372036854775802"}');
    await run(['hset', 'i', 'big', '9223372036854775807', 'neg', '-9223372036854775808']);
    await fails(['hincrby', 'i', 'big', '1'], 'ERR increment or decrement would overflow');
    await fails(['hincrby', 'i', 'neg', '-1'], 'ERR increment or decrement would overflow');
    await run(['hset', 'i', 's', 'x', 'lz', '007', 'plus', '+1', 'sp', ' 1']);
    for (const f of ['s', 'lz', 'plus', 'sp']) await fails(['hincrby', 'i', f, '1'], 'ERR hash value is not an integer');
    await fails(['hincrby', 'i', 'f', '1.5'], NOT_INTEGER);
    await fails(['hincrby', 'i', 'f', '9223372036854775808'], NOT_INTEGER);
    await fails(['hincrby', 'i:none', 'f', 'x'], NOT_INTEGER);
    await reply(['exists', 'i:none'], 0);
  });

  it('HINCRBYFLOAT adds in long double and prints as Redis does', async () => {
    await reply(['hincrbyfloat', 'fl', 'f', '0.1'], '0.1');
    await reply(['hincrbyfloat', 'fl', 'f', '0.2'], '0.3');
    await reply(['hincrbyfloat', 'fl', 'f', '-0.3'], '0');
    await reply(['hincrbyfloat', 'fl', 'g', '5.0e3'], '5000');
    await reply(['hincrbyfloat', 'fl', 'g', '0x10'], '5016');
    await run(['hset', 'fl', 'n', '10.50']);
    await reply(['hincrbyfloat', 'fl', 'n', '0'], '10.5');
    await fails(['hincrbyfloat', 'fl', 'g', 'inf'], 'ERR value is NaN or Infinity');
    await fails(['hincrbyfloat', 'fl', 'g', '-inf'], 'ERR value is NaN or Infinity');
    await fails(['hincrbyfloat', 'fl', 'g', 'nan'], 'ERR value is not a valid float');
    await fails(['hincrbyfloat', 'fl', 'g', ''], 'ERR value is not a valid float');
    await fails(['hincrbyfloat', 'fl', 'g', '1.5e'], 'ERR value is not a valid float');
    await run(['hset', 'fl', 's', 'abc', 'sp', ' 1', 'inf', 'inf']);
    await fails(['hincrbyfloat', 'fl', 's', '1'], 'ERR hash value is not a float');
    await fails(['hincrbyfloat', 'fl', 'sp', '1'], 'ERR hash value is not a float');
    await fails(['hincrbyfloat', 'fl', 'inf', '1'], 'ERR increment would produce NaN or Infinity');
    const big = await run(['hincrbyfloat', 'fl', 'big', '1e308']);
    assert.equal(big.length, 308);
    assert.match(big, /^99999999999999999996685879655845645660560099847415567207797047994921734868838061872100126921888539320446747225054013223152134749593960583597420814430196418767959100019603190778/);
    // A value longer than 64 bytes makes the hash a hashtable, as in Redis.
    await reply(['object', 'encoding', 'fl'], 'hashtable');
  });

  embeddedOnly('encodings and sampling of the embedded engine: random picks differ')('HRANDFIELD answers a field, or with a count distinct fields or repeats for a negative one', async () => {
    await run(['hset', 'rf', 'a', '1', 'b', '2', 'c', '3']);
    const fields = new Set(['a', 'b', 'c']);
    const values: Record<string, string> = { a: '1', b: '2', c: '3' };
    assert.ok(fields.has(await run(['hrandfield', 'rf'])));
    await reply(['hrandfield', 'rf:none'], null);
    await reply(['hrandfield', 'rf:none', '5'], []);
    await reply(['hrandfield', 'rf:none', '-5', 'withvalues'], []);
    await reply(['hrandfield', 'rf', '0'], []);
    // A count at least the size answers the whole hash, in its order.
    await reply(['hrandfield', 'rf', '3'], ['a', 'b', 'c']);
    await reply(['hrandfield', 'rf', '100', 'WITHVALUES'], ['a', '1', 'b', '2', 'c', '3']);
    for (let i = 0; i < 20; i++) {
      const two: string[] = await run(['hrandfield', 'rf', '2']);
      assert.equal(new Set(two).size, 2);
      assert.ok(two.every((f) => fields.has(f)));
      // A listpack is sampled in its own order.
      assert.deepEqual(two, [...two].sort());
      const many: string[] = await run(['hrandfield', 'rf', '-7', 'withvalues']);
      assert.equal(many.length, 14);
      for (let j = 0; j < many.length; j += 2) assert.equal(many[j + 1], values[many[j]]);
    }
    await fails(['hrandfield', 'rf', 'x'], NOT_INTEGER);
    await fails(['hrandfield', 'rf', '9223372036854775808'], NOT_INTEGER);
    await fails(
      ['hrandfield', 'rf', '-9223372036854775808'],
      'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
    );
    await fails(['hrandfield', 'rf', '1', 'x'], 'ERR syntax error');
    await fails(['hrandfield', 'rf', '1', 'withvalues', 'x'], 'ERR syntax error');
    await fails(['hrandfield', 'rf', '4611686018427387904', 'withvalues'], 'ERR value is out of range');
    await fails(['hrandfield', 'rf', '-4611686018427387904', 'withvalues'], 'ERR value is out of range');
    // Larder's one deviation: it will not build a reply of billions of picks, nor have a remote
    // Redis build one (refused at admission, before the key is read).
    for (const argv of [['hrandfield', 'rf', '-9223372036854775807'], ['hrandfield', 'rf', '-100000000', 'withvalues'], ['hrandfield', 'rf:missing', '-16777217']]) {
      await fails(argv, 'ERR count is too large: at most 16777216 random elements are answered at once');
    }
    await reply(['hrandfield', 'rf', '4611686018427387903', 'withvalues'], ['a', '1', 'b', '2', 'c', '3']);
  });

  it('HSCAN answers a listpack-sized hash whole, with MATCH and COUNT checked as Redis does', async () => {
    await run(['hset', 'sc', 'a', '1', 'b', '2', 'ab', '3']);
    await reply(['hscan', 'sc', '0'], ['0', ['a', '1', 'b', '2', 'ab', '3']]);
    await reply(['hscan', 'sc', '5', 'count', '1'], ['0', ['a', '1', 'b', '2', 'ab', '3']]);
    await reply(['hscan', 'sc', '0', 'match', 'a*'], ['0', ['a', '1', 'ab', '3']]);
    await reply(['hscan', 'sc', '0', 'MATCH', '*', 'COUNT', '2'], ['0', ['a', '1', 'b', '2', 'ab', '3']]);
    await reply(['hscan', 'sc', '-1'], ['0', ['a', '1', 'b', '2', 'ab', '3']]);
    await reply(['hscan', 'sc:none', '0'], ['0', []]);
    // A missing key is answered before the options are read.
    await reply(['hscan', 'sc:none', '0', 'count', '0'], ['0', []]);
    await fails(['hscan', 'sc:none', 'x'], 'ERR invalid cursor');
    await fails(['hscan', 'sc', '18446744073709551616'], 'ERR invalid cursor');
    await fails(['hscan', 'sc', '0', 'count', '0'], 'ERR syntax error');
    await fails(['hscan', 'sc', '0', 'count', 'x'], NOT_INTEGER);
    await fails(['hscan', 'sc', '0', 'match'], 'ERR syntax error');
    await fails(['hscan', 'sc', '0', 'foo'], 'ERR syntax error');
    await fails(['hscan', 'sc'], arity('hscan'));
  });

  embeddedOnly('encodings and sampling of the embedded engine: HSCAN paging and HRANDFIELD')('a large hash becomes a hashtable: HSCAN pages by cursor and HRANDFIELD samples without repeats', async () => {
    const n = 300;
    const args: string[] = [];
    for (let i = 0; i < n; i++) args.push(`f${i}`, `v${i}`);
    await reply(['hset', 'big', ...args], n);
    await reply(['object', 'encoding', 'big'], 'hashtable');
    // Fields deleted and added during the walk: those present throughout are seen exactly once.
    const seen = new Map<string, number>();
    let cursor = '0';
    let calls = 0;
    do {
      const [next, page] = (await run(['hscan', 'big', cursor, 'count', '25'])) as [string, string[]];
      assert.ok(page.length <= 50);
      for (let i = 0; i < page.length; i += 2) {
        assert.equal(page[i + 1], page[i] === 'late' ? 'x' : `v${page[i].slice(1)}`);
        seen.set(page[i], (seen.get(page[i]) ?? 0) + 1);
      }
      if (calls === 2) await run(['hdel', 'big', 'f299', 'f298']);
      if (calls === 3) await run(['hset', 'big', 'late', 'x']);
      cursor = next;
      calls++;
    } while (cursor !== '0');
    for (let i = 0; i < 298; i++) assert.equal(seen.get(`f${i}`), 1, `f${i}`);
    assert.ok(calls >= 12);
    const novalues = (await run(['hscan', 'big', '0', 'count', '1000', 'match', 'f1?', 'novalues'])) as [string, string[]];
    assert.deepEqual(novalues, ['0', Array.from({ length: 10 }, (_, i) => `f1${i}`)]);
    for (const count of ['10', '150', '299']) {
      const picked: string[] = await run(['hrandfield', 'big', count]);
      assert.equal(picked.length, Number(count));
      assert.equal(new Set(picked).size, picked.length);
    }
    // A hashtable stays one as it shrinks, as in Redis.
    await run(['hdel', 'big', ...Array.from({ length: 290 }, (_, i) => `f${i}`)]);
    await reply(['object', 'encoding', 'big'], 'hashtable');
  });

  embeddedOnly('encodings and sampling of the embedded engine: OBJECT ENCODING')('the listpack encoding holds up to 128 fields of up to 64 bytes', async () => {
    const args: string[] = [];
    for (let i = 0; i < 128; i++) args.push(`f${i}`, 'v');
    await run(['hset', 'enc', ...args]);
    await reply(['object', 'encoding', 'enc'], 'listpack');
    await run(['hset', 'enc', 'f0', 'x'.repeat(64)]);
    await reply(['object', 'encoding', 'enc'], 'listpack');
    await run(['hset', 'enc', 'f129', 'v']);
    await reply(['object', 'encoding', 'enc'], 'hashtable');
    await run(['hset', 'enc2', 'y'.repeat(65), 'v']);
    await reply(['object', 'encoding', 'enc2'], 'hashtable');
  });

  it('fields and values are binary-safe', async () => {
    const field = 'f\x00\xff\x80';
    const value = 'v\x00\xfe';
    const percent = [...Buffer.from(field, 'latin1')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const set = await t.request(`/hset/bin/${percent}`, {
      method: 'POST',
      body: Buffer.from(value, 'latin1'),
    });
    assert.equal(set.status, 200);
    assert.deepEqual(await base64(['hgetall', 'bin']), [b64(field), b64(value)]);
  });

  it('COPY, RENAME, DUMP/RESTORE and OBJECT work on hashes', async () => {
    await run(['hset', '{t}src', 'a', '1', 'b', '2']);
    await reply(['copy', '{t}src', '{t}dst'], 1);
    await run(['hset', '{t}dst', 'c', '3']);
    await reply(['hgetall', '{t}src'], ['a', '1', 'b', '2']);
    await reply(['hgetall', '{t}dst'], ['a', '1', 'b', '2', 'c', '3']);
    await reply(['rename', '{t}dst', '{t}moved'], 'OK');
    await reply(['hgetall', '{t}moved'], ['a', '1', 'b', '2', 'c', '3']);
    // The payload is binary: it travels percent-encoded in the path.
    const payload = [...Buffer.from(await base64(['dump', '{t}moved']), 'base64')]
      .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
      .join('');
    assert.equal((await t.request(`/restore/back/0/${payload}`)).status, 200);
    await reply(['hgetall', 'back'], ['a', '1', 'b', '2', 'c', '3']);
    await reply(['object', 'encoding', 'back'], 'listpack');
  });

  // Between requests the engine keeps a small hash as one packed string in its key's slot
  // (issue 20): each request here finds it that way and must see the whole hash, typed.
  it('keeps a small hash whole and typed from one request to the next', async () => {
    await run(['hset', '{f}h', 'a', '1', 'b', '2']);
    await reply(['type', '{f}h'], 'hash');
    await fails(['get', '{f}h'], WRONGTYPE);
    await fails(['append', '{f}h', 'x'], WRONGTYPE);
    await reply(['hincrby', '{f}h', 'a', '5'], 6);
    await reply(['hdel', '{f}h', 'b'], 1);
    await reply(['hset', '{f}h', 'c', '3'], 1);
    await reply(['hgetall', '{f}h'], ['a', '6', 'c', '3']);
    await reply(['object', 'encoding', '{f}h'], 'listpack');
    await run(['set', '{f}s', 'plain']);
    await fails(['hset', '{f}s', 'a', '1'], WRONGTYPE);
    await reply(['rename', '{f}h', '{f}s'], 'OK');
    await reply(['type', '{f}s'], 'hash');
    await reply(['hget', '{f}s', 'a'], '6');
    await reply(['copy', '{f}s', '{f}c'], 1);
    await reply(['hset', '{f}c', 'a', 'copied'], 0);
    await reply(['hget', '{f}s', 'a'], '6');
    await reply(['set', '{f}s', 'string again'], 'OK');
    await reply(['get', '{f}s'], 'string again');
    await reply(['hset', '{f}c', 'long', 'x'.repeat(100)], 1);
    await reply(['object', 'encoding', '{f}c'], 'hashtable');
    await reply(['hdel', '{f}c', 'long'], 1);
    // A hashtable's order is its dict's (Redis seeds its hash randomly): compare the fields as a map.
    assert.deepEqual(fieldMap(await run(['hgetall', '{f}c'])), new Map([['a', 'copied'], ['c', '3']]));
    await reply(['object', 'encoding', '{f}c'], 'hashtable');
  });

  it('keeps a small hash\'s idle time while commands only look at it', async () => {
    await run(['hset', 'idle', 'a', '1']);
    const payload = [...Buffer.from(await base64(['dump', 'idle']), 'base64')]
      .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
      .join('');
    assert.equal((await t.request(`/restore/aged/0/${payload}/IDLETIME/100000`)).status, 200);
    await reply(['type', 'aged'], 'hash');
    await reply(['object', 'encoding', 'aged'], 'listpack');
    const aged = await run(['object', 'idletime', 'aged']);
    assert.ok(aged >= 100000 && aged < 100005, `looked at only: ${aged}`);
    await reply(['hget', 'aged', 'a'], '1');
    const idle = await run(['object', 'idletime', 'aged']);
    assert.ok(idle >= 0 && idle < 5, `read by HGET: ${idle}`);
  });

  it('declares the flags, arity and keys of Redis 7', () => {
    const fast = ['hset', 'hmset', 'hsetnx', 'hget', 'hmget', 'hdel', 'hexists', 'hlen', 'hstrlen', 'hincrby', 'hincrbyfloat'];
    for (const name of fast) assert.ok(TABLE.get(name)!.categories.has('fast'), name);
    for (const name of ['hgetall', 'hkeys', 'hvals', 'hrandfield', 'hscan']) assert.ok(TABLE.get(name)!.categories.has('slow'), name);
    const arities: Record<string, number> = { hset: -4, hmset: -4, hsetnx: 4, hget: 3, hmget: -3, hgetall: 2, hdel: -3, hincrbyfloat: 4, hrandfield: -2, hscan: -3 };
    for (const [name, n] of Object.entries(arities)) assert.equal(TABLE.get(name)!.arity, n, name);
    for (const name of Object.keys(arities)) assert.ok(TABLE.get(name)!.categories.has('hash'), name);
    assert.deepEqual(keysOf(TABLE.get('hmget')!, ['hmget', 'k', 'a', 'b']), ['k']);
    assert.deepEqual(keysOf(TABLE.get('hset')!, ['hset', 'k', 'a', 'b']), ['k']);
  });
});

// The string family over HTTP, against a real Larder. Every expected reply and error text was
// taken from redis-server 7.0 given the same commands.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysOf } from '../../../src/kv/commands/spec.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { replies, suiteLarder } from '../../support/larder.js';

// TTLs are read with PTTL and PEXPIRETIME, which the generic family declares; until it is in the
// table, the checks that need them are skipped rather than faked.
const ttlIt = TABLE.has('pttl') && TABLE.has('pexpiretime') ? it : it.skip;

describe('string commands over HTTP', () => {
  const t = suiteLarder();

  const { reply, fails } = replies(() => t);
  /** The raw JSON body, for integers past 2^53 that JSON.parse would round. */
  const raw = async (argv: string[]) =>
    (await t.request('', { method: 'POST', body: JSON.stringify(argv) })).text();
  const base64 = async (argv: string[]) =>
    (await t.command(argv, { headers: { 'upstash-encoding': 'base64' } })).body.result;
  const b64 = (bytes: string) => Buffer.from(bytes, 'latin1').toString('base64');
  const pttl = async (key: string): Promise<number> => (await t.command(['pttl', key])).body.result;

  it('GET and SET store and read values', async () => {
    await reply(['get', 'g:missing'], null);
    await reply(['set', 'g:k', 'hello'], 'OK');
    await reply(['GET', 'g:k'], 'hello');
    await reply(['set', 'g:k', ''], 'OK');
    await reply(['get', 'g:k'], '');
    await fails(['get'], "ERR wrong number of arguments for 'get' command");
    await fails(['get', 'a', 'b'], "ERR wrong number of arguments for 'get' command");
    await fails(['set', 'g:k'], "ERR wrong number of arguments for 'set' command");
  });

  it('SET NX, XX and GET', async () => {
    await reply(['set', 's:k', 'v', 'nx'], 'OK');
    await reply(['set', 's:k', 'w', 'NX'], null);
    await reply(['set', 's:k', 'w', 'nx', 'nx'], null);
    await reply(['set', 's:k', 'w', 'xx'], 'OK');
    await reply(['set', 's:none', 'w', 'xx'], null);
    await reply(['get', 's:none'], null);
    await reply(['set', 's:k', 'x', 'get'], 'w');
    await reply(['set', 's:k', 'y', 'get', 'get'], 'x');
    await reply(['set', 's:new', 'v', 'nx', 'get'], null);
    await reply(['set', 's:new', 'v2', 'nx', 'get'], 'v');
    await reply(['get', 's:new'], 'v');
    await reply(['set', 's:none', 'v', 'xx', 'get'], null);
    await reply(['get', 's:none'], null);
  });

  it('SET refuses bad option combinations with a syntax error', async () => {
    for (const opts of [
      ['nx', 'xx'],
      ['xx', 'nx'],
      ['ex', '10', 'px', '20'],
      ['ex'],
      ['keepttl', 'ex', '10'],
      ['ex', '10', 'keepttl'],
      ['persist'],
      ['foo'],
      ['ex', 'abc', 'foo'],
      ['exat', '10', 'pxat', '10'],
    ]) {
      await fails(['set', 's:syntax', 'v', ...opts], 'ERR syntax error');
    }
    await reply(['get', 's:syntax'], null);
  });

  it('SET checks the expire time as Redis does', async () => {
    const invalid = "ERR invalid expire time in 'set' command";
    await fails(['set', 'e:k', 'v', 'ex', '0'], invalid);
    await fails(['set', 'e:k', 'v', 'ex', '-1'], invalid);
    await fails(['set', 'e:k', 'v', 'px', '0'], invalid);
    await fails(['set', 'e:k', 'v', 'px', '-5'], invalid);
    await fails(['set', 'e:k', 'v', 'exat', '0'], invalid);
    await fails(['set', 'e:k', 'v', 'pxat', '0'], invalid);
    // Past 2^63-1 ms once made absolute.
    await fails(['set', 'e:k', 'v', 'ex', '9223372036854775'], invalid);
    await fails(['set', 'e:k', 'v', 'px', '9223372036854775807'], invalid);
    await fails(['set', 'e:k', 'v', 'exat', '9223372036854776'], invalid);
    await fails(['set', 'e:k', 'v', 'ex', 'abc'], 'ERR value is not an integer or out of range');
    await fails(['set', 'e:k', 'v', 'ex', '1.5'], 'ERR value is not an integer or out of range');
    await fails(['set', 'e:k', 'v', 'ex', '9223372036854775808'], 'ERR value is not an integer or out of range');
    await reply(['get', 'e:k'], null);
    // The time is checked before the condition.
    await reply(['set', 'e:k', 'v'], 'OK');
    await fails(['set', 'e:k', 'v2', 'ex', '0', 'nx'], invalid);
    await reply(['set', 'e:k', 'v', 'exat', '9223372036854775'], 'OK');
    await reply(['set', 'e:k', 'v', 'pxat', '9223372036854775807'], 'OK');
    await reply(['set', 'e:k', 'v', 'ex', '9223372036854'], 'OK');
    await reply(['get', 'e:k'], 'v');
  });

  it('SET with a time already past stores a key that is gone at once', async () => {
    await reply(['set', 'p:k', 'v', 'exat', '1'], 'OK');
    await reply(['get', 'p:k'], null);
    await reply(['set', 'p:k', 'v', 'pxat', '1', 'get'], null);
    await reply(['set', 'p:k', 'v2', 'get'], null);
    await reply(['set', 'p:k', 'v3', 'exat', '1', 'get'], 'v2');
    await reply(['get', 'p:k'], null);
  });

  ttlIt('SET sets, keeps and clears TTLs', async () => {
    await reply(['set', 't:k', 'v', 'ex', '100'], 'OK');
    const ex = await pttl('t:k');
    assert.ok(ex > 99_000 && ex <= 100_000, String(ex));
    await reply(['set', 't:k', 'v', 'px', '5000'], 'OK');
    const px = await pttl('t:k');
    assert.ok(px > 4_000 && px <= 5_000, String(px));
    const at = Date.now() + 1_000_000;
    await reply(['set', 't:k', 'v', 'pxat', at], 'OK');
    await reply(['pexpiretime', 't:k'], at);
    await reply(['set', 't:k', 'v', 'exat', Math.floor(at / 1000)], 'OK');
    await reply(['pexpiretime', 't:k'], Math.floor(at / 1000) * 1000);
    await reply(['set', 't:k', 'w', 'keepttl'], 'OK');
    await reply(['pexpiretime', 't:k'], Math.floor(at / 1000) * 1000);
    await reply(['set', 't:k', 'x', 'get', 'keepttl'], 'w');
    await reply(['pexpiretime', 't:k'], Math.floor(at / 1000) * 1000);
    await reply(['set', 't:k', 'y', 'get'], 'x');
    await reply(['pttl', 't:k'], -1);
  });

  it('SETNX, SETEX and PSETEX', async () => {
    await reply(['setnx', 'n:k', 'v'], 1);
    await reply(['setnx', 'n:k', 'w'], 0);
    await reply(['get', 'n:k'], 'v');
    await reply(['setex', 'n:ex', '100', 'v'], 'OK');
    await reply(['get', 'n:ex'], 'v');
    await reply(['psetex', 'n:px', '100000', 'v'], 'OK');
    await reply(['get', 'n:px'], 'v');
    await fails(['setex', 'n:bad', '0', 'v'], "ERR invalid expire time in 'setex' command");
    await fails(['setex', 'n:bad', '-1', 'v'], "ERR invalid expire time in 'setex' command");
    await fails(['setex', 'n:bad', '9223372036854775', 'v'], "ERR invalid expire time in 'setex' command");
    await fails(['psetex', 'n:bad', '0', 'v'], "ERR invalid expire time in 'psetex' command");
    await fails(['psetex', 'n:bad', '9223372036854775807', 'v'], "ERR invalid expire time in 'psetex' command");
    await fails(['setex', 'n:bad', 'abc', 'v'], 'ERR value is not an integer or out of range');
    await fails(['setex', 'n:bad', 'v'], "ERR wrong number of arguments for 'setex' command");
    await reply(['get', 'n:bad'], null);
  });

  ttlIt('SETEX and PSETEX set TTLs; GETSET clears it', async () => {
    await reply(['setex', 'n:ttl', '100', 'v'], 'OK');
    assert.ok((await pttl('n:ttl')) > 99_000);
    await reply(['psetex', 'n:ttl', '5000', 'v'], 'OK');
    const px = await pttl('n:ttl');
    assert.ok(px > 4_000 && px <= 5_000, String(px));
    await reply(['getset', 'n:ttl', 'w'], 'v');
    await reply(['pttl', 'n:ttl'], -1);
  });

  it('GETSET and GETDEL', async () => {
    await reply(['getset', 'gs:k', 'x'], null);
    await reply(['getset', 'gs:k', 'y'], 'x');
    await reply(['get', 'gs:k'], 'y');
    await reply(['getdel', 'gs:k'], 'y');
    await reply(['getdel', 'gs:k'], null);
    await reply(['get', 'gs:k'], null);
  });

  it('GETEX reads the value and checks options like Redis', async () => {
    await reply(['getex', 'gx:missing'], null);
    await reply(['getex', 'gx:missing', 'ex', '0'], null); // the time is checked only for a key
    await reply(['getex', 'gx:missing', 'ex', 'abc'], null);
    for (const opts of [['persist', 'ex', '10'], ['ex', '10', 'persist'], ['keepttl'], ['nx'], ['get'], ['ex'], ['foo']]) {
      await fails(['getex', 'gx:missing', ...opts], 'ERR syntax error');
    }
    await reply(['set', 'gx:k', 'v'], 'OK');
    await reply(['getex', 'gx:k'], 'v');
    await fails(['getex', 'gx:k', 'ex', '0'], "ERR invalid expire time in 'getex' command");
    await fails(['getex', 'gx:k', 'ex', '9223372036854775'], "ERR invalid expire time in 'getex' command");
    await fails(['getex', 'gx:k', 'px', '9223372036854775807'], "ERR invalid expire time in 'getex' command");
    await fails(['getex', 'gx:k', 'px', 'abc'], 'ERR value is not an integer or out of range');
    await reply(['getex', 'gx:k', 'ex', '10', 'ex', '100'], 'v');
    await reply(['getex', 'gx:k', 'persist', 'persist'], 'v');
    await reply(['getex', 'gx:k', 'exat', '9223372036854775'], 'v');
    // An absolute time already past deletes the key, after answering its value.
    await reply(['getex', 'gx:k', 'pxat', '1'], 'v');
    await reply(['get', 'gx:k'], null);
  });

  ttlIt('GETEX sets and removes TTLs', async () => {
    await reply(['set', 'gx:t', 'v'], 'OK');
    await reply(['getex', 'gx:t', 'ex', '100'], 'v');
    assert.ok((await pttl('gx:t')) > 99_000);
    await reply(['getex', 'gx:t', 'px', '5000'], 'v');
    assert.ok((await pttl('gx:t')) <= 5_000);
    await reply(['getex', 'gx:t', 'exat', '9999999999'], 'v');
    await reply(['pexpiretime', 'gx:t'], 9_999_999_999_000);
    await reply(['getex', 'gx:t', 'pxat', '99999999999999'], 'v');
    await reply(['pexpiretime', 'gx:t'], 99_999_999_999_999);
    await reply(['getex', 'gx:t'], 'v');
    await reply(['pexpiretime', 'gx:t'], 99_999_999_999_999);
    await reply(['getex', 'gx:t', 'persist'], 'v');
    await reply(['pttl', 'gx:t'], -1);
  });

  it('MGET, MSET and MSETNX', async () => {
    await reply(['mset', '{t}m:a', '1', '{t}m:b', '2'], 'OK');
    await reply(['mget', '{t}m:a', '{t}m:b', '{t}m:none'], ['1', '2', null]);
    await fails(['mset', '{t}m:a', '1', '{t}m:b'], "ERR wrong number of arguments for 'mset' command");
    await fails(['mset', '{t}m:a'], "ERR wrong number of arguments for 'mset' command");
    await fails(['msetnx', '{t}m:c', '1', '{t}m:d'], "ERR wrong number of arguments for 'msetnx' command");
    await fails(['mget'], "ERR wrong number of arguments for 'mget' command");
    await reply(['msetnx', '{t}m:a', '9', '{t}m:c', '3'], 0);
    await reply(['mget', '{t}m:a', '{t}m:c'], ['1', null]);
    await reply(['msetnx', '{t}m:c', '3', '{t}m:d', '4'], 1);
    await reply(['mget', '{t}m:c', '{t}m:d'], ['3', '4']);
    // A key given twice takes its last value.
    await reply(['mset', '{t}m:dup', '1', '{t}m:dup', '2'], 'OK');
    await reply(['msetnx', '{t}m:dup2', '1', '{t}m:dup2', '2'], 1);
    await reply(['mget', '{t}m:dup', '{t}m:dup2'], ['2', '2']);
  });

  it('INCR, DECR, INCRBY and DECRBY', async () => {
    await reply(['incr', 'i:k'], 1);
    await reply(['incrby', 'i:k', '41'], 42);
    await reply(['decr', 'i:k'], 41);
    await reply(['decrby', 'i:k', '-9'], 50);
    await reply(['get', 'i:k'], '50');
    await reply(['decr', 'i:new'], -1);
    await reply(['incrby', 'i:new2', '0'], 0);
    await reply(['get', 'i:new2'], '0');
    for (const bad of ['abc', '1.0', '+1', '01', ' 1', '', '9223372036854775808']) {
      await fails(['incrby', 'i:k', bad], 'ERR value is not an integer or out of range');
    }
    for (const stored of ['007', '', '+1', '1.0', '-0', '12345678901234567890', 'abc', ' 1']) {
      await reply(['set', 'i:bad', stored], 'OK');
      await fails(['incr', 'i:bad'], 'ERR value is not an integer or out of range');
    }
  });

  it('INCR family answers exact 64-bit integers and refuses to overflow', async () => {
    await reply(['set', 'i:big', '9223372036854775806'], 'OK');
    assert.equal(await raw(['incr', 'i:big']), '{"result":9223372036854775807}');
    await fails(['incr', 'i:big'], 'ERR increment or decrement would overflow');
    await fails(['decrby', 'i:big', '-1'], 'ERR increment or decrement would overflow');
    await reply(['set', 'i:small', '-9223372036854775807'], 'OK');
    assert.equal(await raw(['decr', 'i:small']), '{"result":-9223372036854775808}');
    await fails(['decr', 'i:small'], 'ERR increment or decrement would overflow');
    await reply(['set', 'i:k5', '5'], 'OK');
    await fails(['decrby', 'i:k5', '-9223372036854775808'], 'ERR decrement would overflow');
    assert.equal(await raw(['incrby', 'i:k5', '-9223372036854775808']), '{"result":-9223372036854775803}');
    await fails(['decrby', 'i:k5', '9223372036854775807'], 'ERR increment or decrement would overflow');
    // Across 2^53 and back.
    assert.equal(await raw(['incrby', 'i:edge', '9007199254740991']), '{"result":9007199254740991}');
    assert.equal(await raw(['incr', 'i:edge']), '{"result":9007199254740992}');
    assert.equal(await raw(['incr', 'i:edge']), '{"result":9007199254740993}');
    await reply(['get', 'i:edge'], '9007199254740993');
    assert.equal(await raw(['decrby', 'i:edge', '3']), '{"result":9007199254740990}');
  });

  it('INCRBYFLOAT computes and prints as Redis does (long double, 17 decimals)', async () => {
    await reply(['incrbyfloat', 'f:k', '0.1'], '0.1');
    await reply(['incrbyfloat', 'f:k', '0.2'], '0.3');
    await reply(['set', 'f:k', '12345.678'], 'OK');
    await reply(['incrbyfloat', 'f:k', '0'], '12345.67799999999999994');
    await reply(['set', 'f:k', '3.0e3'], 'OK');
    await reply(['incrbyfloat', 'f:k', '1.1'], '3001.10000000000000009');
    await reply(['set', 'f:k', '10'], 'OK');
    await reply(['incrbyfloat', 'f:k', '-1.5e1'], '-5');
    await reply(['incrbyfloat', 'f:k', '5'], '0');
    await reply(['incrbyfloat', 'f:k', '1e-20'], '0');
    await reply(['incrbyfloat', 'f:k', '3.14159265358979323846264338327950288'], '3.14159265358979324');
    await reply(['set', 'f:k', '1'], 'OK');
    await reply(['incrbyfloat', 'f:k', '.5'], '1.5');
    await reply(['incrbyfloat', 'f:k', '5.'], '6.5');
    await reply(['incrbyfloat', 'f:k', '+1'], '7.5');
    await reply(['incrbyfloat', 'f:k', '0X1.8P1'], '10.5');
    await reply(['set', 'f:k', '1e20'], 'OK');
    await reply(['incrbyfloat', 'f:k', '0'], '100000000000000000000');
    await reply(['set', 'f:k', '-0.0'], 'OK');
    await reply(['incrbyfloat', 'f:k', '0'], '0');
    await reply(['set', 'f:k', '0'], 'OK');
    await reply(['incrbyfloat', 'f:k', '0.000000000000000015'], '0.00000000000000002');
    await reply(['incrbyfloat', 'f:k', '0.000000000000000025'], '0.00000000000000004');
    // Beyond a double's range, within a long double's.
    await reply(['set', 'f:k', '1.7976931348623157e308'], 'OK');
    const doubled = (await t.command(['incrbyfloat', 'f:k', '1.7976931348623157e308'])).body.result as string;
    assert.equal(doubled.length, 309);
    assert.ok(doubled.startsWith('3595386269724631399918420935482088680967728938886583569706288415303532570'));
  });

  it('INCRBYFLOAT errors', async () => {
    for (const bad of ['abc', '', '1e', ' 1', 'nan', '1e5000', '1e-5000', '0x', '1,5']) {
      await fails(['incrbyfloat', 'fe:k', bad], 'ERR value is not a valid float');
    }
    for (const stored of ['abc', '', '1 ']) {
      await reply(['set', 'fe:bad', stored], 'OK');
      await fails(['incrbyfloat', 'fe:bad', '1'], 'ERR value is not a valid float');
    }
    await reply(['set', 'fe:k', '1'], 'OK');
    await fails(['incrbyfloat', 'fe:k', 'inf'], 'ERR increment would produce NaN or Infinity');
    await fails(['incrbyfloat', 'fe:k', '-Infinity'], 'ERR increment would produce NaN or Infinity');
    await reply(['set', 'fe:k', '1e4932'], 'OK');
    await fails(['incrbyfloat', 'fe:k', '1e4932'], 'ERR increment would produce NaN or Infinity');
    await reply(['get', 'fe:k'], '1e4932');
  });

  ttlIt('INCR and INCRBYFLOAT keep the TTL', async () => {
    await reply(['set', 'f:ttl', '1', 'ex', '100'], 'OK');
    const before = (await t.command(['pexpiretime', 'f:ttl'])).body.result;
    await reply(['incr', 'f:ttl'], 2);
    await reply(['incrbyfloat', 'f:ttl', '1.5'], '3.5');
    await reply(['append', 'f:ttl', '0'], 4);
    await reply(['setrange', 'f:ttl', '0', '4'], 4);
    await reply(['pexpiretime', 'f:ttl'], before);
  });

  it('APPEND and STRLEN count bytes', async () => {
    await reply(['append', 'a:k', 'abc'], 3);
    await reply(['append', 'a:k', ''], 3);
    await reply(['append', 'a:k', 'dé'], 6);
    await reply(['strlen', 'a:k'], 6);
    await reply(['get', 'a:k'], 'abcdé');
    await reply(['strlen', 'a:none'], 0);
    // APPEND of nothing still creates the key.
    await reply(['append', 'a:empty', ''], 0);
    await reply(['mget', 'a:empty'], ['']);
  });

  it('GETRANGE and SUBSTR, with Redis 7.0 index rules', async () => {
    await reply(['set', 'r:s', 'hello'], 'OK');
    const cases: [string, string, string][] = [
      ['0', '-1', 'hello'],
      ['0', '-100', 'h'],
      ['-1', '-5', ''],
      ['-100', '-50', 'h'],
      ['-100', '-200', ''],
      ['3', '1', ''],
      ['10', '20', ''],
      ['-3', '100', 'llo'],
      ['0', '0', 'h'],
      ['9223372036854775807', '-9223372036854775808', ''],
      ['-9223372036854775808', '9223372036854775807', 'hello'],
    ];
    for (const [start, end, out] of cases) await reply(['getrange', 'r:s', start, end], out);
    await reply(['substr', 'r:s', '1', '3'], 'ell');
    await reply(['getrange', 'r:none', '0', '-1'], '');
    await reply(['set', 'r:e', ''], 'OK');
    await reply(['getrange', 'r:e', '0', '-1'], '');
    await fails(['getrange', 'r:s', 'a', '1'], 'ERR value is not an integer or out of range');
    await fails(['getrange', 'r:none', '1', 'b'], 'ERR value is not an integer or out of range');
    // Byte offsets, not characters: the first byte of "é" alone.
    await reply(['set', 'r:u', 'é'], 'OK');
    assert.equal(await base64(['getrange', 'r:u', '0', '0']), b64('\xc3'));
  });

  it('SETRANGE pads with zero bytes and refuses bad offsets', async () => {
    await reply(['set', 'sr:k', 'hello'], 'OK');
    await reply(['setrange', 'sr:k', '1', 'a'], 5);
    await reply(['setrange', 'sr:k', '7', 'XY'], 9);
    assert.equal(await base64(['get', 'sr:k']), b64('hallo\0\0XY'));
    await reply(['setrange', 'sr:new', '3', 'ab'], 5);
    assert.equal(await base64(['get', 'sr:new']), b64('\0\0\0ab'));
    // An empty value writes nothing: the length as it is, and no new key.
    await reply(['setrange', 'sr:k', '100', ''], 9);
    await reply(['setrange', 'sr:none', '0', ''], 0);
    await reply(['setrange', 'sr:none', '536870912', ''], 0);
    await reply(['get', 'sr:none'], null);
    await fails(['setrange', 'sr:k', '-1', 'x'], 'ERR offset is out of range');
    await fails(['setrange', 'sr:k', 'abc', 'x'], 'ERR value is not an integer or out of range');
    await fails(['setrange', 'sr:k', '9223372036854775808', 'x'], 'ERR value is not an integer or out of range');
    const tooLong = 'ERR string exceeds maximum allowed size (proto-max-bulk-len)';
    await fails(['setrange', 'sr:k', '536870912', 'x'], tooLong);
    await fails(['setrange', 'sr:none', '536870912', 'x'], tooLong);
    await fails(['setrange', 'sr:k', '9223372036854775807', 'x'], tooLong);
    await reply(['get', 'sr:none'], null);
  });

  it('values are binary safe', async () => {
    const bytes = '\0\x01\xff\xfe\r\n';
    // JSON carries text; a raw POST body after the path carries any bytes.
    const res = await t.request('/set/bin:k', { method: 'POST', body: Buffer.from(bytes, 'latin1') });
    assert.deepEqual(await res.json(), { result: 'OK' });
    assert.equal(await base64(['get', 'bin:k']), b64(bytes));
    await reply(['strlen', 'bin:k'], 6);
    assert.equal(await base64(['getrange', 'bin:k', '2', '3']), b64('\xff\xfe'));
    await reply(['append', 'bin:k', '\0'], 7);
    assert.equal(await base64(['getdel', 'bin:k']), b64(bytes + '\0'));
  });

  it('LCS answers the string, its length, or the matching ranges', async () => {
    await reply(['mset', '{t}l:a', 'ohmytext', '{t}l:b', 'mynewtext'], 'OK');
    await reply(['lcs', '{t}l:a', '{t}l:b'], 'mytext');
    await reply(['lcs', '{t}l:a', '{t}l:b', 'len'], 6);
    await reply(['lcs', '{t}l:a', '{t}l:b', 'idx'], ['matches', [[[4, 7], [5, 8]], [[2, 3], [0, 1]]], 'len', 6]);
    await reply(['lcs', '{t}l:a', '{t}l:b', 'idx', 'minmatchlen', '4'], ['matches', [[[4, 7], [5, 8]]], 'len', 6]);
    await reply(['lcs', '{t}l:a', '{t}l:b', 'IDX', 'MinMatchLen', '2', 'WITHMATCHLEN'], [
      'matches',
      [[[4, 7], [5, 8], 4], [[2, 3], [0, 1], 2]],
      'len',
      6,
    ]);
    await reply(['lcs', '{t}l:a', '{t}l:b', 'minmatchlen', '-5', 'idx'], ['matches', [[[4, 7], [5, 8]], [[2, 3], [0, 1]]], 'len', 6]);
    await reply(['lcs', '{t}l:a', '{t}l:b', 'withmatchlen'], 'mytext');
    await reply(['lcs', '{t}l:a', '{t}l:b', 'len', 'withmatchlen'], 6);
    await reply(['lcs', '{t}l:a', '{t}l:a', 'idx', 'withmatchlen'], ['matches', [[[0, 7], [0, 7], 8]], 'len', 8]);
    await reply(['lcs', '{t}l:a', '{t}l:none'], '');
    await reply(['lcs', '{t}l:a', '{t}l:none', 'idx'], ['matches', [], 'len', 0]);
    await reply(['lcs', '{t}l:none', '{t}l:none2', 'len'], 0);
    await reply(['mset', '{t}l:c', 'aaabbbcccabc', '{t}l:d', 'abcabcaaabbbccc'], 'OK');
    await reply(['lcs', '{t}l:c', '{t}l:d'], 'aaabbbccc');
    await reply(['lcs', '{t}l:c', '{t}l:d', 'idx', 'withmatchlen'], [
      'matches',
      [[[11, 11], [14, 14], 1], [[7, 8], [12, 13], 2], [[0, 5], [6, 11], 6]],
      'len',
      9,
    ]);
  });

  it('LCS errors', async () => {
    await reply(['mset', '{t}l:a', 'ohmytext', '{t}l:b', 'mynewtext'], 'OK');
    const both = 'ERR If you want both the length and indexes, please just use IDX.';
    await fails(['lcs', '{t}l:a', '{t}l:b', 'len', 'idx'], both);
    await fails(['lcs', '{t}l:a', '{t}l:b', 'idx', 'len'], both);
    await fails(['lcs', '{t}l:a', '{t}l:b', 'idx', 'len', 'foo'], 'ERR syntax error');
    await fails(['lcs', '{t}l:a', '{t}l:b', 'minmatchlen'], 'ERR syntax error');
    await fails(['lcs', '{t}l:a', '{t}l:b', 'foo'], 'ERR syntax error');
    await fails(['lcs', '{t}l:a', '{t}l:b', 'minmatchlen', 'abc'], 'ERR value is not an integer or out of range');
    await fails(['lcs', '{t}l:a', '{t}l:b', 'minmatchlen', 'abc', 'foo'], 'ERR value is not an integer or out of range');
    await fails(['lcs', '{t}l:a'], "ERR wrong number of arguments for 'lcs' command");
  });

  it('the read-only token may read strings but not write them', async () => {
    const token = t.readOnlyToken;
    await reply(['set', 'ro:k', 'v'], 'OK');
    for (const argv of [['get', 'ro:k'], ['mget', 'ro:k'], ['strlen', 'ro:k'], ['getrange', 'ro:k', '0', '-1'], ['lcs', 'ro:k', 'ro:k']]) {
      assert.equal((await t.command(argv, { token })).status, 200, argv[0]);
    }
    for (const argv of [['set', 'ro:k', 'w'], ['getex', 'ro:k'], ['getdel', 'ro:k'], ['incr', 'ro:n'], ['append', 'ro:k', 'x']]) {
      const res = await t.command(argv, { token });
      assert.equal(res.status, 400, argv[0]);
      assert.match(res.body.error, /^NOPERM /);
    }
    await reply(['get', 'ro:k'], 'v');
  });
});

describe('string command table', () => {
  const keys = (argv: string[]) => keysOf(TABLE.get(argv[0])!, argv);

  it('declares where the keys are, for ACL and cluster routing', () => {
    assert.deepEqual(keys(['mset', 'a', '1', 'b', '2']), ['a', 'b']);
    assert.deepEqual(keys(['msetnx', 'a', '1', 'b', '2', 'c', '3']), ['a', 'b', 'c']);
    assert.deepEqual(keys(['mget', 'a', 'b', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(keys(['lcs', 'a', 'b', 'idx', 'minmatchlen', '3']), ['a', 'b']);
    assert.deepEqual(keys(['set', 'a', 'v', 'ex', '10']), ['a']);
    assert.deepEqual(keys(['setex', 'a', '10', 'v']), ['a']);
  });

  it('declares Redis categories', () => {
    const categories = (name: string) => [...TABLE.get(name)!.categories].sort();
    assert.deepEqual(categories('get'), ['all', 'fast', 'read', 'string']);
    assert.deepEqual(categories('set'), ['all', 'slow', 'string', 'write']);
    assert.deepEqual(categories('getex'), ['all', 'fast', 'string', 'write']);
    assert.deepEqual(categories('lcs'), ['all', 'read', 'slow', 'string']);
    assert.deepEqual(categories('setrange'), ['all', 'slow', 'string', 'write']);
  });
});

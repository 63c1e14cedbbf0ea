// Field TTLs (Redis 7.4: HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT, HTTL, HPTTL, HEXPIRETIME,
// HPEXPIRETIME, HPERSIST, HSCAN NOVALUES) and Redis 8's HGETDEL, HGETEX and HSETEX, over
// HTTP. These are newer than the redis-server 7.0 oracle: the cases follow the examples and
// edge cases of the Redis documentation, and the error texts Redis 8's t_hash.c answers.
// Expiry is waited for by polling, never by timing assertions.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { replies, suiteLarder } from '../../support/larder.js';
import { loggedCommands } from '../../support/restarts.js';

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const NOT_INTEGER = 'ERR value is not an integer or out of range';
const FIELDS_MISSING = 'ERR Mandatory argument FIELDS is missing or not at the right position';
const NUMFIELDS = 'ERR Number of fields must be a positive integer';
const MISMATCH = 'ERR The `numfields` parameter must match the number of arguments';
const arity = (name: string) => `ERR wrong number of arguments for '${name}' command`;
/** Far enough ahead that no test outlives it: 2100-01-01. */
const LATER = 4102444800;

describe('hash field expiry over HTTP', () => {
  const t = suiteLarder();

  const run = async (argv: (string | number)[]) => (await t.command(argv)).body.result;
  const { reply, fails } = replies(() => t);
  /** Polls until `argv` answers `result`; fails after about five seconds. */
  const eventually = async (argv: (string | number)[], result: unknown) => {
    for (let i = 0; i < 250 && JSON.stringify(await run(argv)) !== JSON.stringify(result); i++) await sleep(20);
    await reply(argv, result);
  };

  it('HEXPIRE sets TTLs, answering -2 for fields that do not exist (doc example)', async () => {
    await reply(['hset', 'mykey', 'field1', 'hello', 'field2', 'world'], 2);
    await reply(['hexpire', 'mykey', 10, 'FIELDS', 3, 'field1', 'field2', 'field3'], [1, 1, -2]);
    const ttls: number[] = await run(['httl', 'mykey', 'FIELDS', 2, 'field1', 'field2']);
    for (const ttl of ttls) assert.ok(ttl >= 9 && ttl <= 10, String(ttl));
    await reply(['hexpire', 'nokey', 10, 'FIELDS', 2, 'a', 'b'], [-2, -2]);
    await reply(['exists', 'nokey'], 0);
  });

  it('HEXPIREAT and HPEXPIREAT take Unix times that HEXPIRETIME and HPEXPIRETIME answer', async () => {
    await run(['hset', 'at', 'f1', 'v1', 'f2', 'v2', 'f3', 'v3']);
    await reply(['hexpireat', 'at', LATER, 'FIELDS', 2, 'f2', 'f3'], [1, 1]);
    await reply(['hexpiretime', 'at', 'FIELDS', 3, 'f1', 'f2', 'f3'], [-1, LATER, LATER]);
    await reply(['hpexpiretime', 'at', 'FIELDS', 2, 'f2', 'nope'], [LATER * 1000, -2]);
    await reply(['hpexpireat', 'at', LATER * 1000 + 1, 'FIELDS', 1, 'f3'], [1]);
    // Seconds round up, as Redis computes (expire + 999) / 1000.
    await reply(['hexpiretime', 'at', 'FIELDS', 1, 'f3'], [LATER + 1]);
    await reply(['hpexpiretime', 'at', 'FIELDS', 1, 'f3'], [LATER * 1000 + 1]);
    const pttl: number[] = await run(['hpttl', 'at', 'FIELDS', 2, 'f3', 'f1']);
    assert.ok(pttl[0] > 0 && pttl[0] <= LATER * 1000 + 1 - Date.now() + 1000);
    assert.equal(pttl[1], -1);
    await reply(['httl', 'nokey', 'FIELDS', 1, 'a'], [-2]);
    await reply(['hpexpiretime', 'nokey', 'FIELDS', 2, 'a', 'b'], [-2, -2]);
  });

  // Redis 7.4 refuses field times past 2^46 ms (year 4199); Upstash takes any time EXPIREAT
  // takes, and the SDK's own tests pass milliseconds to HEXPIREAT.
  it('HEXPIREAT, HPEXPIREAT and HEXPIRE take times in the far future, as EXPIREAT does', async () => {
    await run(['hset', 'far', 'a', '1', 'b', '2', 'c', '3']);
    const ms = Date.now() + 1000;
    await reply(['hexpireat', 'far', ms, 'FIELDS', 1, 'a'], [1]);
    await reply(['hexpiretime', 'far', 'FIELDS', 1, 'a'], [ms]);
    await reply(['hpexpiretime', 'far', 'FIELDS', 1, 'a'], [ms * 1000]);
    await reply(['hpexpireat', 'far', 70368744177664, 'FIELDS', 1, 'b'], [1]);
    await reply(['hpexpiretime', 'far', 'FIELDS', 1, 'b'], [70368744177664]);
    await reply(['hexpire', 'far', 70368744178, 'FIELDS', 1, 'c'], [1]);
    await reply(['hsetex', 'far', 'KEEPTTL', 'FIELDS', 1, 'd', '4'], 1);
    await reply(['hgetex', 'far', 'PXAT', 2 ** 50, 'FIELDS', 1, 'd'], ['4']);
    await reply(['hpexpiretime', 'far', 'FIELDS', 1, 'd'], [2 ** 50]);
    await reply(['hlen', 'far'], 4);
  });

  it('NX, XX, GT and LT compare with the current TTL; no TTL counts as infinite', async () => {
    await run(['hset', 'c', 'none', 'v', 'ttl', 'v']);
    await run(['hexpireat', 'c', LATER, 'FIELDS', 1, 'ttl']);
    await reply(['hexpireat', 'c', LATER + 10, 'NX', 'FIELDS', 3, 'none', 'ttl', 'missing'], [1, 0, -2]);
    await run(['hpersist', 'c', 'FIELDS', 1, 'none']);
    await reply(['hexpireat', 'c', LATER + 20, 'XX', 'FIELDS', 2, 'none', 'ttl'], [0, 1]);
    await reply(['hexpireat', 'c', LATER + 10, 'gt', 'FIELDS', 2, 'none', 'ttl'], [0, 0]);
    await reply(['hexpireat', 'c', LATER + 30, 'GT', 'FIELDS', 1, 'ttl'], [1]);
    await reply(['hexpireat', 'c', LATER + 30, 'GT', 'FIELDS', 1, 'ttl'], [0]);
    await reply(['hexpireat', 'c', LATER + 40, 'LT', 'FIELDS', 2, 'none', 'ttl'], [1, 0]);
    await reply(['hexpireat', 'c', LATER + 5, 'lt', 'FIELDS', 2, 'none', 'ttl'], [1, 1]);
    await reply(['hexpiretime', 'c', 'FIELDS', 2, 'none', 'ttl'], [LATER + 5, LATER + 5]);
  });

  it('a zero TTL or a past time deletes the field (2), and the key with its last field', async () => {
    await run(['hset', 'z', 'a', '1', 'b', '2', 'c', '3']);
    await reply(['hexpire', 'z', 0, 'FIELDS', 2, 'a', 'missing'], [2, -2]);
    await reply(['hpexpireat', 'z', 1, 'FIELDS', 1, 'b'], [2]);
    await reply(['hgetall', 'z'], ['c', '3']);
    // A condition that is not met leaves even a past time alone.
    await reply(['hexpireat', 'z', 1, 'XX', 'FIELDS', 1, 'c'], [0]);
    await reply(['hpexpire', 'z', 0, 'FIELDS', 1, 'c'], [2]);
    await reply(['exists', 'z'], 0);
  });

  it('the HEXPIRE family checks its arguments as Redis does', async () => {
    await run(['hset', 'e', 'a', '1']);
    await fails(['hexpire', 'e', 10, 'FIELDS', 1], arity('hexpire'));
    await fails(['hexpire', 'e', 'x', 'FIELDS', 1, 'a'], NOT_INTEGER);
    await fails(['hexpire', 'e', -1, 'FIELDS', 1, 'a'], 'ERR invalid expire time, must be >= 0');
    // Only what EXPIREAT refuses for a key: past int64 ms, as given or made absolute.
    await fails(['hexpireat', 'e', '9223372036854775808', 'FIELDS', 1, 'a'], NOT_INTEGER);
    await fails(['hexpireat', 'e', '9223372036854776', 'FIELDS', 1, 'a'], "ERR invalid expire time in 'hexpireat' command");
    await fails(['hpexpire', 'e', '9223372036854775807', 'FIELDS', 1, 'a'], "ERR invalid expire time in 'hpexpire' command");
    await reply(['hpexpireat', 'e', '9223372036854775807', 'FIELDS', 1, 'a'], [1]);
    await fails(['hexpire', 'e', 10, 'FIELD', 1, 'a'], FIELDS_MISSING);
    await fails(['hexpire', 'e', 10, 'NX', 'XX', 'FIELDS', 1, 'a'], FIELDS_MISSING);
    await fails(['hexpire', 'e', 10, 'FIELDS', 0, 'a'], 'ERR Parameter `numFields` should be greater than 0');
    await fails(['hexpire', 'e', 10, 'FIELDS', 'x', 'a'], 'ERR Parameter `numFields` should be greater than 0');
    await fails(['hexpire', 'e', 10, 'FIELDS', 2, 'a'], MISMATCH);
    await fails(['hexpire', 'e', 10, 'FIELDS', 1, 'a', 'b'], MISMATCH);
    await run(['set', 'str', 'v']);
    // The key's type is checked first.
    await fails(['hexpire', 'str', 'x', 'FIELD', 1, 'a'], WRONGTYPE);
    await fails(['httl', 'str', 'FIELDS', 1, 'a'], WRONGTYPE);
    await fails(['hpersist', 'str', 'FIELDS', 1, 'a'], WRONGTYPE);
    await fails(['httl', 'e', 'FIELDS', 0, 'a'], NUMFIELDS);
    await fails(['httl', 'e', 'FIELDS', 2, 'a'], MISMATCH);
    await fails(['hpttl', 'e', 'x', 1, 'a'], FIELDS_MISSING);
    await fails(['httl', 'e', 'FIELDS', 1], arity('httl'));
  });

  it('HPERSIST removes TTLs (doc example)', async () => {
    await reply(['hset', 'p', 'field1', 'hello', 'field2', 'world'], 2);
    await reply(['hexpire', 'p', 300, 'FIELDS', 2, 'field1', 'field2'], [1, 1]);
    await reply(['hpersist', 'p', 'FIELDS', 1, 'field2'], [1]);
    const ttls: number[] = await run(['httl', 'p', 'FIELDS', 2, 'field1', 'field2']);
    assert.ok(ttls[0] > 0 && ttls[0] <= 300);
    assert.equal(ttls[1], -1);
    await reply(['hpersist', 'p', 'FIELDS', 3, 'field2', 'field1', 'field3'], [-1, 1, -2]);
    await reply(['hpersist', 'nokey', 'FIELDS', 1, 'a'], [-2]);
    await fails(['hpersist', 'p', 'FIELDS', -1, 'a'], NUMFIELDS);
  });

  it('HSET drops a field TTL; HINCRBY, HINCRBYFLOAT and HSETNX keep it', async () => {
    await run(['hset', 'k', 'set', '1', 'incr', '1', 'float', '1', 'nx', '1']);
    await run(['hexpireat', 'k', LATER, 'FIELDS', 4, 'set', 'incr', 'float', 'nx']);
    await run(['hset', 'k', 'set', '2']);
    await reply(['hincrby', 'k', 'incr', 5], 6);
    await reply(['hincrbyfloat', 'k', 'float', '0.5'], '1.5');
    await reply(['hsetnx', 'k', 'nx', '2'], 0);
    await reply(['hexpiretime', 'k', 'FIELDS', 4, 'set', 'incr', 'float', 'nx'], [-1, LATER, LATER, LATER]);
    await reply(['object', 'encoding', 'k'], 'listpackex');
  });

  it('an expired field is gone for every command, and the hash with its last field', async () => {
    await run(['hset', 'lazy', 'stays', 'v', 'goes', 'v', 'also', 'v']);
    await reply(['hpexpire', 'lazy', 20, 'FIELDS', 2, 'goes', 'also'], [1, 1]);
    await eventually(['hlen', 'lazy'], 1);
    await reply(['hgetall', 'lazy'], ['stays', 'v']);
    await reply(['hget', 'lazy', 'goes'], null);
    await reply(['hexists', 'lazy', 'goes'], 0);
    await reply(['httl', 'lazy', 'FIELDS', 2, 'goes', 'stays'], [-2, -1]);
    await reply(['hpexpire', 'lazy', 20, 'FIELDS', 1, 'stays'], [1]);
    await eventually(['exists', 'lazy'], 0);
    await reply(['type', 'lazy'], 'none');
    await reply(['keys', 'lazy'], []);
    // HPEXPIRE's doc example: once its fields expire, the hash is empty.
    await run(['hset', 'doc', 'field1', 'hello', 'field2', 'world']);
    await reply(['hpexpire', 'doc', 30, 'FIELDS', 2, 'field1', 'field2'], [1, 1]);
    await eventually(['hgetall', 'doc'], []);
  });

  it('fields expire actively, without any command touching the hash, and the deletion is logged', async () => {
    await run(['hset', 'active', 'stays', 'v', 'goes', 'v']);
    await run(['hset', 'active:all', 'only', 'v']);
    const before = (await run(['dbsize'])) as number;
    await run(['hpexpire', 'active', 20, 'FIELDS', 1, 'goes']);
    await run(['hpexpire', 'active:all', 20, 'FIELDS', 1, 'only']);
    // DBSIZE reads no key: only the active cycle can delete the emptied hash.
    await eventually(['dbsize'], before - 1);
    let logged: string[][] = [];
    for (let i = 0; i < 250; i++) {
      logged = loggedCommands(t.dataDir);
      if (logged.some((a) => a[0] === 'hdel' && a[1] === 'active')) break;
      await sleep(20);
    }
    assert.deepEqual(logged.filter((a) => a[0] === 'hdel' && a[1].startsWith('active')).sort(), [
      ['hdel', 'active', 'goes'],
      ['hdel', 'active:all', 'only'],
    ]);
    await reply(['hgetall', 'active'], ['stays', 'v']);
  });

  it('HGETDEL answers and deletes fields, and the key with its last one (doc example)', async () => {
    await reply(['hset', 'gd', 'field1', 'Hello', 'field2', 'World', 'field3', '!'], 3);
    await reply(['hgetdel', 'gd', 'FIELDS', 2, 'field3', 'field4'], ['!', null]);
    await reply(['hgetall', 'gd'], ['field1', 'Hello', 'field2', 'World']);
    await reply(['hgetdel', 'gd', 'FIELDS', 3, 'field1', 'field1', 'field2'], ['Hello', null, 'World']);
    await reply(['exists', 'gd'], 0);
    await reply(['hgetdel', 'gd', 'FIELDS', 1, 'a'], [null]);
    await fails(['hgetdel', 'gd', 'FIELDS', 3, 'f1', 'non-exist'], MISMATCH);
    await fails(['hgetdel', 'gd', 'FIELDS', 0, 'f1'], NUMFIELDS);
    await fails(['hgetdel', 'gd', 'FIELD', 1, 'f1'], FIELDS_MISSING);
    await fails(['hgetdel', 'gd', 'FIELDS', 1], arity('hgetdel'));
    await run(['set', 'str', 'v']);
    await fails(['hgetdel', 'str', 'x', 1, 'a'], WRONGTYPE);
  });

  it('HGETEX answers fields and sets, or with PERSIST removes, their TTLs (doc example)', async () => {
    await reply(['hset', 'gx', 'field1', 'Hello', 'field2', 'World'], 2);
    await reply(['hgetex', 'gx', 'EX', 120, 'FIELDS', 1, 'field1'], ['Hello']);
    await reply(['hgetex', 'gx', 'EX', 100, 'FIELDS', 1, 'field2'], ['World']);
    const ttls: number[] = await run(['httl', 'gx', 'FIELDS', 3, 'field1', 'field2', 'field3']);
    assert.ok(ttls[0] > 100 && ttls[0] <= 120 && ttls[1] > 80 && ttls[1] <= 100 && ttls[2] === -2, String(ttls));
    await reply(['hgetex', 'gx', 'FIELDS', 2, 'field1', 'nope'], ['Hello', null]);
    await reply(['hgetex', 'gx', 'PERSIST', 'FIELDS', 1, 'field1'], ['Hello']);
    await reply(['httl', 'gx', 'FIELDS', 1, 'field1'], [-1]);
    await reply(['hgetex', 'gx', 'EXAT', LATER, 'FIELDS', 1, 'field1'], ['Hello']);
    await reply(['hgetex', 'gx', 'pxat', LATER * 1000 + 7, 'FIELDS', 1, 'field2'], ['World']);
    await reply(['hpexpiretime', 'gx', 'FIELDS', 2, 'field1', 'field2'], [LATER * 1000, LATER * 1000 + 7]);
    await reply(['hgetex', 'gx', 'PX', 1, 'FIELDS', 1, 'nope'], [null]);
    // A zero TTL answers the values and deletes the fields, then the key.
    await reply(['hgetex', 'gx', 'EX', 0, 'FIELDS', 2, 'field1', 'field2'], ['Hello', 'World']);
    await reply(['exists', 'gx'], 0);
    await reply(['hgetex', 'gx', 'EX', 10, 'FIELDS', 1, 'field1'], [null]);
    await run(['hset', 'gx', 'a', '1']);
    await fails(['hgetex', 'gx', 'EX', -1, 'FIELDS', 1, 'a'], 'ERR invalid expire time, must be >= 0');
    await fails(['hgetex', 'gx', 'EX', 'x', 'FIELDS', 1, 'a'], NOT_INTEGER);
    await fails(['hgetex', 'gx', 'EXAT', '9223372036854776', 'FIELDS', 1, 'a'], "ERR invalid expire time in 'hgetex' command");
    await fails(['hgetex', 'gx', 'EX', 10, 'PERSIST', 'FIELDS', 1, 'a'], FIELDS_MISSING);
    await fails(['hgetex', 'gx', 'KEEPTTL', 'FIELDS', 1, 'a'], FIELDS_MISSING);
    await fails(['hgetex', 'gx', 'FIELDS', 0, 'a'], NUMFIELDS);
    await fails(['hgetex', 'gx', 'FIELDS', 2, 'a'], MISMATCH);
    await fails(['hgetex', 'gx', 'EX', 10, 'FIELDS'], arity('hgetex'));
    await reply(['hgetall', 'gx'], ['a', '1']);
  });

  it('HSETEX sets fields with FNX or FXX, a TTL or KEEPTTL (doc example)', async () => {
    await reply(['hsetex', 'sx', 'EXAT', LATER, 'FIELDS', 2, 'field1', 'Hello', 'field2', 'World'], 1);
    await reply(['hexpiretime', 'sx', 'FIELDS', 2, 'field1', 'field2'], [LATER, LATER]);
    await reply(['hsetex', 'sx', 'FNX', 'EX', 60, 'FIELDS', 2, 'field1', 'Hello', 'field2', 'World'], 0);
    await reply(['hsetex', 'sx', 'FNX', 'FIELDS', 2, 'field1', 'x', 'field3', 'y'], 0);
    await reply(['hsetex', 'sx', 'FXX', 'FIELDS', 2, 'field1', 'x', 'field3', 'y'], 0);
    await reply(['hsetex', 'sx', 'FXX', 'KEEPTTL', 'FIELDS', 1, 'field1', 'hello'], 1);
    await reply(['hexpiretime', 'sx', 'FIELDS', 1, 'field1'], [LATER]);
    // Without an expiry option the TTL goes, as with HSET.
    await reply(['hsetex', 'sx', 'FIELDS', 2, 'field2', 'world', 'field3', '!'], 1);
    await reply(['hexpiretime', 'sx', 'FIELDS', 2, 'field2', 'field3'], [-1, -1]);
    await reply(['hsetex', 'sx', 'PX', 100000, 'FNX', 'FIELDS', 1, 'field4', 'v'], 1);
    const pttl: number[] = await run(['hpttl', 'sx', 'FIELDS', 1, 'field4']);
    assert.ok(pttl[0] > 90000 && pttl[0] <= 100000);
    await reply(['hgetall', 'sx'], ['field1', 'hello', 'field2', 'world', 'field3', '!', 'field4', 'v']);
    // A past time sets and at once deletes the fields.
    await reply(['hsetex', 'sx', 'PXAT', 1, 'FIELDS', 2, 'field1', 'a', 'field9', 'b'], 1);
    await reply(['hkeys', 'sx'], ['field2', 'field3', 'field4']);
    await reply(['hsetex', 'sx:none', 'FXX', 'FIELDS', 1, 'a', 'b'], 0);
    await reply(['exists', 'sx:none'], 0);
    await reply(['hsetex', 'sx:none', 'EX', 0, 'FIELDS', 1, 'a', 'b'], 1);
    await reply(['exists', 'sx:none'], 0);
  });

  it('HSETEX checks its arguments as Redis does', async () => {
    const only = 'ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified';
    await fails(['hsetex', 'se', 'FXX', 'EX', 60, 'KEEPTTL', 'FIELDS', 2, 'field1', 'hello', 'field2', 'world'], only);
    await fails(['hsetex', 'se', 'EX', 60, 'PX', 10, 'FIELDS', 1, 'a', 'b'], only);
    await fails(['hsetex', 'se', 'FNX', 'FXX', 'FIELDS', 1, 'a', 'b'], 'ERR Only one of FXX or FNX arguments can be specified');
    await fails(['hsetex', 'se', 'NX', 'FIELDS', 1, 'a', 'b'], 'ERR unknown argument: NX');
    await fails(['hsetex', 'se', 'EX', 'x', 'FIELDS', 1, 'a', 'b'], NOT_INTEGER);
    await fails(['hsetex', 'se', 'EX', -5, 'FIELDS', 1, 'a', 'b'], 'ERR invalid expire time, must be >= 0');
    await fails(['hsetex', 'se', 'PXAT', '9223372036854775808', 'FIELDS', 1, 'a', 'b'], NOT_INTEGER);
    await fails(['hsetex', 'se', 'EX', '9223372036854775', 'FIELDS', 1, 'a', 'b'], "ERR invalid expire time in 'hsetex' command");
    await fails(['hsetex', 'se', 'FIELDS', 0, 'a', 'b'], 'ERR invalid number of fields');
    await fails(['hsetex', 'se', 'FIELDS', 'x', 'a', 'b'], 'ERR invalid number of fields');
    await fails(['hsetex', 'se', 'FIELDS', 2, 'a', 'b'], arity('hsetex'));
    await fails(['hsetex', 'se', 'FIELDS', 1, 'a', 'b', 'c'], arity('hsetex'));
    await fails(['hsetex', 'se', 'FNX', 'FIELDS', 1, 'a'], arity('hsetex'));
    await fails(['hsetex', 'se', 'FIELDS', 1, 'a'], arity('hsetex'));
    await run(['set', 'str', 'v']);
    await fails(['hsetex', 'str', 'FIELDS', 1, 'a', 'b'], WRONGTYPE);
    // The arguments are read before the key.
    await fails(['hsetex', 'str', 'FOO', 'FIELDS', 1, 'a', 'b'], 'ERR unknown argument: FOO');
    await reply(['exists', 'se'], 0);
  });

  it('HSCAN NOVALUES answers the names only (Redis 7.4)', async () => {
    await run(['hset', 'nv', 'a', '1', 'b', '2']);
    await reply(['hscan', 'nv', 0, 'NOVALUES'], ['0', ['a', 'b']]);
    await reply(['hscan', 'nv', 0, 'match', 'b', 'novalues', 'count', 5], ['0', ['b']]);
  });

  it('declares flags, arities and ACL categories as Redis 8 does', () => {
    const expected: Record<string, [number, string]> = {
      hexpire: [-6, 'write'],
      hpexpire: [-6, 'write'],
      hexpireat: [-6, 'write'],
      hpexpireat: [-6, 'write'],
      httl: [-5, 'read'],
      hpttl: [-5, 'read'],
      hexpiretime: [-5, 'read'],
      hpexpiretime: [-5, 'read'],
      hpersist: [-5, 'write'],
      hgetdel: [-5, 'write'],
      hgetex: [-5, 'write'],
      hsetex: [-6, 'write'],
    };
    for (const [name, [n, access]] of Object.entries(expected)) {
      const cmd = TABLE.get(name)!;
      assert.equal(cmd.arity, n, name);
      for (const c of ['hash', 'fast', access]) assert.ok(cmd.categories.has(c), `${name} @${c}`);
    }
  });
});

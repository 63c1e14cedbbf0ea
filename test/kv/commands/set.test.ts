// The set family over HTTP, against a real Larder. Every expected reply and error text was
// taken from redis-server 7.0 given the same commands; where Redis answers in a defined order
// (an intset's ascending integers) the order is asserted too, elsewhere members are sorted.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysOf } from '../../../src/kv/commands/spec.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { replies, suiteLarder } from '../../support/larder.js';

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

describe('set commands over HTTP', () => {
  const t = suiteLarder();

  const result = (argv: (string | number)[]) => t.ok(argv);
  const { reply, fails } = replies(() => t);
  /** A reply listing members in no defined order. */
  const members = async (argv: (string | number)[], expected: string[]) =>
    assert.deepEqual([...(await result(argv))].sort(), [...expected].sort(), JSON.stringify(argv));

  it('SADD, SREM, SCARD, SISMEMBER and SMISMEMBER', async () => {
    await reply(['sadd', 'm:s', 'a', 'b', 'a', 'c'], 3);
    await reply(['sadd', 'm:s', 'a', 'd'], 1);
    await reply(['sadd', 'm:s', 'a'], 0);
    await reply(['scard', 'm:s'], 4);
    await reply(['scard', 'm:none'], 0);
    await reply(['sismember', 'm:s', 'a'], 1);
    await reply(['sismember', 'm:s', 'z'], 0);
    await reply(['sismember', 'm:none', 'a'], 0);
    await reply(['smismember', 'm:s', 'a', 'z', 'd', 'a'], [1, 0, 1, 1]);
    await reply(['smismember', 'm:none', 'a', 'b'], [0, 0]);
    await reply(['srem', 'm:s', 'a', 'z', 'a'], 1);
    await reply(['srem', 'm:none', 'a'], 0);
    await reply(['srem', 'm:s', 'b', 'c', 'd', 'e'], 3);
    await reply(['exists', 'm:s'], 0);
    // Members are byte strings: the empty one, NUL, and integers that are not canonical.
    await reply(['sadd', 'm:b', '', 'a\u0000b', '007', '7', '-0', '0'], 6);
    await reply(['smismember', 'm:b', '', 'a\u0000b', '7', '07'], [1, 1, 1, 0]);
    await members(['smembers', 'm:b'], ['', 'a\u0000b', '007', '7', '-0', '0']);
  });

  it('SMEMBERS lists an intset in ascending order, and other sets whole', async () => {
    await reply(['sadd', 'o:i', '3', '1', '-5', '2', '9223372036854775807', '-9223372036854775808'], 6);
    await reply(['smembers', 'o:i'], ['-9223372036854775808', '-5', '1', '2', '3', '9223372036854775807']);
    await reply(['sadd', 'o:h', 'b', '3', 'a', '1'], 4);
    await members(['smembers', 'o:h'], ['b', '3', 'a', '1']);
    await reply(['smembers', 'o:none'], []);
  });

  it('refuses another type with WRONGTYPE and wrong argument counts with Redis texts', async () => {
    await reply(['set', '{t}w:str', 'v'], 'OK');
    for (const argv of [
      ['sadd', '{t}w:str', 'a'], ['srem', '{t}w:str', 'a'], ['sismember', '{t}w:str', 'a'], ['smismember', '{t}w:str', 'a'],
      ['scard', '{t}w:str'], ['smembers', '{t}w:str'], ['spop', '{t}w:str'], ['spop', '{t}w:str', '0'], ['srandmember', '{t}w:str'],
      ['srandmember', '{t}w:str', '0'], ['sscan', '{t}w:str', '0'], ['sinter', '{t}w:none', '{t}w:str'], ['sunion', '{t}w:none', '{t}w:str'],
      ['sdiff', '{t}w:none', '{t}w:str'], ['sdiff', '{t}w:str', '{t}w:none'], ['sintercard', '2', '{t}w:none', '{t}w:str'],
      ['sinterstore', '{t}w:d', '{t}w:none', '{t}w:str'], ['smove', '{t}w:str', '{t}w:d', 'a'],
    ]) {
      await fails(argv, WRONGTYPE);
    }
    await reply(['get', '{t}w:str'], 'v');
    await reply(['exists', '{t}w:d'], 0);
    for (const [name, argv] of [
      ['sadd', ['sadd', 'k']], ['srem', ['srem', 'k']], ['smove', ['smove', 'a', 'b']], ['sismember', ['sismember', 'k']],
      ['smismember', ['smismember', 'k']], ['scard', ['scard']], ['smembers', ['smembers', 'a', 'b']], ['spop', ['spop']],
      ['srandmember', ['srandmember']], ['sinter', ['sinter']], ['sintercard', ['sintercard', '1']],
      ['sinterstore', ['sinterstore', 'd']], ['sunion', ['sunion']], ['sunionstore', ['sunionstore', 'd']], ['sdiff', ['sdiff']],
      ['sdiffstore', ['sdiffstore', 'd']], ['sscan', ['sscan', 'k']],
    ] as const) {
      await fails([...argv], `ERR wrong number of arguments for '${name}' command`);
    }
  });

  it('SMOVE moves a member, creating and deleting keys', async () => {
    await reply(['sadd', '{t}mv:a', 'x', 'y'], 2);
    await reply(['smove', '{t}mv:a', '{t}mv:b', 'x'], 1);
    await members(['smembers', '{t}mv:a'], ['y']);
    await members(['smembers', '{t}mv:b'], ['x']);
    await reply(['smove', '{t}mv:a', '{t}mv:b', 'nope'], 0);
    await reply(['smove', '{t}mv:none', '{t}mv:b', 'x'], 0);
    await reply(['sadd', '{t}mv:b', 'y'], 1);
    await reply(['smove', '{t}mv:a', '{t}mv:b', 'y'], 1);
    await reply(['exists', '{t}mv:a'], 0);
    await members(['smembers', '{t}mv:b'], ['x', 'y']);
    // The same key: 1 when the member is there, nothing changes.
    await reply(['smove', '{t}mv:b', '{t}mv:b', 'x'], 1);
    await reply(['smove', '{t}mv:b', '{t}mv:b', 'z'], 0);
    await reply(['scard', '{t}mv:b'], 2);
    // A missing source answers 0 before the destination's type is checked.
    await reply(['set', '{t}mv:str', 'v'], 'OK');
    await reply(['smove', '{t}mv:none', '{t}mv:str', 'x'], 0);
    await fails(['smove', '{t}mv:b', '{t}mv:str', 'x'], WRONGTYPE);
    await reply(['scard', '{t}mv:b'], 2);
  });

  it('SPOP takes one member, or count distinct members, deleting an emptied set', async () => {
    await reply(['sadd', 'p:s', 'a', 'b', 'c', 'd', 'e'], 5);
    const one = await result(['spop', 'p:s']);
    assert.ok(['a', 'b', 'c', 'd', 'e'].includes(one));
    await reply(['sismember', 'p:s', one], 0);
    const two: string[] = await result(['spop', 'p:s', '2']);
    assert.equal(new Set(two).size, 2);
    for (const m of two) await reply(['sismember', 'p:s', m], 0);
    await reply(['scard', 'p:s'], 2);
    await reply(['spop', 'p:s', '0'], []);
    await reply(['scard', 'p:s'], 2);
    const rest: string[] = await result(['spop', 'p:s', '10']);
    assert.deepEqual([...rest, ...two, one].sort(), ['a', 'b', 'c', 'd', 'e']);
    await reply(['exists', 'p:s'], 0);
    await reply(['spop', 'p:s'], null);
    await reply(['spop', 'p:s', '3'], []);
    await reply(['sadd', 'p:one', 'x'], 1);
    await reply(['spop', 'p:one'], 'x');
    await reply(['exists', 'p:one'], 0);
    // Taking everything answers the set as SUNION would: an intset in ascending order.
    await reply(['sadd', 'p:i', '3', '1', '2'], 3);
    await reply(['spop', 'p:i', '9223372036854775807'], ['1', '2', '3']);
    for (const count of ['-1', 'x', '1.5', '', '9223372036854775808']) {
      await fails(['spop', 'p:s', count], 'ERR value is out of range, must be positive');
    }
    await fails(['spop', 'p:s', '1', '2'], 'ERR syntax error');
  });

  it('SRANDMEMBER draws without changing the set, with Redis rules for counts', async () => {
    await reply(['sadd', 'r:s', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 10);
    const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    for (let n = 0; n < 20; n++) assert.ok(all.includes(await result(['srandmember', 'r:s'])));
    // Positive counts draw distinct members, both strategies (few of many, most of the set).
    for (const count of [1, 2, 3, 4, 7, 9]) {
      const drawn: string[] = await result(['srandmember', 'r:s', count]);
      assert.equal(drawn.length, count);
      assert.equal(new Set(drawn).size, count);
      assert.ok(drawn.every((m) => all.includes(m)));
    }
    await members(['srandmember', 'r:s', '10'], all);
    await members(['srandmember', 'r:s', '9223372036854775807'], all);
    // Negative counts draw that many, repeating members.
    await reply(['sadd', 'r:one', 'x'], 1);
    await reply(['srandmember', 'r:one', '-5'], ['x', 'x', 'x', 'x', 'x']);
    const many: string[] = await result(['srandmember', 'r:s', '-200']);
    assert.equal(many.length, 200);
    assert.ok(new Set(many).size < 200 && many.every((m) => all.includes(m)));
    await reply(['srandmember', 'r:s', '0'], []);
    await reply(['scard', 'r:s'], 10);
    await reply(['srandmember', 'r:none'], null);
    await reply(['srandmember', 'r:none', '5'], []);
    await reply(['srandmember', 'r:none', '-5'], []);
    await fails(['srandmember', 'r:s', 'x'], 'ERR value is not an integer or out of range');
    await fails(['srandmember', 'r:s', '9223372036854775808'], 'ERR value is not an integer or out of range');
    await fails(
      ['srandmember', 'r:s', '-9223372036854775808'],
      'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
    );
    await fails(['srandmember', 'r:s', '1', '2'], 'ERR syntax error');
    // The count is read before the key.
    await reply(['set', 'r:str', 'v'], 'OK');
    await fails(['srandmember', 'r:str', 'x'], 'ERR value is not an integer or out of range');
  });

  // Refused at admission, before the key is read: a remote Redis would build the reply, and the
  // gateway hold it whole.
  it("SRANDMEMBER refuses a negative count beyond 2^24 picks on every engine (Larder's one deviation, as HRANDFIELD's)", async () => {
    await reply(['sadd', 'r:big', 'a', 'b'], 2);
    for (const count of ['-16777217', '-100000000', '-9223372036854775807']) {
      await fails(['srandmember', 'r:big', count], 'ERR count is too large: at most 16777216 random elements are answered at once');
    }
    await fails(['srandmember', 'r:missing', '-100000000'], 'ERR count is too large: at most 16777216 random elements are answered at once');
    await reply(['srandmember', 'r:missing', '-16777216'], []);
  });

  it('SINTER, SUNION and SDIFF treat missing keys as empty sets', async () => {
    await reply(['sadd', '{t}a:1', 'a', 'b', 'c', '1', '2'], 5);
    await reply(['sadd', '{t}a:2', 'b', 'c', 'd', '2'], 4);
    await reply(['sadd', '{t}a:3', 'c', '2', '9'], 3);
    await members(['sinter', '{t}a:1', '{t}a:2'], ['b', 'c', '2']);
    await members(['sinter', '{t}a:1', '{t}a:2', '{t}a:3'], ['c', '2']);
    await members(['sinter', '{t}a:1'], ['a', 'b', 'c', '1', '2']);
    await members(['sinter', '{t}a:1', '{t}a:1'], ['a', 'b', 'c', '1', '2']);
    await reply(['sinter', '{t}a:1', '{t}a:none'], []);
    await members(['sunion', '{t}a:1', '{t}a:2', '{t}a:none'], ['a', 'b', 'c', 'd', '1', '2']);
    await reply(['sunion', '{t}a:none'], []);
    await members(['sdiff', '{t}a:1', '{t}a:2'], ['a', '1']);
    await members(['sdiff', '{t}a:1', '{t}a:2', '{t}a:3'], ['a', '1']);
    await members(['sdiff', '{t}a:1', '{t}a:none'], ['a', 'b', 'c', '1', '2']);
    await reply(['sdiff', '{t}a:1', '{t}a:1'], []);
    await reply(['sdiff', '{t}a:none', '{t}a:1'], []);
    // Results of integers come out as Redis's intset would list them.
    await reply(['sadd', '{t}a:i', '30', '10', '20'], 3);
    await reply(['sunion', '{t}a:i'], ['10', '20', '30']);
    await reply(['sdiff', '{t}a:i', '{t}a:none'], ['10', '20', '30']);
    await reply(['sinter', '{t}a:i', '{t}a:i'], ['10', '20', '30']);
  });

  it('SINTERCARD counts the intersection, up to LIMIT', async () => {
    await reply(['sadd', '{t}c:1', 'a', 'b', 'c', 'd', 'e'], 5);
    await reply(['sadd', '{t}c:2', 'b', 'c', 'd', 'e', 'f'], 5);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:2'], 4);
    await reply(['sintercard', '1', '{t}c:1'], 5);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:2', 'limit', '2'], 2);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:2', 'LIMIT', '0'], 4);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:2', 'limit', '100'], 4);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:2', 'limit', '1', 'limit', '3'], 3);
    await reply(['sintercard', '2', '{t}c:1', '{t}c:none'], 0);
    for (const numkeys of ['0', '-1', 'x', '9223372036854775808']) {
      await fails(['sintercard', numkeys, '{t}c:1'], 'ERR numkeys should be greater than 0');
    }
    await fails(['sintercard', '3', '{t}c:1', '{t}c:2'], "ERR Number of keys can't be greater than number of args");
    await fails(['sintercard', '1', '{t}c:1', 'limit', '-1'], "ERR LIMIT can't be negative");
    await fails(['sintercard', '1', '{t}c:1', 'limit', 'x'], "ERR LIMIT can't be negative");
    await fails(['sintercard', '1', '{t}c:1', 'limit'], 'ERR syntax error');
    await fails(['sintercard', '1', '{t}c:1', '{t}c:2'], 'ERR syntax error');
    // The keys are argv[2..2+numkeys), as ACL key patterns and cluster routing read them.
    assert.deepEqual(keysOf(TABLE.get('sintercard')!, ['sintercard', '2', 'x', 'y', 'limit', '1']), ['x', 'y']);
  });

  it('the STORE forms replace the destination, drop its TTL, and delete it when empty', async () => {
    await reply(['sadd', '{t}s:1', 'a', 'b', 'c'], 3);
    await reply(['sadd', '{t}s:2', 'b', 'c', 'd'], 3);
    await reply(['set', '{t}s:d', 'a string'], 'OK');
    await reply(['expire', '{t}s:d', '1000'], 1);
    await reply(['sinterstore', '{t}s:d', '{t}s:1', '{t}s:2'], 2);
    await members(['smembers', '{t}s:d'], ['b', 'c']);
    await reply(['ttl', '{t}s:d'], -1);
    await reply(['sunionstore', '{t}s:d', '{t}s:1', '{t}s:2'], 4);
    await members(['smembers', '{t}s:d'], ['a', 'b', 'c', 'd']);
    await reply(['sdiffstore', '{t}s:d', '{t}s:1', '{t}s:2'], 1);
    await members(['smembers', '{t}s:d'], ['a']);
    // A source may be the destination.
    await reply(['sunionstore', '{t}s:1', '{t}s:1', '{t}s:2'], 4);
    await members(['smembers', '{t}s:1'], ['a', 'b', 'c', 'd']);
    for (const argv of [
      ['sinterstore', '{t}s:d', '{t}s:1', '{t}s:none'],
      ['sunionstore', '{t}s:d', '{t}s:none'],
      ['sdiffstore', '{t}s:d', '{t}s:1', '{t}s:1'],
    ]) {
      await reply(['set', '{t}s:d', 'v'], 'OK');
      await reply(argv, 0);
      await reply(['exists', '{t}s:d'], 0);
    }
    await reply(['sinterstore', '{t}s:d', '{t}s:none'], 0);
    await reply(['exists', '{t}s:d'], 0);
  });
});

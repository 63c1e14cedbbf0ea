// The sorted-set family over HTTP, against a real Larder: adding, reading, ranges and
// removals. Every expected reply and error text was taken from redis-server 7.0.15 given the
// same commands (ZRANK WITHSCORE from the Redis 7.2 documentation). The set algebra, pops,
// random picks, scans and large sets are in zset-more.test.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

describe('sorted-set commands over HTTP', () => {
  const t = suiteLarder();

  const { reply, fails } = replies(() => t);
  const all = (key: string) => t.command(['zrange', key, 0, -1, 'withscores']).then((r) => r.body.result);

  const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
  const NOT_FLOAT = 'ERR value is not a valid float';
  const SYNTAX = 'ERR syntax error';
  const NOT_INTEGER = 'ERR value is not an integer or out of range';

  it('ZADD adds and re-scores, with CH, NX, XX, GT and LT', async () => {
    await reply(['zadd', 'a:z', 1, 'a', 2, 'b', 3, 'c'], 3);
    await reply(['zadd', 'a:z', 'ch', 1, 'a', 5, 'b', 7, 'd'], 2);
    await reply(['zadd', 'a:z', 'nx', 9, 'a', 9, 'e'], 1);
    await reply(['zadd', 'a:z', 'xx', 10, 'a', 10, 'f'], 0);
    await reply(['zadd', 'a:z', 'gt', 'ch', 0, 'a', 20, 'a'], 1);
    await reply(['zadd', 'a:z', 'LT', 'CH', 30, 'b', 1, 'b'], 1);
    await reply(['zrange', 'a:z', 0, -1, 'withscores'], ['b', '1', 'c', '3', 'd', '7', 'e', '9', 'a', '20']);
    await reply(['zadd', 'a:z', 'xx', 'gt', 3, 'c', 30, 'new'], 0);
    await reply(['zscore', 'a:z', 'new'], null);
    // GT and LT only hold back updates: new members are added.
    await reply(['zadd', 'a:z', 'gt', 1, 'g'], 1);
    await reply(['zadd', 'a:none', 'xx', 1, 'a'], 0);
    await reply(['exists', 'a:none'], 0);
  });

  it('ZADD INCR and ZINCRBY reply the new score, nil when held back', async () => {
    await reply(['zadd', 'i:z', 10, 'a'], 1);
    await reply(['zadd', 'i:z', 'incr', 5, 'a'], '15');
    await reply(['zadd', 'i:z', 'gt', 'incr', -5, 'a'], null);
    await reply(['zadd', 'i:z', 'lt', 'incr', -5, 'a'], '10');
    await reply(['zadd', 'i:z', 'nx', 'incr', 1, 'a'], null);
    await reply(['zadd', 'i:z', 'xx', 'incr', 1, 'missing'], null);
    await reply(['zadd', 'i:none', 'xx', 'incr', 1, 'a'], null);
    await reply(['zadd', 'i:z', 'incr', '0.1', 'c'], '0.10000000000000001');
    await reply(['zincrby', 'i:z', 3, 'c'], '3.1000000000000001');
    await reply(['zincrby', 'i:z', '-inf', 'd'], '-inf');
    await reply(['zscore', 'i:z', 'd'], '-inf');
  });

  it('ZADD and ZINCRBY refuse bad options, pairs and scores before touching the key', async () => {
    await fails(['zadd', 'e:z', 'nx', 'xx', 1, 'a'], 'ERR XX and NX options at the same time are not compatible');
    for (const opts of [['gt', 'lt'], ['nx', 'gt'], ['lt', 'nx']]) {
      await fails(['zadd', 'e:z', ...opts, 1, 'a'], 'ERR GT, LT, and/or NX options at the same time are not compatible');
    }
    await fails(['zadd', 'e:z', 'incr', 1, 'a', 2, 'b'], 'ERR INCR option supports a single increment-element pair');
    await fails(['zadd', 'e:z', 1, 'a', 2], SYNTAX);
    await fails(['zadd', 'e:z', 'nx', 1], SYNTAX);
    await fails(['zadd', 'e:z', 1], "ERR wrong number of arguments for 'zadd' command");
    for (const bad of ['x', 'nan', '', ' 1', '1 ', '1e400', '1e-400', '(1']) await fails(['zadd', 'e:z', bad, 'a'], NOT_FLOAT);
    await fails(['zadd', 'e:z', 1, 'a', 'x', 'b'], NOT_FLOAT);
    await reply(['exists', 'e:z'], 0);
    await fails(['zincrby', 'e:z', 'x', 'a'], NOT_FLOAT);
    await fails(['zincrby', 'e:z', 'nx', 'a'], SYNTAX);
    await reply(['set', 'e:str', 'v'], 'OK');
    await fails(['zadd', 'e:str', 1, 'a'], WRONGTYPE);
    await fails(['zadd', 'e:str', 'x', 'a'], NOT_FLOAT);
    await fails(['zincrby', 'e:str', 1, 'a'], WRONGTYPE);
  });

  it('an increment that meets inf and -inf is NaN: refused, nothing changes', async () => {
    await reply(['zadd', 'n:z', 'inf', 'a'], 1);
    await fails(['zadd', 'n:z', 'incr', '-inf', 'a'], 'ERR resulting score is not a number (NaN)');
    await fails(['zincrby', 'n:z', '-inf', 'a'], 'ERR resulting score is not a number (NaN)');
    await reply(['zscore', 'n:z', 'a'], 'inf');
  });

  it('scores read as strtod reads them and print as %.17g', async () => {
    const cases: [string, string][] = [
      ['0.1', '0.10000000000000001'],
      ['1e20', '1e+20'],
      ['1e16', '10000000000000000'],
      ['123456789012345678', '1.2345678901234568e+17'],
      ['1.5e-7', '1.4999999999999999e-07'],
      ['0.0001', '0.0001'],
      ['-2.5', '-2.5'],
      ['2.98023223876953125e-08', '2.9802322387695312e-08'], // a tie, rounded to even
      ['0x10', '16'],
      ['0x1p-3', '0.125'],
      ['+inf', 'inf'],
      ['-Infinity', '-inf'],
      ['5e-324', '4.9406564584124654e-324'],
      ['1.7976931348623157e308', '1.7976931348623157e+308'],
    ];
    for (const [text, printed] of cases) {
      await reply(['zadd', 'p:z', text, 'm'], 1);
      await reply(['zscore', 'p:z', 'm'], printed);
      await reply(['zrange', 'p:z', 0, -1, 'withscores'], ['m', printed]);
      await reply(['del', 'p:z'], 1);
    }
  });

  it('a listpack stores -0 as 0; a skip list keeps -0; a computed -0 prints "-0"', async () => {
    await reply(['zadd', 'z0:small', '-0', 'm'], 1);
    await reply(['zscore', 'z0:small', 'm'], '0');
    await reply(['zincrby', 'z0:new', '-0', 'm'], '-0');
    await reply(['zscore', 'z0:new', 'm'], '0');
    const long = 'x'.repeat(65);
    await reply(['zadd', 'z0:big', 1, long, '-0', 'm'], 2);
    await reply(['object', 'encoding', 'z0:big'], 'skiplist');
    await reply(['zscore', 'z0:big', 'm'], '-0');
    await reply(['zadd', 'z0:w', 5, 'a'], 1);
    await reply(['zunion', 1, 'z0:w', 'weights', '-0', 'withscores'], ['a', '-0']);
  });

  it('ZCARD, ZSCORE and ZMSCORE', async () => {
    await reply(['zadd', 'r:z', 1, 'a', '2.5', 'b'], 2);
    await reply(['zcard', 'r:z'], 2);
    await reply(['zcard', 'r:none'], 0);
    await reply(['zscore', 'r:z', 'b'], '2.5');
    await reply(['zscore', 'r:z', 'x'], null);
    await reply(['zscore', 'r:none', 'x'], null);
    await reply(['zmscore', 'r:z', 'a', 'x', 'b'], ['1', null, '2.5']);
    await reply(['zmscore', 'r:none', 'a', 'b'], [null, null]);
    await reply(['set', 'r:str', 'v'], 'OK');
    for (const argv of [['zcard', 'r:str'], ['zscore', 'r:str', 'a'], ['zmscore', 'r:str', 'a']]) await fails(argv, WRONGTYPE);
    await fails(['zmscore', 'r:z'], "ERR wrong number of arguments for 'zmscore' command");
  });

  embeddedOnly('Redis 7.0 lacks WITHSCORE (7.2)')('ZRANK and ZREVRANK, with WITHSCORE (Redis 7.2)', async () => {
    await reply(['zadd', 'k:z', 1, 'a', 2, 'b', 3, 'c'], 3);
    await reply(['zrank', 'k:z', 'a'], 0);
    await reply(['zrank', 'k:z', 'c'], 2);
    await reply(['zrevrank', 'k:z', 'a'], 2);
    await reply(['zrank', 'k:z', 'x'], null);
    await reply(['zrank', 'k:none', 'x'], null);
    await reply(['zrank', 'k:z', 'b', 'withscore'], [1, '2']);
    await reply(['zrevrank', 'k:z', 'c', 'WITHSCORE'], [0, '3']);
    await reply(['zrank', 'k:z', 'x', 'withscore'], null);
    await fails(['zrank', 'k:z', 'b', 'withscores'], SYNTAX);
    await fails(['zrank', 'k:z', 'b', 'withscore', 'x'], "ERR wrong number of arguments for 'zrank' command");
    await fails(['zrevrank', 'k:z'], "ERR wrong number of arguments for 'zrevrank' command");
    await reply(['set', 'k:str', 'v'], 'OK');
    await fails(['zrank', 'k:str', 'a'], WRONGTYPE);
  });

  it('ZCOUNT reads score bounds as Redis does', async () => {
    await reply(['zadd', 'c:z', 1, 'a', 2, 'b', 3, 'c', 'inf', 'd', '-inf', 'e'], 5);
    await reply(['zcount', 'c:z', '-inf', '+inf'], 5);
    await reply(['zcount', 'c:z', '(1', 3], 2);
    await reply(['zcount', 'c:z', '(1', '(3'], 1);
    await reply(['zcount', 'c:z', 3, 1], 0);
    await reply(['zcount', 'c:z', '(2', 2], 0);
    await reply(['zcount', 'c:z', '(inf', 'inf'], 0);
    await reply(['zcount', 'c:z', 'inf', 'inf'], 1);
    // strtod's leniency: an empty bound or a lone "(" reads 0, leading spaces and hex pass,
    // overflow reads inf, and C stops at a NUL byte.
    await reply(['zcount', 'c:z', '', 1], 1);
    await reply(['zcount', 'c:z', '(', 2], 2);
    await reply(['zcount', 'c:z', ' 1', '0x2'], 2);
    await reply(['zcount', 'c:z', '1e999', '+inf'], 1);
    await reply(['zcount', 'c:z', '1\u0000zz', 2], 2);
    for (const bad of ['x', 'nan', '(nan', '1 ', '1x']) await fails(['zcount', 'c:z', bad, 2], 'ERR min or max is not a float');
    await reply(['zcount', 'c:none', 0, 1], 0);
    await reply(['set', 'c:str', 'v'], 'OK');
    await fails(['zcount', 'c:str', 0, 1], WRONGTYPE);
    await fails(['zcount', 'c:str', 'x', 1], 'ERR min or max is not a float');
  });

  it('ZLEXCOUNT reads lex bounds as Redis does', async () => {
    await reply(['zadd', 'x:z', 0, 'a', 0, 'b', 0, 'c', 0, 'd'], 4);
    await reply(['zlexcount', 'x:z', '-', '+'], 4);
    await reply(['zlexcount', 'x:z', '(a', '[c'], 2);
    await reply(['zlexcount', 'x:z', '[b', '(b'], 0);
    await reply(['zlexcount', 'x:z', '-', '-'], 0);
    await reply(['zlexcount', 'x:z', '+', '-'], 0);
    await reply(['zlexcount', 'x:z', '[', '(c'], 2);
    await reply(['zlexcount', 'x:z', '-\u0000', '+\u0000x'], 4);
    for (const bad of ['a', '', '+x', '--']) {
      await fails(['zlexcount', 'x:z', bad, '+'], 'ERR min or max not valid string range item');
    }
  });

  it('ZRANGE by index, with REV and WITHSCORES', async () => {
    await reply(['zadd', 'g:z', 1, 'a', 2, 'b', 3, 'c', 4, 'd', 5, 'e'], 5);
    await reply(['zrange', 'g:z', 1, 3], ['b', 'c', 'd']);
    await reply(['zrange', 'g:z', 0, -1, 'rev'], ['e', 'd', 'c', 'b', 'a']);
    await reply(['zrange', 'g:z', -2, -1, 'withscores'], ['d', '4', 'e', '5']);
    await reply(['zrange', 'g:z', 5, 10], []);
    await reply(['zrange', 'g:z', -100, 0], ['a']);
    await reply(['zrange', 'g:z', '9223372036854775807', '-9223372036854775808'], []);
    await reply(['zrevrange', 'g:z', 0, 1, 'withscores'], ['e', '5', 'd', '4']);
    await reply(['zrange', 'g:none', 0, -1], []);
    await fails(['zrange', 'g:z', 'a', 1], NOT_INTEGER);
    await fails(['zrange', 'g:z', 0, 1, 'byscore', 'bylex'], SYNTAX);
    await fails(['zrange', 'g:z', 0, 1, 'rev', 'rev'], SYNTAX);
    await fails(['zrevrange', 'g:z', 0, 1, 'rev'], SYNTAX);
    await fails(['zrevrange', 'g:z', 0, 1, 'limit', 0, 1], 'ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
    await reply(['set', 'g:str', 'v'], 'OK');
    await fails(['zrange', 'g:str', 0, 1], WRONGTYPE);
    await fails(['zrange', 'g:str', 'x', 1], NOT_INTEGER);
  });

  embeddedOnly('Upstash behaviour, Redis differs: ZRANGE LIMIT by index')('ZRANGE pages an index range with LIMIT, as Upstash allows (Redis refuses it)', async () => {
    await reply(['zadd', 'gl:z', 1, 'a', 2, 'b', 3, 'c', 4, 'd', 5, 'e'], 5);
    await reply(['zrange', 'gl:z', 0, -1, 'limit', 1, 2], ['b', 'c']);
    await reply(['zrange', 'gl:z', 0, -1, 'rev', 'limit', 0, 2, 'withscores'], ['e', '5', 'd', '4']);
    await reply(['zrange', 'gl:z', 1, 3, 'limit', 1, -5], ['c', 'd']);
    await reply(['zrange', 'gl:z', 0, -1, 'limit', -1, 2], []);
    await reply(['zrange', 'gl:z', 0, 1, 'limit', 0, -1], ['a', 'b']); // "-1" is no LIMIT, as in Redis
    await reply(['zrangestore', 'gl:dst', 'gl:z', 0, -1, 'limit', 3, 10], 2);
    await reply(['zrange', 'gl:dst', 0, -1], ['d', 'e']);
  });

  it('ZRANGE BYSCORE and the older score ranges, with LIMIT', async () => {
    await reply(['zadd', 's:z', 1, 'a', 2, 'b', 3, 'c', 4, 'd', 5, 'e'], 5);
    await reply(['zrange', 's:z', '(1', 3, 'byscore'], ['b', 'c']);
    await reply(['zrange', 's:z', 4, '(2', 'byscore', 'rev', 'limit', 1, 5], ['c']);
    await reply(['zrangebyscore', 's:z', '-inf', '+inf', 'limit', 1, 2, 'withscores'], ['b', '2', 'c', '3']);
    await reply(['zrevrangebyscore', 's:z', '+inf', '-inf', 'limit', 0, 2], ['e', 'd']);
    await reply(['zrangebyscore', 's:z', 1, 5, 'limit', -1, 2], []);
    await reply(['zrangebyscore', 's:z', 1, 5, 'limit', 2, -1], ['c', 'd', 'e']);
    await reply(['zrangebyscore', 's:z', 1, 5, 'limit', 5, 1], []);
    await reply(['zrangebyscore', 's:z', 1, 5, 'limit', 0, 0], []);
    await fails(['zrangebyscore', 's:z', 'a', 1], 'ERR min or max is not a float');
    await fails(['zrangebyscore', 's:z', 1, 2, 'limit', 'x', 1], NOT_INTEGER);
    await fails(['zrangebyscore', 's:z', 'x', 2, 'limit', 'x', 1], NOT_INTEGER); // options are read first
    await fails(['zrangebyscore', 's:z', 1, 2, 'rev'], SYNTAX);
    await fails(['zrangebyscore', 's:z', 1, 2, 'limit', 1], SYNTAX);
  });

  it('ZRANGE BYLEX and the older lex ranges', async () => {
    await reply(['zadd', 'l:z', 0, 'a', 0, 'b', 0, 'c', 0, 'd'], 4);
    await reply(['zrangebylex', 'l:z', '-', '+'], ['a', 'b', 'c', 'd']);
    await reply(['zrange', 'l:z', '[d', '(a', 'bylex', 'rev', 'limit', 0, 2], ['d', 'c']);
    await reply(['zrevrangebylex', 'l:z', '+', '-', 'limit', 1, 1], ['c']);
    await reply(['zrangebylex', 'l:z', '[aa', '(c'], ['b']);
    await fails(['zrangebylex', 'l:z', 'a', 'b'], 'ERR min or max not valid string range item');
    await fails(['zrangebylex', 'l:z', '[a', '[c', 'withscores'], 'ERR syntax error, WITHSCORES not supported in combination with BYLEX');
    await fails(['zrange', 'l:z', '[a', '[c', 'bylex', 'withscores'], 'ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  });

  it('ZRANGESTORE stores the range with scores, replaces the destination, and deletes it when empty', async () => {
    await reply(['zadd', '{t}st:z', 1, 'a', 2, 'b', 3, 'c'], 3);
    await reply(['set', '{t}st:dst', 'old', 'ex', 100], 'OK');
    await reply(['zrangestore', '{t}st:dst', '{t}st:z', 1, '+inf', 'byscore', 'limit', 1, 5], 2);
    await reply(['zrange', '{t}st:dst', 0, -1, 'withscores'], ['b', '2', 'c', '3']);
    await reply(['ttl', '{t}st:dst'], -1);
    await reply(['zrangestore', '{t}st:dst', '{t}st:z', '[b', '+', 'bylex'], 2);
    await reply(['zrangestore', '{t}st:dst', '{t}st:z', 5, 10], 0);
    await reply(['exists', '{t}st:dst'], 0);
    await reply(['zrangestore', '{t}st:dst', '{t}st:none', 0, -1], 0);
    await fails(['zrangestore', '{t}st:dst', '{t}st:z', 0, 1, 'withscores'], SYNTAX);
    await reply(['set', '{t}st:str', 'v'], 'OK');
    await fails(['zrangestore', '{t}st:dst', '{t}st:str', 0, 1], WRONGTYPE);
    await reply(['zrangestore', '{t}st:str', '{t}st:z', 0, 0], 1);
    await reply(['type', '{t}st:str'], 'zset');
  });

  it('ZREM and ZREMRANGEBYRANK, BYSCORE and BYLEX; an emptied set loses its key', async () => {
    await reply(['zadd', 'm:z', 1, 'a', 2, 'b', 3, 'c', 4, 'd', 5, 'e', 6, 'f'], 6);
    await reply(['zrem', 'm:z', 'a', 'x', 'a'], 1);
    await reply(['zremrangebyrank', 'm:z', 0, 0], 1);
    await reply(['zremrangebyrank', 'm:z', -1, -1], 1);
    await reply(['zremrangebyrank', 'm:z', 5, 10], 0);
    await reply(['zremrangebyscore', 'm:z', '(3', 4], 1);
    assert.deepEqual(await all('m:z'), ['c', '3', 'e', '5']);
    await reply(['zremrangebyscore', 'm:z', '-inf', '+inf'], 2);
    await reply(['exists', 'm:z'], 0);
    await reply(['zadd', 'm:l', 0, 'a', 0, 'b', 0, 'c'], 3);
    await reply(['zremrangebylex', 'm:l', '(a', '+'], 2);
    await reply(['zrem', 'm:l', 'a'], 1);
    await reply(['exists', 'm:l'], 0);
    await reply(['zrem', 'm:none', 'a'], 0);
    await reply(['zremrangebyrank', 'm:none', 0, -1], 0);
    await fails(['zremrangebyrank', 'm:none', 'x', 1], NOT_INTEGER);
    await fails(['zremrangebyscore', 'm:none', 'x', 1], 'ERR min or max is not a float');
    await fails(['zremrangebylex', 'm:none', 'x', '+'], 'ERR min or max not valid string range item');
    await reply(['set', 'm:str', 'v'], 'OK');
    await fails(['zrem', 'm:str', 'a'], WRONGTYPE);
    await fails(['zremrangebyrank', 'm:str', 0, 1], WRONGTYPE);
  });

  it('OBJECT ENCODING follows Redis: listpack up to 128 members of 64 bytes', async () => {
    await reply(['zadd', '{t}o:z', 1, 'x'.repeat(64)], 1);
    await reply(['object', 'encoding', '{t}o:z'], 'listpack');
    await reply(['zadd', '{t}o:z', 1, 'x'.repeat(65)], 1);
    await reply(['object', 'encoding', '{t}o:z'], 'skiplist');
    await reply(['zrem', '{t}o:z', 'x'.repeat(65)], 1);
    await reply(['object', 'encoding', '{t}o:z'], 'skiplist'); // never converts back
    const pairs = Array.from({ length: 128 }, (_, i) => [i, `m${i}`]).flat();
    await reply(['zadd', '{t}o:n', ...pairs], 128);
    await reply(['object', 'encoding', '{t}o:n'], 'listpack');
    await reply(['zadd', '{t}o:n', 0, 'one-more'], 1);
    await reply(['object', 'encoding', '{t}o:n'], 'skiplist');
    await reply(['type', '{t}o:n'], 'zset');
    await reply(['zunionstore', '{t}o:u', 1, '{t}o:z'], 1);
    await reply(['object', 'encoding', '{t}o:u'], 'listpack'); // a computed set is sized as a whole
  });
});

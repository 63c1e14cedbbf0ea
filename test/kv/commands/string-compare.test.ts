// Redis 8.4's compare-and-write string commands, as Upstash documents them: DIGEST (XXH3, 16 hex
// digits), DELEX with IFEQ/IFNE/IFDEQ/IFDNE, SET's comparing conditions and MSETEX; and that
// what they wrote comes back after a restart either way. Redis 7.0, the suite's oracle, has none
// of them, so the expectations are the pages' and the run is on the embedded engine.

import assert from 'node:assert/strict';
import { after, describe } from 'node:test';
import { embeddedOnly, replies, suiteLarder, type TestLarder } from '../../support/larder.js';
import { RESTART_WAYS, restartWith } from '../../support/restarts.js';

const only = embeddedOnly('Redis 7.0 lacks DIGEST, DELEX, MSETEX and SET IFEQ (Redis 8.4)');
const SYNTAX = 'ERR syntax error';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

describe('compare-and-write on strings', () => {
  const t = suiteLarder();
  const { reply, fails } = replies(() => t);

  only('DIGEST is XXH3 of the bytes, null for a missing key', async () => {
    await reply(['set', 'd:empty', ''], 'OK');
    // XXH3-64 of no bytes, the reference value of its specification.
    await reply(['digest', 'd:empty'], '2d06800538d394c2');
    await reply(['set', 'd:a', 'same'], 'OK');
    await reply(['set', 'd:b', 'same'], 'OK');
    const digest = await t.ok(['digest', 'd:a']);
    assert.match(digest, /^[0-9a-f]{16}$/);
    await reply(['digest', 'd:b'], digest);
    await reply(['append', 'd:b', '!'], 5);
    assert.notEqual(await t.ok(['digest', 'd:b']), digest);
    await reply(['digest', 'd:missing'], null);
    await reply(['rpush', 'd:list', 'x'], 1);
    await fails(['digest', 'd:list'], WRONGTYPE);
  });

  only('DELEX deletes only while the condition holds: the way to release a lock', async () => {
    await reply(['set', 'lock', 'worker-1', 'NX', 'PX', '60000'], 'OK');
    await reply(['delex', 'lock', 'IFEQ', 'worker-2'], 0);
    await reply(['delex', 'lock', 'IFNE', 'worker-1'], 0);
    await reply(['exists', 'lock'], 1);
    await reply(['delex', 'lock', 'IFEQ', 'worker-1'], 1);
    await reply(['exists', 'lock'], 0);
    await reply(['delex', 'lock', 'IFEQ', 'worker-1'], 0);

    await reply(['set', 'big', 'x'.repeat(5000)], 'OK');
    const digest = await t.ok(['digest', 'big']);
    await reply(['delex', 'big', 'IFDNE', digest], 0);
    await reply(['delex', 'big', 'IFDEQ', digest.toUpperCase()], 1);
    await reply(['set', 'big', 'y'], 'OK');
    await reply(['delex', 'big', 'IFDNE', digest], 1);

    // Without a condition any type goes; with one the key must hold a string.
    await reply(['rpush', 'dl:list', 'x'], 1);
    await fails(['delex', 'dl:list', 'IFEQ', 'x'], WRONGTYPE);
    await reply(['delex', 'dl:list'], 1);
    await reply(['delex', 'dl:list'], 0);
    await fails(['delex', 'k', 'IFEQ'], SYNTAX);
    await fails(['delex', 'k', 'IFXX', 'v'], SYNTAX);
    await fails(['delex', 'k', 'IFDEQ', 'abc'], 'ERR digest must be 16 hexadecimal characters, as DIGEST gives it');
  });

  only('SET IFEQ, IFNE, IFDEQ and IFDNE: compare and set in one command', async () => {
    // IFEQ and IFDEQ need the key; IFNE and IFDNE also write without it.
    await reply(['set', 'c:k', 'v1', 'IFEQ', 'v0'], null);
    await reply(['exists', 'c:k'], 0);
    await reply(['set', 'c:k', 'v1', 'IFNE', 'v0'], 'OK');
    await reply(['set', 'c:k', 'v2', 'IFNE', 'v1'], null);
    await reply(['set', 'c:k', 'v2', 'IFEQ', 'v1', 'EX', '100'], 'OK');
    assert.ok((await t.ok(['ttl', 'c:k'])) > 90);
    // GET answers the old value whether or not the write went ahead (as with NX).
    await reply(['set', 'c:k', 'v3', 'IFEQ', 'nope', 'GET'], 'v2');
    await reply(['get', 'c:k'], 'v2');
    const digest = await t.ok(['digest', 'c:k']);
    await reply(['set', 'c:k', 'v3', 'GET', 'IFDEQ', digest, 'KEEPTTL'], 'v2');
    assert.ok((await t.ok(['ttl', 'c:k'])) > 90);
    await reply(['set', 'c:k', 'v4', 'IFDNE', digest], 'OK');
    await reply(['set', 'c:new', 'v', 'IFDNE', digest], 'OK');
    await reply(['get', 'c:k'], 'v4');

    await reply(['rpush', 'c:list', 'x'], 1);
    await fails(['set', 'c:list', 'v', 'IFNE', 'x'], WRONGTYPE);
    await fails(['set', 'c:k', 'v', 'NX', 'IFEQ', 'v4'], SYNTAX);
    await fails(['set', 'c:k', 'v', 'IFEQ', 'a', 'IFNE', 'b'], SYNTAX);
  });

  only('MSETEX writes every pair with one expiry, or none when NX or XX fails for one key', async () => {
    await reply(['msetex', '2', 'm:a', '1', 'm:b', '2', 'NX', 'EX', '60'], 1);
    await reply(['mget', 'm:a', 'm:b'], ['1', '2']);
    assert.equal(await t.ok(['ttl', 'm:b']), 60);
    await reply(['msetex', '2', 'm:a', 'x', 'm:c', 'x', 'NX'], 0);
    await reply(['msetex', '2', 'm:a', 'x', 'm:c', 'x', 'XX'], 0);
    await reply(['mget', 'm:a', 'm:c'], ['1', null]);
    // Options in any order; KEEPTTL keeps each key's own; none drops it, as MSET.
    await reply(['msetex', '1', 'm:a', '10', 'KEEPTTL', 'XX'], 1);
    assert.equal(await t.ok(['ttl', 'm:a']), 60);
    await reply(['msetex', '2', 'm:a', '11', 'm:c', '12'], 1);
    await reply(['ttl', 'm:a'], -1);
    // A deadline already past deletes the keys, and answers 1.
    await reply(['msetex', '2', 'm:a', '1', 'm:b', '2', 'PXAT', '1'], 1);
    await reply(['exists', 'm:a', 'm:b', 'm:c'], 1);

    await fails(['msetex', '0', 'm:a', '1'], 'ERR numkeys should be greater than 0');
    await fails(['msetex', 'two', 'm:a', '1'], 'ERR value is not an integer or out of range');
    await fails(['msetex', '2', 'm:a', '1', 'm:b'], "ERR Number of keys can't be greater than number of args");
    await fails(['msetex', '1', 'm:a', '1', 'NX', 'XX'], SYNTAX);
    await fails(['msetex', '1', 'm:a', '1', 'EX', '10', 'PX', '10'], SYNTAX);
    await fails(['msetex', '1', 'm:a', '1', 'EX', '0'], "ERR invalid expire time in 'msetex' command");
  });
});

describe('compare-and-write across restarts', () => {
  const open: TestLarder[] = [];
  after(async () => Promise.all(open.map((t) => t.close())));

  const writes = [
    ['set', 'lock', 'w1'],
    ['delex', 'lock', 'IFEQ', 'w1'],
    ['set', 'cas', 'v1'],
    ['set', 'cas', 'v2', 'IFEQ', 'v1'],
    ['set', 'cas', 'v3', 'IFEQ', 'v1'],
    ['msetex', '2', 'pair:a', '1', 'pair:b', '2', 'NX', 'EX', '600'],
    ['msetex', '1', 'pair:a', '3', 'XX', 'KEEPTTL'],
  ];
  const state = async (t: TestLarder) => ({
    values: await t.ok(['mget', 'lock', 'cas', 'pair:a', 'pair:b']),
    timed: (await t.ok(['ttl', 'pair:a'])) > 500 && (await t.ok(['ttl', 'pair:b'])) > 500,
  });

  for (const way of RESTART_WAYS) {
    only(`keeps what they wrote, ${way.how}`, async () => {
      const { server, before } = await restartWith(way, writes, state);
      open.push(server);
      assert.deepEqual(before, { values: [null, 'v2', '3', '2'], timed: true });
    });
  }
});

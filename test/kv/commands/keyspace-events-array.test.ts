// Keyspace notifications of arrays (Upstash's AR* commands), read through the official SDK's
// psubscribe. Upstash modelled arrays on Redis 8.8's native type and no redis-server here has it,
// so the events follow Redis's source, src/t_array.c: each write publishes its own name in the
// array class (NOTIFY_ARRAY, `a`, which 8.8's `A` holds). ARSET, ARMSET, ARINSERT, ARRING and
// ARSEEK publish whenever they succeed, changed or not; ARDEL and ARDELRANGE only when they
// emptied a slot, then `del` when that emptied the array. A key they create also publishes `new`,
// before the command's event; missing keys and refused writes publish nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_KEYSPACE_CHANNELS, listenKeyspace, onBothChannels as on } from '../../support/keyspace-listener.js';
import { suiteLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';

const PARAM = 'notify-keyspace-events';
const LAST = '18446744073709551614';

describe('keyspace events of array commands, through the SDK', () => {
  const t = suiteLarder();

  it('a names the array class, and A holds it, as Redis 8.8 has them', async () => {
    await t.ok(['config', 'set', PARAM, 'Ka']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'aK']);
    await t.ok(['config', 'set', PARAM, 'g$lshzxetdaKE']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'AKE']);
    await t.ok(['config', 'set', PARAM, 'g$lshzxetdKE']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'g$lshzxetdKE']);
  });

  it('each array write publishes its event on both channels, new for a key it creates, del after emptying one', async () => {
    await t.ok(['config', 'set', PARAM, 'KEAn']);
    const redis = sdkClient(t);
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);

    assert.equal(await redis.arset('ar', 0, 'x', 'y'), 2);
    await heard.expectNext(...on('ar', 'new', 'arset'));
    // Redis publishes every ARSET, even one that takes no new slot and writes the same value.
    assert.equal(await redis.arset('ar', 1, 'y'), 0);
    await heard.expectNext(...on('ar', 'arset'));
    assert.equal(await redis.armset('ar', { 5: 'five', 9: 'nine' }), 2);
    await heard.expectNext(...on('ar', 'armset'));
    assert.equal(await redis.ardel('ar', 1, 7), 1);
    await heard.expectNext(...on('ar', 'ardel'));
    assert.equal(await redis.ardelrange('ar', [4, 6], [10, 8]), 2);
    await heard.expectNext(...on('ar', 'ardelrange'));
    assert.equal(await redis.ardel('ar', 0), 1);
    assert.equal(await redis.exists('ar'), 0);
    await heard.expectNext(...on('ar', 'ardel', 'del'));

    assert.equal(await redis.armset('am', { 0: 'a', 3: 'b' }), 2);
    await heard.expectNext(...on('am', 'new', 'armset'));
    assert.equal(await redis.ardelrange('am', [0, 3]), 2);
    await heard.expectNext(...on('am', 'ardelrange', 'del'));

    // One event a command, however many values it appends.
    assert.equal(await redis.arinsert('ai', 'v0', 'v1'), '1');
    await heard.expectNext(...on('ai', 'new', 'arinsert'));
    assert.equal(await redis.arinsert('ai', 'v2'), '2');
    await heard.expectNext(...on('ai', 'arinsert'));
    assert.equal(await redis.arseek('ai', 0), 1);
    await heard.expectNext(...on('ai', 'arseek'));
    assert.equal(await redis.arseek('ai', 0), 1, 'a cursor moved where it was still publishes');
    await heard.expectNext(...on('ai', 'arseek'));

    assert.equal(await redis.arring('ring', 2, 'a', 'b', 'c'), '0');
    await heard.expectNext(...on('ring', 'new', 'arring'));
    assert.equal(await redis.arring('ring', 3, 'd'), '2');
    await heard.expectNext(...on('ring', 'arring'));
    await heard.stop();
  });

  it('an ARDEL or ARDELRANGE that empties no slot, a missing key and a refused write publish nothing', async () => {
    await t.ok(['config', 'set', PARAM, 'KEAn']);
    const redis = sdkClient(t);
    await redis.arset('an', 0, 'x');
    await redis.set('str', 'v');
    await redis.arset('big', LAST, 'last');
    await redis.arseek('big', LAST);
    assert.equal(await redis.arinsert('big', 'at the end'), LAST);
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);

    assert.equal(await redis.ardel('an', 5), 0);
    assert.equal(await redis.ardelrange('an', [1, 100]), 0);
    assert.equal(await redis.ardel('none', 0), 0);
    assert.equal(await redis.ardelrange('none', [0, 1]), 0);
    assert.equal(await redis.arseek('none', 3), 0);
    await assert.rejects(redis.arset('str', 0, 'x'), /WRONGTYPE/);
    await assert.rejects(redis.arinsert('str', 'x'), /WRONGTYPE/);
    await assert.rejects(redis.arset('an', LAST, 'a', 'b'), /ERR invalid array index/);
    await assert.rejects(redis.arinsert('big', 'past'), /ERR insert index overflow/);
    await assert.rejects(redis.arring('none', 0, 'x'), /ERR ring size must be an integer greater than 0/);
    assert.equal(await redis.exists('none'), 0);
    // The first thing heard is the write that follows them.
    assert.equal(await redis.arset('an', 0, 'x'), 0);
    await heard.expect(on('an', 'arset'));
    await heard.stop();
  });

  it('with a off array writes publish nothing of their own, while new and the del of an emptied array still do', async () => {
    await t.ok(['config', 'set', PARAM, 'KEg$n']);
    const redis = sdkClient(t);
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);
    assert.equal(await redis.arset('ax', 0, 'x'), 1);
    assert.equal(await redis.armset('ax', { 1: 'y' }), 1);
    assert.equal(await redis.arinsert('ax', 'z'), '0');
    assert.equal(await redis.arring('ax', 4, 'w'), '2');
    assert.equal(await redis.arseek('ax', 0), 1);
    assert.equal(await redis.ardel('ax', 0), 1);
    assert.equal(await redis.ardelrange('ax', [0, 10]), 2);
    assert.equal(await redis.exists('ax'), 0);
    assert.equal(await redis.set('ax-marker', 'v'), 'OK');
    await heard.expect([...on('ax', 'new', 'del'), ...on('ax-marker', 'new', 'set')]);
    await heard.stop();
  });
});

// Keyspace notifications of hash field TTLs, read through the official SDK's subscribe: the
// events Redis 8's t_hash.c publishes for HEXPIRE and its variants (hexpire, or hdel when the
// time has already passed), HPERSIST (hpersist) and a field's own expiry (hexpired, then del
// for the hash's last field). The
// differential notification run checks every other list, set and hash event against
// redis-server 7.0, which has no field TTLs, so these run on the embedded engine only.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { listenKeyspace } from '../../support/keyspace-listener.js';
import { embeddedOnly, suiteLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';

const only = embeddedOnly('Redis 7.0 lacks hash field TTLs (Redis 7.4) and so their events');

describe('keyspace events of hash field TTLs, through the SDK', () => {
  const t = suiteLarder();

  only('HEXPIRE publishes hexpire, HPERSIST hpersist, a past time hdel, a field running out hexpired', async () => {
    await t.ok(['config', 'set', 'notify-keyspace-events', 'KA']);
    const redis = sdkClient(t);
    const heard = await listenKeyspace(t, '__keyspace@0__:fx');
    const expect = (events: string[]) => heard.expect(events.map((e) => `__keyspace@0__:fx ${e}`));

    await redis.hset('fx', { a: '1', b: '2', c: '3' });
    const events = ['hset'];
    await expect(events);
    assert.deepEqual(await redis.hexpire('fx', ['a', 'b', 'nope'], 600), [1, 1, -2]);
    events.push('hexpire');
    await expect(events);
    // Changing nothing publishes nothing: the next event is the only one that follows.
    assert.deepEqual(await redis.hexpire('fx', 'a', 600, 'NX'), [0]);
    assert.deepEqual(await redis.hpersist('fx', ['c', 'nope']), [-1, -2]);
    assert.deepEqual(await redis.hpersist('fx', 'a'), [1]);
    events.push('hpersist');
    await expect(events);
    assert.deepEqual(await redis.hpexpireat('fx', 'b', 1), [2]);
    events.push('hdel');
    await expect(events);
    // Left to run out, 'a' goes on its own; 'c' keeps the hash, so no del follows.
    assert.deepEqual(await redis.hpexpire('fx', 'a', 30), [1]);
    events.push('hexpire', 'hexpired');
    await expect(events);
    assert.deepEqual(await redis.hgetall('fx'), { c: 3 });
    // A past time that deletes the last field deletes the hash: hdel, then del.
    assert.deepEqual(await redis.hexpireat('fx', 'c', 1), [2]);
    events.push('hdel', 'del');
    await expect(events);
    // The last field running out deletes the hash too: hexpired, then del.
    await redis.hset('fx', { z: '1' });
    assert.deepEqual(await redis.hpexpire('fx', 'z', 30), [1]);
    events.push('hset', 'hexpire', 'hexpired', 'del');
    await expect(events);
    await heard.stop();
  });
});

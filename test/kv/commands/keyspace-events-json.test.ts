// Keyspace notifications of JSON documents (class `d`, "Module(JSON) command events" on Upstash's
// "Listen Keyspace Notifications" page), read through the official SDK's psubscribe. No
// redis-server here has RedisJSON, so the events follow its source, redis_json/src/commands.rs:
// each write publishes its own name (JSON.FORGET json.del, the same handler) as a module event,
// once per key it changed (per triplet for JSON.MSET), and nothing when it changed nothing, but
// for ARRTRIM and a legacy-path ARRPOP, which publish once an array matched. JSON.DEL of the root
// publishes json.del alone, no generic del; a key JSON.SET, MSET or MERGE creates also publishes
// Redis's own `new`, before the command's event.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_KEYSPACE_CHANNELS, listenKeyspace, onBothChannels as on } from '../../support/keyspace-listener.js';
import { suiteLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';


describe('keyspace events of JSON commands, through the SDK', () => {
  const t = suiteLarder();

  it('each JSON write publishes its RedisJSON event on both channels, and new for a key it creates', async () => {
    await t.ok(['config', 'set', 'notify-keyspace-events', 'KEAn']);
    const redis = sdkClient(t);
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);

    const doc = { a: 1, s: 'x', b: true, arr: [1, 2, 3], o: { k: 1 } };
    assert.equal(await redis.json.set('jd', '$', doc), 'OK');
    await heard.expectNext(...on('jd', 'new', 'json.set'));
    assert.equal(await redis.json.set('jd', '$.a', 2), 'OK');
    await heard.expectNext(...on('jd', 'json.set'));
    assert.equal(await redis.json.merge('jd', '$', { m: 1 }), 'OK');
    await heard.expectNext(...on('jd', 'json.merge'));
    assert.equal(await redis.json.merge('jm', '$', { fresh: true }), 'OK');
    await heard.expectNext(...on('jm', 'new', 'json.merge'));
    // One event per triplet, in order: the second key's new comes with its own triplet.
    const msetReply = await redis.json.mset(
      { key: 'jd', path: '$.a', value: 3 },
      { key: 'jo', path: '$', value: { x: 1 } },
      { key: 'jd', path: '$.b', value: false },
    );
    assert.equal(msetReply, 'OK');
    await heard.expectNext(...on('jd', 'json.mset'), ...on('jo', 'new', 'json.mset'), ...on('jd', 'json.mset'));
    assert.deepEqual(await redis.json.numincrby('jd', '$.a', 1), [4]);
    await heard.expectNext(...on('jd', 'json.numincrby'));
    assert.deepEqual(await redis.json.nummultby('jd', '$.a', 2), [8]);
    await heard.expectNext(...on('jd', 'json.nummultby'));
    assert.deepEqual(await redis.json.strappend('jd', '$.s', '"y"'), [2]);
    await heard.expectNext(...on('jd', 'json.strappend'));
    assert.deepEqual(await redis.json.toggle('jd', '$.b'), [1]);
    await heard.expectNext(...on('jd', 'json.toggle'));
    assert.deepEqual(await redis.json.arrappend('jd', '$.arr', 4), [4]);
    await heard.expectNext(...on('jd', 'json.arrappend'));
    assert.deepEqual(await redis.json.arrinsert('jd', '$.arr', 0, 0), [5]);
    await heard.expectNext(...on('jd', 'json.arrinsert'));
    assert.deepEqual(await redis.json.arrpop('jd', '$.arr'), [4]);
    await heard.expectNext(...on('jd', 'json.arrpop'));
    assert.deepEqual(await redis.json.arrtrim('jd', '$.arr', 1, 2), [2]);
    await heard.expectNext(...on('jd', 'json.arrtrim'));
    assert.equal(await redis.json.clear('jd', '$.o'), 1);
    await heard.expectNext(...on('jd', 'json.clear'));
    assert.equal(await redis.json.del('jd', '$.a'), 1);
    await heard.expectNext(...on('jd', 'json.del'));
    assert.equal(await redis.json.forget('jd', '$.s'), 1);
    await heard.expectNext(...on('jd', 'json.del'));
    // The whole document: json.del only, where DEL would publish del.
    assert.equal(await redis.json.del('jo'), 1);
    assert.equal(await redis.exists('jo'), 0);
    await heard.expectNext(...on('jo', 'json.del'));
    await heard.stop();
  });

  it('a JSON write that changes nothing publishes nothing, but ARRTRIM and a legacy ARRPOP that match an array do', async () => {
    await t.ok(['config', 'set', 'notify-keyspace-events', 'KEd']);
    const redis = sdkClient(t);
    await redis.json.set('jn', '$', { a: 1, zero: 0, s: 'x', arr: [1, 2], empty: [] });
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);

    assert.equal(await redis.json.set('jn', '$.a', 9, { nx: true }), null);
    assert.equal(await redis.json.set('jn', '$.nope', 9, { xx: true }), null);
    assert.equal(await redis.json.set('jn-missing', '$', 9, { xx: true }), null);
    assert.equal(await redis.json.set('jn', '$.nope.deeper', 9), null);
    assert.equal(await redis.json.merge('jn', '$.nope.deeper', 9), null);
    assert.equal(await redis.json.mset({ key: 'jn', path: '$.nope.deeper', value: 9 }), 'OK');
    assert.equal(await redis.json.del('jn', '$.nope'), 0);
    assert.equal(await redis.json.del('jn-missing'), 0);
    assert.equal(await redis.json.clear('jn', '$.zero'), 0);
    assert.deepEqual(await redis.json.toggle('jn', '$.a'), [null]);
    assert.deepEqual(await redis.json.numincrby('jn', '$.s', 1), [null]);
    assert.deepEqual(await redis.json.strappend('jn', '$.a', '"y"'), [null]);
    assert.deepEqual(await redis.json.arrappend('jn', '$.a', 1), [null]);
    assert.deepEqual(await redis.json.arrpop('jn', '$.empty'), [null]);
    // RedisJSON publishes these two whenever an array matched, changed or not.
    assert.deepEqual(await redis.json.arrtrim('jn', '$.arr', 0, -1), [2]);
    assert.equal(await redis.json.arrpop('jn', '.empty'), null);
    await heard.expect([...on('jn', 'json.arrtrim'), ...on('jn', 'json.arrpop')]);
    assert.deepEqual(await redis.json.get('jn'), { a: 1, zero: 0, s: 'x', arr: [1, 2], empty: [] });
    await heard.stop();
  });

  it('with d off JSON writes publish nothing of their own: neither json.* nor a del for the whole document', async () => {
    await t.ok(['config', 'set', 'notify-keyspace-events', 'KEg$n']);
    const redis = sdkClient(t);
    const heard = await listenKeyspace(t, ALL_KEYSPACE_CHANNELS);
    assert.equal(await redis.json.set('jx', '$', { a: [1] }), 'OK');
    assert.deepEqual(await redis.json.arrappend('jx', '$.a', 2), [2]);
    assert.equal(await redis.json.del('jx'), 1);
    // The classes that are on still publish: new (Redis's, for the key JSON.SET added), and the string's.
    assert.equal(await redis.set('jx-marker', 'v'), 'OK');
    await heard.expect([...on('jx', 'new'), ...on('jx-marker', 'new', 'set')]);
    await heard.stop();
  });
});

// Pub/sub through the official @upstash/redis SDK, with auto-pipelining off and on: its
// Subscriber (redis.subscribe / redis.psubscribe) reads Larder's event streams, and messages
// published with redis.publish round-trip, JSON values deserialized as the SDK does.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { notOnCluster } from '../../support/larder.js';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

/** Resolves with the next `count` payloads of `type` the subscriber emits. */
function collect<T>(sub: { on(type: any, listener: (data: any) => void): void }, type: string, count: number): Promise<T[]> {
  const seen: T[] = [];
  return new Promise((resolve) => {
    sub.on(type, (data: T) => {
      seen.push(data);
      if (seen.length === count) resolve(seen);
    });
  });
}

for (const mode of PIPELINE_MODES) {
  describe(`pub/sub through the SDK (${mode.name})`, () => {
    const { t, redis } = suiteSdk(mode);

    // A Cluster delivers every message, but PUBLISH, PUBSUB NUMSUB and NUMPAT count the
    // subscribers of the one node that answers (test/kv/redis/pubsub.test.ts sums the nodes').
    const countedIt = notOnCluster('PUBLISH, PUBSUB NUMSUB and NUMPAT count the subscribers of one node');
    const numsub = async (...channels: string[]) => (await t.ok(['pubsub', 'numsub', ...channels])) as (string | number)[];

    countedIt('subscribe receives what publish sends, then unsubscribe frees the channel', async () => {
      const sub = redis.subscribe(['chat', 'alerts']);
      const confirmed = collect<number>(sub, 'subscribe', 2);
      assert.deepEqual(sub.getSubscribedChannels(), ['chat', 'alerts']);
      // One stream per channel, so each confirms one subscription.
      assert.deepEqual(await confirmed, [1, 1]);
      assert.deepEqual(await numsub('chat', 'alerts'), ['chat', 1, 'alerts', 1]);

      const messages = collect<{ channel: string; message: unknown }>(sub, 'message', 4);
      const onChat = collect<{ channel: string; message: unknown }>(sub, 'message:chat', 3);
      assert.equal(await redis.publish('chat', 'hello'), 1);
      assert.equal(await redis.publish('chat', { user: 'ann', text: 'héllo ✓' }), 1);
      assert.equal(await redis.publish('chat', 42), 1);
      assert.equal(await redis.publish('alerts', ['a', 1]), 1);
      assert.equal(await redis.publish('nobody', 'x'), 0);
      const received = await messages;
      // Each channel's messages arrive in order; the two streams may interleave.
      assert.deepEqual(
        received.filter((m) => m.channel === 'chat'),
        [
          { channel: 'chat', message: 'hello' },
          { channel: 'chat', message: { user: 'ann', text: 'héllo ✓' } },
          { channel: 'chat', message: 42 },
        ],
      );
      assert.deepEqual(received.filter((m) => m.channel === 'alerts'), [{ channel: 'alerts', message: ['a', 1] }]);
      assert.deepEqual((await onChat).map((m) => m.message), ['hello', { user: 'ann', text: 'héllo ✓' }, 42]);

      await sub.unsubscribe(['chat']);
      assert.deepEqual(sub.getSubscribedChannels(), ['alerts']);
      await eventually(async () => (await numsub('chat'))[1] === 0, 'NUMSUB chat drops to 0');
      assert.equal(await redis.publish('chat', 'unheard'), 0);
      assert.equal(await redis.publish('alerts', 'still'), 1);
      await sub.unsubscribe();
      await eventually(async () => (await numsub('alerts'))[1] === 0, 'NUMSUB alerts drops to 0');
      assert.equal(await redis.publish('alerts', 'gone'), 0);
    });

    countedIt('psubscribe receives pattern messages with the channel they came on', async () => {
      const sub = redis.psubscribe(['events:*']);
      assert.deepEqual(await collect<number>(sub, 'psubscribe', 1), [1]);
      assert.equal(await t.ok(['pubsub', 'numpat']), 1);
      const messages = collect(sub, 'pmessage', 2);
      assert.equal(await redis.publish('events:login', { id: 7 }), 1);
      assert.equal(await redis.publish('other', 'x'), 0);
      // The SDK JSON-parses pattern messages without a fallback (unlike channel messages), so plain text would fail there.
      assert.equal(await redis.publish('events:logout', ['bye']), 1);
      assert.deepEqual(await messages, [
        { pattern: 'events:*', channel: 'events:login', message: { id: 7 } },
        { pattern: 'events:*', channel: 'events:logout', message: ['bye'] },
      ]);
      await sub.unsubscribe();
      await eventually(async () => (await t.ok(['pubsub', 'numpat'])) === 0, 'NUMPAT drops to 0');
    });

    countedIt('two subscribers on one channel both receive, and publish counts both', async () => {
      const a = redis.subscribe('room');
      const b = redis.subscribe('room');
      await Promise.all([collect(a, 'subscribe', 1), collect(b, 'subscribe', 1)]);
      const got = Promise.all([collect(a, 'message', 1), collect(b, 'message', 1)]);
      assert.equal(await redis.publish('room', 'hi all'), 2);
      assert.deepEqual(await got, [[{ channel: 'room', message: 'hi all' }], [{ channel: 'room', message: 'hi all' }]]);
      await Promise.all([a.unsubscribe(), b.unsubscribe()]);
      await eventually(async () => (await numsub('room'))[1] === 0, 'NUMSUB room drops to 0');
    });
  });
}

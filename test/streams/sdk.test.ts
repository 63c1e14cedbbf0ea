// Every endpoint the official @upstash/kafka client uses (producer, consumer, admin), against
// a real Larder.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { suiteLarder } from '../support/larder.js';

const TOPICS = { orders: { partitions: 3 }, events: { partitions: 1 }, quiet: { partitions: 2 } };

describe('stream topics through @upstash/kafka', () => {
  const t = suiteLarder({ streams: { clusters: { default: { topics: TOPICS } } } });
  const kafka = () => new Kafka(t.cluster());

  it('lists topics with their partition counts', async () => {
    assert.deepEqual(await kafka().admin().topics(), { orders: 3, events: 1, quiet: 2 });
  });

  it('produces one message with options and fetches it back', async () => {
    const meta = await kafka().producer().produce('events', { hello: 'world' }, {
      key: 'k1',
      timestamp: 12345,
      headers: [{ key: 'traceId', value: '85a9f12' }],
    });
    assert.deepEqual(meta, { topic: 'events', partition: 0, offset: 0, timestamp: 12345 });
    const got = await kafka().consumer().fetch({ topic: 'events', partition: 0, offset: 0, timeout: 0 });
    assert.deepEqual(got, [
      { topic: 'events', partition: 0, offset: 0, timestamp: 12345, key: 'k1', value: '{"hello":"world"}', headers: [{ key: 'traceId', value: '85a9f12' }] },
    ]);
  });

  it('produces many messages to several topics, answering in request order with dense offsets', async () => {
    const metas = await kafka().producer().produceMany([
      { topic: 'events', value: 'a' },
      { topic: 'orders', value: 'b', partition: 2 },
      { topic: 'events', value: 'c' },
    ]);
    assert.deepEqual(
      metas.map((m) => [m.topic, m.partition, m.offset]),
      [['events', 0, 1], ['orders', 2, 0], ['events', 0, 2]],
    );
    assert.ok(metas.every((m) => Math.abs(m.timestamp - Date.now()) < 60_000));
  });

  it('partitions keyed messages by murmur2 as Kafka does, keyless ones round-robin', async () => {
    // Kafka's UtilsTest: murmur2("foobar") = -790332482, murmur2("21") = -973932308.
    const expected = (hash: number) => (hash & 0x7fffffff) % 3;
    const p = kafka().producer();
    assert.equal((await p.produce('orders', 'x', { key: 'foobar' })).partition, expected(-790332482));
    assert.equal((await p.produce('orders', 'y', { key: '21' })).partition, expected(-973932308));
    assert.equal((await p.produce('orders', 'z', { key: 'foobar' })).partition, expected(-790332482));
    const keyless = await p.produceMany([0, 1, 2].map((i) => ({ topic: 'orders', value: `r${i}` })));
    assert.deepEqual(new Set(keyless.map((m) => m.partition)), new Set([0, 1, 2]));
  });

  it('fetches several positions at once (topicPartitionOffsets, in parallel or not)', async () => {
    const c = kafka().consumer();
    const req = { topic: 'events', partition: 0, offset: 1, topicPartitionOffsets: [{ topic: 'orders', partition: 2, offset: 0 }], timeout: 0 };
    for (const parallel of [true, false]) {
      const got = await c.fetch(req, { parallel });
      const events = got.filter((m) => m.topic === 'events').map((m) => `${m.offset}/${m.value}`);
      assert.deepEqual(events, ['1/a', '2/c']);
      assert.deepEqual(got.find((m) => m.topic === 'orders' && m.partition === 2 && m.offset === 0)?.value, 'b');
      assert.ok(got.every((m) => m.topic === 'events' || m.partition === 2));
    }
  });

  it('long-polls a fetch until a message arrives', async () => {
    const c = kafka().consumer();
    const waiting = c.fetch({ topic: 'quiet', partition: 1, offset: 0, timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 200));
    await kafka().producer().produce('quiet', 'late', { partition: 1 });
    const got = await waiting;
    assert.deepEqual(got.map((m) => m.value), ['late']);
  });

  it('consumes through a group with manual commits, and reports committed offsets', async () => {
    const p = kafka().producer();
    await p.produceMany(['m0', 'm1', 'm2'].map((value) => ({ topic: 'quiet', value, partition: 0 })));
    const c = kafka().consumer();
    const req = { consumerGroupId: 'g1', instanceId: 'i1', topics: ['quiet'], autoCommit: false, autoOffsetReset: 'earliest' as const, timeout: 1000 };
    const seen: string[] = [];
    for (let i = 0; i < 5 && seen.length < 4; i++) seen.push(...(await c.consume(req)).map((m) => m.value));
    assert.deepEqual(seen.sort(), ['late', 'm0', 'm1', 'm2']);
    const tps = [{ topic: 'quiet', partition: 0 }, { topic: 'quiet', partition: 1 }];
    assert.deepEqual(await c.committed({ consumerGroupId: 'g1', instanceId: 'i1', topicPartitions: tps }), tps.map((tp) => ({ ...tp, offset: -1 })));
    await c.commit({ consumerGroupId: 'g1', instanceId: 'i1' });
    assert.deepEqual(await c.committed({ consumerGroupId: 'g1', instanceId: 'i1', topicPartitions: tps }), [
      { topic: 'quiet', partition: 0, offset: 3 },
      { topic: 'quiet', partition: 1, offset: 1 },
    ]);
    await c.commit({ consumerGroupId: 'g1', instanceId: 'i1', offset: { topic: 'quiet', partition: 0, offset: 1 } });
    assert.deepEqual(await kafka().admin().committedOffsets({ consumerGroupId: 'g1', instanceId: 'i1', topicPartition: tps[0] }), [{ ...tps[0], offset: 1 }]);
    await c.commit({ consumerGroupId: 'g1', instanceId: 'i1', offset: [{ topic: 'quiet', partition: 0, offset: 3 }] });
    assert.deepEqual(await kafka().admin().consumers(), [
      { name: 'g1', instances: [{ name: 'i1', topics: [{ topic: 'quiet', partitions: [0, 1] }] }] },
    ]);
    await kafka().admin().removeConsumerInstance('g1', 'i1');
    assert.deepEqual(await kafka().admin().consumers(), []);
    // A new instance of the group starts at the committed offsets.
    await p.produce('quiet', 'after', { partition: 0 });
    const again = await c.consume({ ...req, instanceId: 'i2' });
    assert.deepEqual(again.map((m) => [m.partition, m.offset, m.value]), [[0, 3, 'after']]);
  });

  it('auto-commits consumed messages in the background', async () => {
    const p = kafka().producer();
    await p.produce('events', 'auto-1');
    const c = kafka().consumer();
    const req = { consumerGroupId: 'g-auto', instanceId: 'a', topics: ['events'], autoCommit: true, autoCommitInterval: 100, autoOffsetReset: 'earliest' as const };
    const got = await c.consume(req);
    assert.ok(got.length > 0);
    const tp = { topic: 'events', partition: 0 };
    let committed = -1;
    for (let i = 0; i < 50 && committed !== got[got.length - 1].offset + 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      committed = (await c.committed({ consumerGroupId: 'g-auto', instanceId: 'a', topicPartitions: [tp] }))[0].offset;
    }
    assert.equal(committed, got[got.length - 1].offset + 1);
  });

  it('finds offsets by timestamp, earliest and latest', async () => {
    const admin = kafka().admin();
    const tp = { topic: 'events', partition: 0 };
    assert.deepEqual(await admin.topicPartitionOffsets({ timestamp: 'earliest', topicPartition: tp }), [{ ...tp, offset: 0 }]);
    const end = (await admin.topicPartitionOffsets({ timestamp: 'latest', topicPartitions: [tp] }))[0].offset;
    assert.ok(end >= 4);
    // Offset 0 has timestamp 12345; the later ones carry the broker's clock.
    assert.deepEqual(await admin.topicPartitionOffsets({ timestamp: 12345, topicPartition: tp }), [{ ...tp, offset: 0 }]);
    assert.deepEqual(await admin.topicPartitionOffsets({ timestamp: 12346, topicPartition: tp }), [{ ...tp, offset: 1 }]);
    assert.deepEqual(await admin.topicPartitionOffsets({ timestamp: Date.now() + 3_600_000, topicPartition: tp }), [{ ...tp, offset: end }]);
  });

  it('refuses a produce to a missing topic with the ways to create it', async () => {
    await assert.rejects(kafka().producer().produce('nope', 'x'), (e: Error) => {
      assert.match(e.message, /topic 'nope' does not exist/);
      assert.match(e.message, /larder topic create nope --partitions N/);
      assert.match(e.message, /--topic nope:N/);
      assert.match(e.message, /autoCreateTopics/);
      return true;
    });
  });
});

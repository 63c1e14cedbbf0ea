// A consumer group of three instances on a six-partition topic; one is deleted mid-stream.
// Every produced message must be consumed at least once, and the committed offsets must
// end at the log ends.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { suiteLarder } from '../support/larder.js';

const PARTITIONS = 6;
const TOTAL = 600;

describe('consumer groups', () => {
  const t = suiteLarder({ streams: { clusters: { default: { topics: { work: { partitions: PARTITIONS } } } } } });

  it('spreads partitions over instances and loses nothing when one leaves', async () => {
    const kafka = new Kafka(t.cluster());
    const consumer = kafka.consumer();
    const admin = kafka.admin();
    const base = { consumerGroupId: 'workers', topics: ['work'], autoCommit: false, autoOffsetReset: 'earliest' as const, timeout: 200 };
    const ids = ['w1', 'w2', 'w3'];
    for (const id of ids) await consumer.consume({ ...base, instanceId: id });
    const [group] = await admin.consumers();
    const owned = group.instances.flatMap((i) => i.topics.flatMap((tp) => tp.partitions)).sort();
    assert.deepEqual(owned, [0, 1, 2, 3, 4, 5]);
    assert.ok(group.instances.every((i) => i.topics[0].partitions.length === 2), JSON.stringify(group));

    const seen = new Map<string, number>();
    let produced = 0;
    const produce = async (n: number) => {
      const batch = Array.from({ length: n }, () => ({ topic: 'work', value: `m${produced++}` }));
      await kafka.producer().produceMany(batch);
    };
    // Each instance consumes and commits what it got, except w2 which never commits before it is deleted.
    const round = async (active: string[]) => {
      for (const id of active) {
        const got = await consumer.consume({ ...base, instanceId: id });
        for (const m of got) seen.set(m.value, (seen.get(m.value) ?? 0) + 1);
        if (id !== 'w2' && got.length > 0) await consumer.commit({ consumerGroupId: 'workers', instanceId: id });
      }
    };
    await produce(TOTAL / 2);
    await round(ids);
    await admin.removeConsumerInstance('workers', 'w2');
    const [after] = await admin.consumers();
    assert.deepEqual(after.instances.map((i) => i.name).sort(), ['w1', 'w3']);
    assert.deepEqual(after.instances.flatMap((i) => i.topics.flatMap((tp) => tp.partitions)).sort(), [0, 1, 2, 3, 4, 5]);
    await produce(TOTAL / 2);
    for (let i = 0; i < 20 && seen.size < TOTAL; i++) await round(['w1', 'w3']);
    const missing = Array.from({ length: TOTAL }, (_, i) => `m${i}`).filter((v) => !seen.has(v));
    assert.deepEqual(missing, []);
    // w2's uncommitted messages were handed to the new owners again (at least once).
    assert.ok([...seen.values()].some((n) => n > 1), 'w2 never committed, so its messages come again');

    const tps = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: 'work', partition }));
    const ends = await admin.topicPartitionOffsets({ timestamp: 'latest', topicPartitions: tps });
    const committed = await consumer.committed({ consumerGroupId: 'workers', instanceId: 'w1', topicPartitions: tps });
    assert.deepEqual(committed, ends);
    assert.equal(ends.reduce((n, e) => n + e.offset, 0), TOTAL);
  });

  it('rebalances when an idle instance times out', async () => {
    const kafka = new Kafka(t.cluster());
    const base = { consumerGroupId: 'idlers', topics: ['work'], autoOffsetReset: 'latest' as const, timeout: 0 };
    const headers = { 'Kafka-Session-Timeout-Ms': '300', authorization: 'Basic ' + Buffer.from(`${t.cluster().username}:${t.cluster().password}`).toString('base64') };
    // The SDK has no session timeout option: the first consume of the short-lived instance is raw.
    const res = await fetch(`${t.cluster().url}/consume/idlers/brief/work?timeout=0`, { headers });
    assert.equal(res.status, 200);
    await kafka.consumer().consume({ ...base, instanceId: 'stays' });
    const names = async () => (await kafka.admin().consumers()).find((g) => g.name === 'idlers')?.instances.map((i) => i.name).sort();
    assert.deepEqual(await names(), ['brief', 'stays']);
    for (let i = 0; i < 40 && (await names())?.length !== 1; i++) {
      await kafka.consumer().consume({ ...base, instanceId: 'stays' });
      await new Promise((r) => setTimeout(r, 100));
    }
    const [idlers] = (await kafka.admin().consumers()).filter((g) => g.name === 'idlers');
    assert.deepEqual(idlers.instances, [{ name: 'stays', topics: [{ topic: 'work', partitions: [0, 1, 2, 3, 4, 5] }] }]);
  });
});

// The queue on engine postgres, one process: publish and delivery through the SDK, retries and
// the DLQ, a schedule, and a restart of Larder that keeps every message, dead letter, schedule,
// token, key and log event (they live in PostgreSQL, not the data dir). The op log is compacted
// into a snapshot many times on the way (a tiny compactAfterBytes).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { eventually } from '../../support/eventually.js';
import { startTestLarder } from '../../support/larder.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../../support/queue-receiver.js';


describe('queue on PostgreSQL, one process', { skip: postgresRunSkip }, () => {
  let pg: PostgresCluster;
  let rx: QueueReceiver;

  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await rx?.close();
    await pg?.stop();
  });

  const config = (schema: string) => ({ queue: { url: pg.url(), schema, retryDelayScale: 0.001, compactAfterBytes: 1024 } });

  it('publishes and delivers, retries into the DLQ, fires a schedule, and a restart keeps all of it', async () => {
    const first = await startTestLarder(config('one'));
    const q = first.queue();
    rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    const client = queueClient(q);
    let laterId: string;
    let dlqCount: number;
    try {
      const { messageId } = await client.publish({ url: `${rx.url}/now`, body: 'hello' });
      await eventually(async () => rx.at('/now').length === 1, 'the delivery');
      const d = rx.at('/now')[0];
      assert.equal(d.body, 'hello');
      assert.equal(d.headers['upstash-message-id'], messageId);
      assert.ok(d.verified);

      rx.answer('/fails', () => ({ status: 500 }));
      const failing = await client.publish({ url: `${rx.url}/fails`, body: 'no', retries: 1 });
      await eventually(async () => (await client.dlq.listMessages()).messages.some((m) => m.messageId === failing.messageId), 'the dead letter');
      dlqCount = (await client.dlq.listMessages()).messages.length;

      await client.schedules.create({ destination: `${rx.url}/tick`, cron: '* * * * * *', scheduleId: 'every-second' });
      await eventually(async () => rx.at('/tick').length >= 1, 'a firing');

      laterId = (await client.publish({ url: `${rx.url}/later`, body: 'after the restart', delay: 3 })).messageId;
      const logs = await client.logs({ filter: { messageId } });
      assert.ok(logs.logs.some((l) => l.state === 'DELIVERED'), 'the DELIVERED event');
    } finally {
      await first.close();
    }
    const sql = postgres(pg.url(), { onnotice: () => undefined });
    try {
      const [snapshot] = await sql`select upto from one.snapshot`;
      assert.ok(Number(snapshot?.upto) > 0, 'the op log was compacted into a snapshot');
    } finally {
      await sql.end();
    }

    const second = await startTestLarder(config('one'));
    try {
      const q2 = second.queue();
      assert.equal(q2.token, q.token);
      assert.equal(q2.currentSigningKey, q.currentSigningKey);
      const client2 = queueClient(q2);
      assert.equal((await client2.messages.get(laterId)).body, 'after the restart');
      assert.equal((await client2.dlq.listMessages()).messages.length, dlqCount);
      assert.equal((await client2.schedules.get('every-second')).cron, '* * * * * *');
      await eventually(async () => rx.at('/later').length === 1, 'the delayed message, delivered by the second Larder');
      assert.equal(rx.at('/later')[0].headers['upstash-message-id'], laterId);
      const before = rx.at('/tick').length;
      await eventually(async () => rx.at('/tick').length > before, 'the schedule firing again');
      await client2.schedules.delete('every-second');
    } finally {
      await second.close();
    }
  });
});

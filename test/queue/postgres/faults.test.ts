// Engine postgres when PostgreSQL goes away mid-run: publishes answer 503 in QStash's envelope
// with the reason, /healthz says so, deliveries wait, and once PostgreSQL is back everything
// resumes by itself: the waiting delivery is made and nothing acknowledged is lost.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../../support/queue-receiver.js';

describe('engine postgres: PostgreSQL stopped mid-run', { skip: postgresRunSkip }, () => {
  let pg: PostgresCluster;
  let larder: TestLarder;
  let rx: QueueReceiver;

  before(async () => {
    pg = await startPostgres();
    larder = await startTestLarder({ queue: { url: pg.url(), retryDelayScale: 0.001 } });
    const q = larder.queue();
    rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
  });
  after(async () => {
    // A Larder that crashed fails its close: the receiver and the cluster still go.
    try {
      await larder?.close();
    } finally {
      await rx?.close();
      await pg?.stop();
    }
  });

  const publishRaw = (path: string, body: string) =>
    fetch(`${larder.queue().url}/v2/publish/${rx.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${larder.queue().token}` }, body });

  it('answers 503 while it is down, delivers nothing, and resumes with every acknowledged message once it is back', async () => {
    const client = queueClient(larder.queue());
    const acknowledged = [(await client.publish({ url: `${rx.url}/before`, body: 'before' })).messageId];
    await eventually(async () => rx.at('/before').length === 1, 'the delivery before the stop');
    // Due after the stop: it must wait for PostgreSQL, then be delivered.
    acknowledged.push((await client.publish({ url: `${rx.url}/delayed`, body: 'delayed', delay: 2 })).messageId);

    await pg.halt('fast');
    const refused = await publishRaw('/during', 'during');
    assert.equal(refused.status, 503);
    const body = (await refused.json()) as { error: string; status: number };
    assert.equal(body.status, 503);
    assert.match(body.error, /^the queue's PostgreSQL database cannot be written \(.+\); writes resume once it can$/);
    const health = await fetch(`${larder.url}/healthz`);
    assert.equal(health.status, 503);
    assert.match(((await health.json()) as { reason: string }).reason, /message queue: /);
    // Reads answer from what this process holds.
    assert.equal((await client.messages.get(acknowledged[1])).body, 'delayed');
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(rx.at('/delayed').length, 0, 'no delivery while PostgreSQL is down');

    await pg.resume();
    await eventually(async () => rx.at('/delayed').length === 1, 'the delayed message, once PostgreSQL is back');
    assert.equal(rx.at('/delayed')[0].headers['upstash-message-id'], acknowledged[1]);
    await eventually(async () => (await publishRaw('/after', 'after')).status === 200, 'publishes accepted again');
    await eventually(async () => rx.at('/after').length >= 1, 'a delivery after the restart');
    assert.equal(rx.at('/during').length, 0, 'the refused publish was not kept');
    assert.equal((await fetch(`${larder.url}/healthz`)).status, 200);
  });
});

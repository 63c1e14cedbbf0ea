// Credential headers (Authorization, Cookie and queue.credentialHeaders) a publish forwards are
// delivered as they are, and shown as "[redacted]" everywhere the queue shows a message: the logs
// (and the events files or rows behind them), the DLQ, message and schedule views, and the sourceHeader
// of a callback's body as the logs show it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';
import { storedEvents } from '../support/queue-backend.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../support/queue-receiver.js';

const SECRETS = { authorization: 'Bearer s3cret-bearer', cookie: 'session=s3cret-cookie', 'x-api-key': 's3cret-key' };
const REDACTED = '[redacted]';

describe('credential headers of queue messages', () => {
  let t: TestLarder;
  let rx: QueueReceiver;
  let client: Client;
  const headers = { Authorization: SECRETS.authorization, Cookie: SECRETS.cookie, 'X-Api-Key': SECRETS['x-api-key'], 'X-Plain': 'shown' };
  before(async () => {
    t = await startTestLarder({ queue: { retryDelayScale: 0.001, credentialHeaders: ['X-Api-Key'] } });
    rx = await startQueueReceiver({ current: t.queue().currentSigningKey, next: t.queue().nextSigningKey });
    rx.answer('/fails', () => ({ status: 500, body: 'no' }));
    client = queueClient(t.queue());
  });
  after(async () => {
    await rx.close();
    await t.close();
  });

  const api = async (path: string) => {
    const res = await fetch(`${t.queue().url}${path}`, { headers: { authorization: `Bearer ${t.queue().token}` } });
    assert.equal(res.status, 200, path);
    return res.json() as Promise<any>;
  };
  const noSecret = (what: string, text: string) => {
    for (const secret of Object.values(SECRETS)) assert.ok(!text.includes(secret), `${what} holds ${secret}:\n${text}`);
  };
  /** Headers as the API shows them: lower-case names, each with its value (events) or values (messages). */
  const assertShown = (header: Record<string, string | string[]>) => {
    const values = Object.fromEntries(Object.entries(header).map(([k, v]) => [k, [v].flat()]));
    assert.deepEqual(values, { ...values, authorization: [REDACTED], cookie: [REDACTED], 'x-api-key': [REDACTED], 'x-plain': ['shown'] });
  };

  it('delivers them, and the logs, DLQ and callback views show them redacted', async () => {
    const { messageId } = await client.publish({
      url: `${rx.url}/fails`,
      body: 'b',
      headers,
      retries: 0,
      callback: `${rx.url}/callback`,
      failureCallback: `${rx.url}/failure`,
    });
    await eventually(async () => rx.at('/failure').length === 1 && rx.at('/callback').length === 1, 'both callbacks');

    const [delivered] = rx.at('/fails');
    for (const [name, value] of Object.entries(SECRETS)) assert.equal(delivered.headers[name], value, `${name} delivered`);
    // The callbacks are deliveries too: their destination gets the source's headers as they were.
    assert.deepEqual(JSON.parse(rx.at('/failure')[0].body).sourceHeader.authorization, [SECRETS.authorization]);

    const logs = await api('/v2/logs');
    noSecret('/v2/logs', JSON.stringify(logs));
    const mine = logs.events.filter((e: { messageId: string }) => e.messageId === messageId);
    assert.ok(mine.length >= 3);
    for (const e of mine) assertShown(e.header);
    // The callback messages' events carry their bodies, whose sourceHeader is redacted too.
    const callbackBodies = logs.events.filter((e: { url: string }) => e.url.endsWith('/failure') || e.url.endsWith('/callback'));
    assert.ok(callbackBodies.length >= 2);
    for (const e of callbackBodies) assertShown(JSON.parse(Buffer.from(e.body, 'base64').toString('utf8')).sourceHeader);

    const dlq = await api('/v2/dlq');
    noSecret('/v2/dlq', JSON.stringify(dlq));
    const entry = dlq.messages.find((m: { messageId: string }) => m.messageId === messageId);
    assertShown(entry.header);
    noSecret('/v2/dlq/<id>', JSON.stringify(await api(`/v2/dlq/${entry.dlqId}`)));
  });

  it('shows them redacted on a waiting message and a schedule', async () => {
    const { messageId } = await client.publish({ url: `${rx.url}/later`, body: 'b', headers, delay: 3600 });
    const message = await api(`/v2/messages/${messageId}`);
    noSecret('the message', JSON.stringify(message));
    assertShown(message.header);
    const { scheduleId } = await client.schedules.create({ destination: `${rx.url}/cron`, cron: '0 0 1 1 *', headers });
    const schedule = await api(`/v2/schedules/${scheduleId}`);
    noSecret('the schedule', JSON.stringify(schedule));
  });

  it('never writes them in clear where it keeps the events (files, or PostgreSQL rows)', async () => {
    await eventually(async () => (await storedEvents(t.dataDir)).length > 0, 'stored events');
    for (const [where, text] of await storedEvents(t.dataDir)) noSecret(where, text);
  });
});

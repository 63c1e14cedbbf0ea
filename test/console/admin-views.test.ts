// The console's admin views in headless Chromium: a stream cluster's retention and its groups'
// instances, assignments, positions and lag (/console/api/streams/<cluster>), the queue's
// messages in flight and waiting with cancel (/console/api/queue/messages), and forms that send
// nothing twice. What the SDKs do shows in the console, and what the console does the SDKs see.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { Kafka } from '@upstash/kafka';
import type { ConsolePendingPage, ConsoleStreams } from '../../src/console/wire.js';
import { noChromium, openConsole, SCREENSHOTS, suiteConsole } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

describe('console: admin views', { skip: noChromium }, () => {
  const { t, rx, client } = queueSuite();
  const { browser, page } = suiteConsole(t, 'adminToken');

  const admin = async <T>(path: string, token = t.adminToken): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${t.url}/console/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const basicAuth = () => {
    const c = t.cluster();
    return 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
  };

  it('shows each topic retention and each group instance with its assignments, positions and lag', async () => {
    const c = t.cluster();
    const created = await fetch(`${c.url}/create-topic/kept`, {
      method: 'POST',
      headers: { authorization: basicAuth() },
      body: JSON.stringify({ partitions: 2, retentionMs: 3_600_000, retentionBytes: 1 << 20 }),
    });
    assert.equal(created.status, 200, await created.text());
    const kafka = new Kafka(c);
    for (const v of ['a', 'b', 'c']) await kafka.producer().produce('kept', v, { partition: 0 });
    const consumer = kafka.consumer();
    const got = await consumer.consume({ consumerGroupId: 'watchers', instanceId: 'w1', topics: ['kept'], autoCommit: false, autoOffsetReset: 'earliest', timeout: 500 });
    assert.deepEqual(got.map((m) => m.value), ['a', 'b', 'c']);
    await consumer.commit({ consumerGroupId: 'watchers', instanceId: 'w1', offset: { topic: 'kept', partition: 0, offset: 1 } });

    await page.getByRole('link', { name: 'Streams' }).click();
    await page.reload();
    const topics = page.getByRole('table', { name: 'Topics' });
    const kept = topics.getByRole('row').filter({ hasText: 'kept' });
    await kept.first().waitFor();
    assert.deepEqual(await kept.nth(0).locator('td').allInnerTexts(), ['kept', '0', '0', '3', '1 h', '1 MiB']);
    assert.deepEqual(await kept.nth(1).locator('td').allInnerTexts(), ['kept', '1', '0', '0', '1 h', '1 MiB']);

    const groups = page.getByRole('table', { name: 'Consumer groups' }).locator('tbody tr').filter({ hasText: 'watchers' });
    await eventually(async () => (await groups.count()) === 2, 'a row per assigned partition');
    const rows = await Promise.all((await groups.all()).map((r) => r.locator('td').allInnerTexts()));
    const shown = rows.map(([group, instance, , topic, partition, committed, position, latest, lag]) => [group, instance, topic, partition, committed, position, latest, lag]);
    // Partition 0: committed 1 of 3 read, so 2 behind; partition 1 is empty and nothing is committed.
    assert.deepEqual(shown.sort(), [
      ['watchers', 'w1', 'kept', '0', '1', '3', '3', '2'],
      ['watchers', 'w1', 'kept', '1', 'none', '0', '0', '0'],
    ]);
    // The SDK agrees with what the console shows as committed.
    const committed = await consumer.committed({ consumerGroupId: 'watchers', instanceId: 'w1', topicPartitions: [{ topic: 'kept', partition: 0 }] });
    assert.equal(committed[0].offset, 1);

    // The view the page reads: the read-only admin token may read it, nobody else.
    const view = await admin<ConsoleStreams>('streams/default', t.adminReadOnlyToken);
    assert.equal(view.status, 200);
    assert.deepEqual(view.body.topics.find((x) => x.topic === 'kept')?.retentionMs, 3_600_000);
    assert.equal((await admin('streams/default', 'wrong')).status, 401);
    assert.equal((await admin('streams/nope')).status, 404);
    await page.screenshot({ path: join(SCREENSHOTS, 'streams-groups.png'), fullPage: true });

    // The read-only console sees topics and groups but cannot read or produce messages.
    const ro = await openConsole(browser, t.url, t.adminReadOnlyToken);
    await ro.getByRole('link', { name: 'Streams' }).click();
    await ro.getByRole('table', { name: 'Consumer groups' }).getByRole('cell', { name: 'watchers' }).first().waitFor();
    await ro.getByText('Stream clusters have no read-only credentials').waitFor();
    assert.equal(await ro.getByRole('button', { name: 'Produce', exact: true }).count(), 0);
    await ro.close();
  });

  it('lists messages in flight and waiting, and cancels one for the SDK', async () => {
    let release = () => {};
    rx.hold('/busy', new Promise<void>((resolve) => (release = resolve)));
    const busy = await client.publish({ url: `${rx.url}/busy`, body: 'held', retries: 0 });
    const later = await client.publish({ url: `${rx.url}/later`, body: 'later', delay: 3600 });
    await eventually(async () => rx.pending('/busy') === 1, 'the held delivery to be in flight');

    await page.getByRole('link', { name: 'Queue' }).click();
    await page.reload();
    const pending = page.getByRole('table', { name: 'Pending messages' });
    const busyRow = pending.getByRole('row').filter({ hasText: busy.messageId });
    const laterRow = pending.getByRole('row').filter({ hasText: later.messageId });
    await laterRow.waitFor();
    const [, busyState, busyUrl, , busyRetried] = await busyRow.locator('td').allInnerTexts();
    assert.deepEqual([busyState, busyUrl, busyRetried], ['IN_PROGRESS', `POST ${rx.url}/busy`, '0 of 0']);
    const [, laterState, , , , laterNext] = await laterRow.locator('td').allInnerTexts();
    assert.equal(laterState, 'CREATED');
    assert.ok(Date.parse(laterNext) > Date.now() + 3_500_000, laterNext);
    await page.screenshot({ path: join(SCREENSHOTS, 'queue-pending.png'), fullPage: true });

    // Paged: one at a time, the cursor leads to the other.
    const first = await admin<ConsolePendingPage>('queue/messages?count=1');
    assert.equal(first.body.messages.length, 1);
    assert.equal(first.body.cursor, '1');
    const second = await admin<ConsolePendingPage>(`queue/messages?count=1&cursor=${first.body.cursor}`);
    assert.deepEqual([...first.body.messages, ...second.body.messages].map((m) => m.messageId).sort(), [busy.messageId, later.messageId].sort());
    assert.equal((await admin('queue/messages?count=0')).status, 400);

    // The read-only console lists them with no cancel, and its queue token is refused one.
    const ro = await openConsole(browser, t.url, t.adminReadOnlyToken);
    await ro.getByRole('link', { name: 'Queue' }).click();
    await ro.getByRole('table', { name: 'Pending messages' }).getByRole('cell', { name: later.messageId }).waitFor();
    assert.equal(await ro.getByRole('button', { name: /^Cancel/ }).count(), 0);
    await ro.close();
    const q = t.queue();
    const refused = await fetch(`${q.url}/v2/messages/${later.messageId}`, { method: 'DELETE', headers: { authorization: `Bearer ${q.readOnlyToken}` } });
    assert.ok(refused.status === 401 || refused.status === 403, String(refused.status));
    assert.equal((await client.messages.get(later.messageId)).messageId, later.messageId);

    await laterRow.getByRole('button', { name: `Cancel ${later.messageId}` }).click();
    await eventually(async () => (await laterRow.count()) === 0, 'the cancelled message to leave the list');
    await assert.rejects(client.messages.get(later.messageId));
    release();
    await eventually(async () => (await admin<ConsolePendingPage>('queue/messages')).body.messages.length === 0, 'the held message to be delivered');
  });

  it('sends nothing twice when a submit is double-clicked', async () => {
    const c = t.cluster();
    const created = await fetch(`${c.url}/create-topic/once`, { method: 'POST', headers: { authorization: basicAuth() }, body: JSON.stringify({ partitions: 1 }) });
    assert.equal(created.status, 200, await created.text());
    await page.getByRole('link', { name: 'Streams' }).click();
    await page.reload();
    await page.getByLabel('Produce topic').fill('once');
    await page.getByLabel('Produce value').fill('only one');
    await page.getByRole('button', { name: 'Produce', exact: true }).dblclick();
    await eventually(async () => (await page.getByLabel('Produce value').inputValue()) === '', 'the produce to be answered');
    // A second click landing after the answer finds the emptied form's button waiting for a value.
    assert.ok(await page.getByRole('button', { name: 'Produce', exact: true }).isDisabled());
    const kafka = new Kafka(c);
    const fetched = await kafka.consumer().fetch({ topic: 'once', partition: 0, offset: 0, timeout: 500 });
    assert.deepEqual(fetched.map((m) => m.value), ['only one']);

    await page.getByRole('link', { name: 'Queue' }).click();
    await page.reload();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Schedule destination').fill(`${rx.url}/twice`);
    await form.getByLabel('Cron').fill('0 4 * * *');
    await form.getByRole('button', { name: 'Create schedule' }).dblclick();
    await page.getByRole('table', { name: 'Schedule list' }).getByRole('row').filter({ hasText: `${rx.url}/twice` }).first().waitFor();
    const made = (await client.schedules.list()).filter((s) => s.destination === `${rx.url}/twice`);
    assert.equal(made.length, 1, JSON.stringify(made));
  });
});

// The stream, vector and queue pages in headless Chromium: what the official SDKs wrote shows
// in the console, and what the console does (produce, delete, dead-letter retry and delete)
// the SDKs see. A read-only console shows the lists and offers no writes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { Kafka } from '@upstash/kafka';
import { noChromium, openConsole, SCREENSHOTS, suiteConsole } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';
import { vectorClient } from '../support/vector-sdk.js';

describe('console: streams, vector and queue', { skip: noChromium }, () => {
  const { t, rx, client } = queueSuite();
  const { browser, page } = suiteConsole(t, 'adminToken');

  it('shows empty services without breaking', async () => {
    for (const [link, text] of [['Streams', 'No topics.'], ['Vector', 'No vectors in this namespace.'], ['Queue', 'No events.']]) {
      await page.getByRole('link', { name: link }).click();
      await page.getByText(text).waitFor();
    }
    await page.getByText('No failed messages.').waitFor();
  });

  it('lists topics and messages the SDK produced, and produces what the SDK fetches', async () => {
    const c = t.cluster();
    const created = await fetch(`${c.url}/create-topic/events`, {
      method: 'POST',
      headers: { authorization: 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64') },
      body: JSON.stringify({ partitions: 2 }),
    });
    assert.equal(created.status, 200, await created.text());
    const kafka = new Kafka(c);
    await kafka.producer().produce('events', 'from the sdk', { partition: 0, key: 'k1' });

    await page.getByRole('link', { name: 'Streams' }).click();
    await page.reload();
    const topics = page.getByRole('table', { name: 'Topics' });
    await topics.getByRole('row').filter({ hasText: 'events' }).nth(1).waitFor();
    assert.deepEqual((await topics.getByRole('row').nth(1).locator('td').allInnerTexts()).slice(0, 4), ['events', '0', '0', '1']);

    await page.getByLabel('Partition').fill('0');
    await page.getByLabel('From offset or time').fill('0');
    await page.getByRole('button', { name: 'Fetch' }).click();
    const messages = page.getByRole('table', { name: 'Messages' });
    await messages.getByRole('cell', { name: 'from the sdk' }).waitFor();
    // By time: from an hour ago finds it, from an hour ahead finds nothing.
    await page.getByLabel('From offset or time').fill(new Date(Date.now() - 3_600_000).toISOString());
    await page.getByRole('button', { name: 'Fetch' }).click();
    await messages.getByRole('cell', { name: 'from the sdk' }).waitFor();
    await page.getByLabel('From offset or time').fill(new Date(Date.now() + 3_600_000).toISOString());
    await page.getByRole('button', { name: 'Fetch' }).click();
    await eventually(async () => (await messages.locator('tbody tr').count()) === 0, 'no messages after an hour ahead');
    const basicAuth = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
    const badTime = await fetch(`${c.url}/offsets/soon`, { method: 'POST', headers: { authorization: basicAuth }, body: JSON.stringify({ topic: 'events', partition: 0 }) });
    const badTimeError = ((await badTime.json()) as { error: string }).error;
    await page.getByLabel('From offset or time').fill('soon');
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.getByRole('region', { name: 'Message browser' }).locator('.field-error').getByText(badTimeError, { exact: true }).waitFor();
    await page.getByLabel('From offset or time').fill('0');
    await page.getByRole('button', { name: 'Fetch' }).click();
    await messages.getByRole('cell', { name: 'from the sdk' }).waitFor();

    await page.getByLabel('Produce topic').fill('events');
    await page.getByLabel('Produce value').fill('from the console');
    await page.getByRole('button', { name: 'Produce', exact: true }).click();
    // The form clears its value once the server has answered.
    await eventually(async () => (await page.getByLabel('Produce value').inputValue()) === '', 'the produce to be answered');
    const fromConsole = (
      await Promise.all([0, 1].map((partition) => kafka.consumer().fetch({ topic: 'events', partition, offset: 0, timeout: 1000 })))
    ).flat();
    assert.ok(fromConsole.some((m) => m.value === 'from the console'), JSON.stringify(fromConsole));

    await page.getByLabel('Produce topic').fill('missing');
    await page.getByLabel('Produce value').fill('x');
    await page.getByRole('button', { name: 'Produce', exact: true }).click();
    const refusal = await fetch(`${c.url}/produce`, {
      method: 'POST',
      headers: { authorization: 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64') },
      body: JSON.stringify({ topic: 'missing', value: 'x' }),
    });
    const error = ((await refusal.json()) as { error: string }).error;
    await page.getByRole('region', { name: 'Produce' }).locator('.field-error').getByText(error, { exact: true }).waitFor();

    // A consumer group that read and committed everything: no lag on either partition.
    const consumer = kafka.consumer();
    const group = { consumerGroupId: 'readers', instanceId: 'r1', topics: ['events'], autoCommit: false, autoOffsetReset: 'earliest' as const, timeout: 200 };
    for (let got = await consumer.consume(group); got.length > 0; got = await consumer.consume(group)) {
      await consumer.commit({ consumerGroupId: 'readers', instanceId: 'r1' });
    }
    await page.reload();
    const lagRows = page.getByRole('table', { name: 'Consumer groups' }).locator('tbody tr');
    await eventually(async () => (await lagRows.count()) === 2, 'a row per partition of the group');
    for (const row of await lagRows.all()) {
      const [name, instance, , topic, , committed, , , lag] = await row.locator('td').allInnerTexts();
      assert.deepEqual([name, instance, topic, lag], ['readers', 'r1', 'events', '0']);
      assert.match(committed, /^\d+$|^none$/);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'streams.png'), fullPage: true });
  });

  it('lists vectors the SDK upserted, and deletes one for the SDK', async () => {
    const index = vectorClient(t);
    await index.upsert([
      { id: 'doc-1', vector: [0.1, 0.2, 0.3], metadata: { title: 'first' } },
      { id: 'doc-2', vector: [0.3, 0.2, 0.1], metadata: { title: 'second' } },
    ]);
    await page.getByRole('link', { name: 'Vector' }).click();
    await page.reload();
    await page.getByText('2 vectors · dimension 3').waitFor();
    const table = page.getByRole('table', { name: 'Vectors' });
    await table.getByRole('cell', { name: '{"title":"second"}' }).waitFor();
    await page.getByLabel('Vector or text').fill('[0.3, 0.2, 0.1]');
    await page.getByLabel('topK').fill('1');
    await page.getByRole('button', { name: 'Query' }).click();
    const matches = page.getByRole('table', { name: 'Matches' });
    await matches.getByRole('cell', { name: 'doc-2', exact: true }).waitFor();
    assert.equal(await matches.locator('tbody tr').count(), 1);
    await page.screenshot({ path: join(SCREENSHOTS, 'vector.png'), fullPage: true });

    const serverError = async (body: unknown) => {
      const res = await fetch(`${t.vectorIndex().url}/query`, { method: 'POST', headers: { authorization: `Bearer ${t.vectorIndex().token}` }, body: JSON.stringify(body) });
      return ((await res.json()) as { error: string }).error;
    };
    const queryError = page.getByRole('region', { name: 'Query' }).locator('.field-error');
    const wrongDimension = await serverError({ vector: [0.1, 0.2], topK: 1 });
    await page.getByLabel('Vector or text').fill('[0.1, 0.2]');
    await page.getByRole('button', { name: 'Query' }).click();
    await queryError.getByText(wrongDimension, { exact: true }).waitFor();
    const badFilter = await serverError({ vector: [0.1, 0.2, 0.3], topK: 1, filter: 'title = ' });
    await page.getByLabel('Vector or text').fill('[0.1, 0.2, 0.3]');
    await page.getByLabel('Metadata filter').fill('title = ');
    await page.getByRole('button', { name: 'Query' }).click();
    await queryError.getByText(badFilter, { exact: true }).waitFor();
    assert.notEqual(wrongDimension, badFilter);
    await page.getByRole('button', { name: 'Delete doc-1' }).click();
    await page.getByText('1 vectors · dimension 3').waitFor();
    assert.deepEqual(await index.fetch(['doc-1', 'doc-2']).then((r) => r.map((v) => v?.id ?? null)), [null, 'doc-2']);
  });

  it('shows queue events and dead letters, and deletes a dead letter for the SDK', async () => {
    rx.answer('/refuse', () => ({ status: 489, headers: { 'upstash-nonretryable-error': 'true' }, body: 'no' }));
    const res = await client.publish({ url: `${rx.url}/refuse`, body: 'x', retries: 0 });
    await eventually(async () => (await client.dlq.listMessages()).messages.some((m) => m.messageId === res.messageId), 'the message in the DLQ');

    await page.getByRole('link', { name: 'Queue' }).click();
    await page.reload();
    const dlq = page.getByRole('table', { name: 'Dead-letter queue' });
    await dlq.getByRole('cell', { name: res.messageId }).waitFor();
    await page.getByLabel('State').selectOption('FAILED');
    const states = page.getByRole('table', { name: 'Events' }).locator('tbody td:nth-child(3)');
    await eventually(async () => {
      const shown = await states.allInnerTexts();
      return shown.length > 0 && shown.every((s) => s === 'FAILED');
    }, 'only FAILED events listed');
    // A message's timeline: every event of that message, and only those.
    const other = await client.publish({ url: `${rx.url}/other`, body: 'y' });
    await page.reload();
    await page.getByRole('table', { name: 'Events' }).getByRole('button', { name: other.messageId }).first().waitFor();
    await page.getByRole('table', { name: 'Events' }).getByRole('button', { name: res.messageId }).first().click();
    await page.getByText(`Timeline of ${res.messageId}`).waitFor();
    await eventually(async () => {
      const ids = await page.getByRole('table', { name: 'Events' }).locator('tbody td:nth-child(2)').allInnerTexts();
      const shownStates = await states.allInnerTexts();
      return ids.every((id) => id === res.messageId) && ['CREATED', 'ACTIVE', 'FAILED'].every((s) => shownStates.includes(s));
    }, "the message's timeline");
    await page.getByRole('button', { name: 'All messages' }).click();
    await dlq.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No failed messages.').waitFor();
    assert.deepEqual((await client.dlq.listMessages()).messages, []);
  });

  it('lists schedules, queues and URL groups, and pauses a schedule and a queue for the SDK', async () => {
    const { scheduleId } = await client.schedules.create({ destination: `${rx.url}/nightly`, cron: '0 3 * * *' });
    await client.queue({ queueName: 'orders' }).upsert({ parallelism: 2 });
    await client.urlGroups.addEndpoints({ name: 'fanout', endpoints: [{ url: `${rx.url}/a` }, { url: `${rx.url}/b` }] });
    await page.getByRole('link', { name: 'Queue' }).click();
    await page.reload();
    const schedules = page.getByRole('table', { name: 'Schedule list' });
    const scheduleRow = schedules.getByRole('row').filter({ hasText: scheduleId });
    await scheduleRow.getByRole('cell', { name: '0 3 * * *' }).waitFor();
    await scheduleRow.getByRole('button', { name: 'Pause' }).click();
    await scheduleRow.getByRole('cell', { name: 'paused' }).waitFor();
    assert.equal((await client.schedules.get(scheduleId)).isPaused, true);

    const queueRow = page.getByRole('table', { name: 'Queue list' }).getByRole('row').filter({ hasText: 'orders' });
    await queueRow.getByRole('cell', { name: '2', exact: true }).waitFor();
    await queueRow.getByRole('button', { name: 'Pause' }).click();
    await queueRow.getByRole('cell', { name: 'paused' }).waitFor();
    assert.equal((await client.queue({ queueName: 'orders' }).get()).paused, true);
    await page.getByRole('list', { name: 'URL groups' }).getByText(`${rx.url}/b`).waitFor();

    const q = t.queue();
    const badCron = await fetch(`${q.url}/v2/schedules/${rx.url}/hourly`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, 'upstash-cron': 'every hour' } });
    assert.equal(badCron.status, 400);
    const badCronError = ((await badCron.json()) as { error: string }).error;
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Schedule destination').fill(`${rx.url}/hourly`);
    await form.getByLabel('Cron').fill('every hour');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.locator('.field-error').getByText(badCronError, { exact: true }).waitFor();
    await form.getByLabel('Cron').fill('0 * * * *');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await schedules.getByRole('row').filter({ hasText: `${rx.url}/hourly` }).waitFor();
    const made = (await client.schedules.list()).filter((s) => s.destination === `${rx.url}/hourly`);
    assert.deepEqual(made.map((s) => s.cron), ['0 * * * *']);
    await page.screenshot({ path: join(SCREENSHOTS, 'queue.png'), fullPage: true });
  });

  it('offers no writes to the read-only console', async () => {
    const ro = await openConsole(browser, t.url, t.adminReadOnlyToken);
    await ro.getByRole('link', { name: 'Streams' }).click();
    await ro.getByText('Stream clusters have no read-only credentials').waitFor();
    await ro.getByRole('link', { name: 'Vector' }).click();
    await ro.getByRole('cell', { name: 'doc-2', exact: true }).waitFor();
    assert.equal(await ro.getByRole('button', { name: /^Delete/ }).count(), 0);
    await ro.getByRole('link', { name: 'Queue' }).click();
    await ro.getByRole('table', { name: 'Events' }).getByRole('cell', { name: 'CREATED' }).first().waitFor();
    await ro.getByRole('table', { name: 'Schedule list' }).getByRole('cell', { name: 'paused' }).waitFor();
    assert.equal(await ro.getByRole('button', { name: /^(Retry|Pause|Resume)$/ }).count(), 0);
    await ro.close();
  });
});

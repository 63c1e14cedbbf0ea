// The filters of /v2/logs through @upstash/qstash's client.logs({filter}): URL group, schedule,
// caller IP, flow-control key, host and path, several values per field (OR), fields together
// (AND), and `messageIds` at the request's root. Events carry the schedule, caller and key.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

const EVERY_SECOND = '* * * * * *';

describe('queue log filters', () => {
  const { t, rx, client } = queueSuite();

  /** The DELIVERED events matching `filter`. */
  const delivered = async (filter: Record<string, string | string[]>) => (await client.logs({ filter: { ...filter, state: 'DELIVERED' } })).logs;

  it('filters by URL group, schedule, caller IP, flow-control key, host, path and message ids', async () => {
    await client.urlGroups.addEndpoints({ name: 'lf-group', endpoints: [{ url: `${rx.url}/lf/g1` }, { url: `${rx.url}/lf/g2` }] });
    const fanned = await client.publish({ urlGroup: 'lf-group', body: 'g' });
    const keyed = await client.publish({ url: `${rx.url}/lf/keyed`, body: 'k', flowControl: { key: 'lf-key', parallelism: 2 } });
    const plain = await client.publish({ url: `${rx.url}/lf/plain`, body: 'p' });
    const { scheduleId } = await client.schedules.create({ destination: `${rx.url}/lf/scheduled`, cron: EVERY_SECOND });
    await eventually(async () => rx.at('/lf/scheduled').length >= 2, 'two scheduled deliveries');
    await client.schedules.delete(scheduleId);
    const ids = [...fanned.map((r) => r.messageId), keyed.messageId, plain.messageId];
    await eventually(async () => (await client.logs({ messageIds: ids })).logs.filter((l) => l.state === 'DELIVERED').length === 4, 'DELIVERED logs');

    const group = await client.logs({ filter: { urlGroup: 'lf-group' } });
    assert.deepEqual(new Set(group.logs.map((l) => l.messageId)), new Set(fanned.map((r) => r.messageId)));
    assert.ok(group.logs.every((l) => l.urlGroup === 'lf-group'));
    assert.equal((await client.logs({ filter: { urlGroup: 'no-such-group' } })).logs.length, 0);

    const scheduled = await delivered({ scheduleId });
    assert.ok(scheduled.length >= 2);
    assert.ok(scheduled.every((l) => l.url === `${rx.url}/lf/scheduled` && (l as { scheduleId?: string }).scheduleId === scheduleId));
    assert.equal((await client.logs({ filter: { scheduleId: 'scd_unknown' } })).logs.length, 0);

    const keyedLogs = await delivered({ flowControlKey: 'lf-key' });
    assert.deepEqual(keyedLogs.map((l) => l.messageId), [keyed.messageId]);
    assert.equal((keyedLogs[0] as { flowControlKey?: string }).flowControlKey, 'lf-key');

    const callerIp = (keyedLogs[0] as { callerIp?: string }).callerIp;
    assert.ok(callerIp !== undefined && callerIp !== '');
    assert.ok((await delivered({ callerIp })).some((l) => l.messageId === plain.messageId));
    assert.equal((await client.logs({ filter: { callerIp: '203.0.113.9' } })).logs.length, 0);

    // Several values of one field: either; two fields: both.
    const either = await delivered({ path: ['/lf/plain', '/lf/keyed'] });
    assert.deepEqual(new Set(either.map((l) => l.messageId)), new Set([plain.messageId, keyed.messageId]));
    const both = await delivered({ path: ['/lf/plain', '/lf/keyed'], flowControlKey: 'lf-key' });
    assert.deepEqual(both.map((l) => l.messageId), [keyed.messageId]);
    const host = new URL(rx.url);
    assert.ok((await delivered({ host: host.host })).some((l) => l.messageId === plain.messageId));
    assert.ok((await delivered({ host: host.hostname, path: '/lf/g2' })).every((l) => l.url === `${rx.url}/lf/g2`));
    assert.equal((await client.logs({ filter: { host: 'elsewhere.example' } })).logs.length, 0);

    const byIds = await client.logs({ messageIds: [plain.messageId, keyed.messageId] });
    assert.deepEqual(new Set(byIds.logs.map((l) => l.messageId)), new Set([plain.messageId, keyed.messageId]));
    assert.ok(byIds.logs.some((l) => l.state === 'CREATED') && byIds.logs.some((l) => l.state === 'DELIVERED'));
  });

  it('shows the next attempt of a RETRY event as whole ms (the back-off and a Retry-After of 1.1s are not)', async () => {
    rx.answer('/lf/retry-fraction', (n) => (n === 0 ? { status: 500 } : { status: 429, headers: { 'retry-after': '1.1s' } }));
    const { messageId } = await client.publish({ url: `${rx.url}/lf/retry-fraction`, body: 'r', retries: 2 });
    const retries = async () => (await client.logs({ filter: { messageId, state: 'RETRY' } })).logs;
    await eventually(async () => (await retries()).length === 2, 'two RETRY events');
    for (const l of await retries()) assert.ok(Number.isInteger(l.nextDeliveryTime), `nextDeliveryTime ${l.nextDeliveryTime}`);
  });

  it('answers a cursor that is no offset (negative, fractional, not a number) with an empty page, never holes or a 500', async () => {
    await client.publish({ url: `${rx.url}/lf/cursor`, body: 'c', label: 'lf-cursor' });
    await eventually(async () => (await client.logs({ filter: { label: 'lf-cursor', state: 'DELIVERED' } })).logs.length === 1, 'a DELIVERED log');
    const q = t.queue();
    const get = async (path: string) => {
      const res = await fetch(`${q.url}${path}`, { headers: { authorization: `Bearer ${q.token}` } });
      return [res.status, await res.json()];
    };
    for (const cursor of ['-2', '1.5', 'junk']) {
      assert.deepEqual(await get(`/v2/logs?count=2&cursor=${cursor}`), [200, { events: [] }], cursor);
      assert.deepEqual(await get(`/v2/logs?count=2&cursor=${cursor}&label=lf-cursor`), [200, { events: [] }], cursor);
      assert.deepEqual(await get(`/v2/workflows/logs?count=2&cursor=${cursor}`), [200, { runs: [] }], cursor);
      assert.deepEqual(await get(`/v2/dlq?source=workflow&count=2&cursor=${cursor}`), [200, { messages: [] }], cursor);
    }
    const [, first] = (await get('/v2/logs?count=1&label=lf-cursor')) as [number, { events: unknown[] }];
    assert.equal(first.events.length, 1);
  });
});

// The logs of /v2/logs survive a restart (they live in <dataDir>/queue/events.log and
// events.prev.log), and stay bounded: the newest queue.maxLogEvents are answered, and a full
// events.log becomes events.prev.log.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readFrames } from '../../src/storage/frames.js';
import { eventually } from '../support/eventually.js';
import { embeddedQueueOnly, startTestLarder, type TestLarder } from '../support/larder.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../support/queue-receiver.js';

interface Logged {
  time: number;
  state: string;
  messageId: string;
}

/** Every event /v2/logs answers, newest first, page by page. */
async function allLogs(t: TestLarder, query = ''): Promise<Logged[]> {
  const q = t.queue();
  const out: Logged[] = [];
  let cursor: string | undefined = '0';
  while (cursor !== undefined) {
    const res = await fetch(`${q.url}/v2/logs?count=7&cursor=${cursor}${query}`, { headers: { authorization: `Bearer ${q.token}` } });
    assert.equal(res.status, 200);
    const page = (await res.json()) as { events: Logged[]; cursor?: string };
    out.push(...page.events);
    cursor = page.cursor;
  }
  return out;
}

/** Events in <dataDir>/queue/<file>. */
const fileEvents = (dataDir: string, file: string) => readFrames(readFileSync(join(dataDir, 'queue', file))).frames.length;

describe('queue logs across restarts', () => {
  const dirs: string[] = [];
  const receivers: QueueReceiver[] = [];
  after(async () => {
    for (const rx of receivers) await rx.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function run(config: Record<string, unknown>, publish: (url: string, t: TestLarder) => Promise<string[]>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-logs-'));
    dirs.push(dataDir);
    const first = await startTestLarder(config, dataDir);
    const q = first.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    receivers.push(rx);
    rx.answer('/flaky', (n) => ({ status: n === 0 ? 500 : 200 }));
    const ids = await publish(rx.url, first);
    return { dataDir, first, rx, ids };
  }

  it('answers the same logs, filters included, after a restart', async () => {
    const config = { queue: { retryDelayScale: 0.001 } };
    const { dataDir, first, rx, ids } = await run(config, async (url, t) => {
      const client = queueClient(t.queue());
      const out: string[] = [];
      for (let i = 0; i < 3; i++) out.push((await client.publish({ url: `${url}/ok`, body: `m${i}` })).messageId);
      out.push((await client.publish({ url: `${url}/flaky`, body: 'f', retries: 2 })).messageId);
      out.push((await client.publish({ url: `${url}/later`, body: 'l', delay: 3600 })).messageId);
      return out;
    });
    await eventually(async () => rx.at('/ok').length === 3 && rx.at('/flaky').length === 2, 'the deliveries');
    await eventually(async () => (await allLogs(first, '&state=DELIVERED')).length === 4, 'four DELIVERED events');
    const cancel = await fetch(`${first.queue().url}/v2/messages/${ids[4]}`, { method: 'DELETE', headers: { authorization: `Bearer ${first.queue().token}` } });
    assert.equal(cancel.status, 200);
    const before = await allLogs(first);
    const flaky = await allLogs(first, `&messageId=${ids[3]}`);
    assert.deepEqual(
      flaky.map((e) => e.state),
      ['DELIVERED', 'ACTIVE', 'RETRY', 'ERROR', 'ACTIVE', 'CREATED'],
    );
    assert.deepEqual(new Set(before.map((e) => e.state)), new Set(['CREATED', 'ACTIVE', 'DELIVERED', 'ERROR', 'RETRY', 'CANCELED']));
    await first.close(true);

    const second = await startTestLarder(config, dataDir);
    try {
      assert.deepEqual(await allLogs(second), before);
      assert.deepEqual(await allLogs(second, `&messageId=${ids[3]}`), flaky);
      assert.deepEqual(await allLogs(second, '&state=CANCELED'), before.filter((e) => e.state === 'CANCELED'));
    } finally {
      await second.close(true);
    }
  });

  embeddedQueueOnly('counts the events in <dataDir>/queue/events*.log')('keeps the newest queue.maxLogEvents, in memory and on disk, before and after a restart', async () => {
    const config = { queue: { maxLogEvents: 10 } };
    // Each delivered message makes three events: CREATED, ACTIVE, DELIVERED.
    const { dataDir, first, rx, ids } = await run(config, async (url, t) => {
      const client = queueClient(t.queue());
      const out: string[] = [];
      for (let i = 0; i < 9; i++) out.push((await client.publish({ url: `${url}/ok`, body: `m${i}` })).messageId);
      return out;
    });
    await eventually(async () => rx.at('/ok').length === 9 && (await allLogs(first, '&state=DELIVERED')).length >= 3, 'the deliveries');
    await eventually(async () => (await allLogs(first))[0]?.state === 'DELIVERED' && rx.at('/ok').length === 9, 'the last event');
    // 27 events: events.log rotated at 10 and 20, so events.prev.log holds 11 to 20.
    await new Promise((r) => setTimeout(r, 50));
    const before = await allLogs(first);
    assert.equal(before.length, 10);
    assert.equal(before.filter((e) => e.state === 'DELIVERED').length, new Set(before.filter((e) => e.state === 'DELIVERED').map((e) => e.messageId)).size);
    assert.ok(before.every((e) => ids.includes(e.messageId)));
    assert.equal(fileEvents(dataDir, 'events.prev.log'), 10);
    assert.equal(fileEvents(dataDir, 'events.log'), 7);
    await first.close(true);

    const second = await startTestLarder(config, dataDir);
    try {
      assert.deepEqual(await allLogs(second), before);
    } finally {
      await second.close(true);
    }
    // A smaller bound at start trims the file at once.
    const third = await startTestLarder({ queue: { maxLogEvents: 4 } }, dataDir);
    try {
      assert.deepEqual(await allLogs(third), before.slice(0, 4));
      assert.equal(fileEvents(dataDir, 'events.prev.log') + fileEvents(dataDir, 'events.log'), 4);
    } finally {
      await third.close(true);
    }
  });
});

// Messages survive a restart: pending (delayed) ones are delivered by
// the next server on the same data dir, with their original message ids and the same keys.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually } from '../support/eventually.js';
import { startTestLarder } from '../support/larder.js';
import { queueClient, startQueueReceiver } from '../support/queue-receiver.js';

describe('queue restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-restart-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('delivers pending messages after a restart', async () => {
    const config = { queue: { retryDelayScale: 0.001 } };
    const first = await startTestLarder(config, dataDir);
    const q = first.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    try {
      const client = queueClient(q);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await client.publish({ url: `${rx.url}/later`, body: `m${i}`, delay: 2 })).messageId);
      await first.close(true);
      assert.equal(rx.at('/later').length, 0);

      const second = await startTestLarder(config, dataDir);
      try {
        assert.deepEqual(second.queue().token, q.token);
        assert.deepEqual(second.queue().currentSigningKey, q.currentSigningKey);
        const client2 = queueClient({ url: second.queue().url, token: q.token });
        assert.equal((await client2.messages.get(ids[0])).body, 'm0');
        await eventually(async () => rx.at('/later').length === 5, 'the five delayed messages');
        assert.deepEqual(rx.at('/later').map((d) => d.headers['upstash-message-id']).sort(), [...ids].sort());
        assert.ok(rx.at('/later').every((d) => d.verified));
      } finally {
        await second.close(true);
      }
    } finally {
      await rx.close();
    }
  });
});

describe('queue shutdown', () => {
  it('stops promptly while a destination is slow, and delivers that message again after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-slow-'));
    const first = await startTestLarder({}, dataDir);
    const q = first.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    try {
      // The first request never gets an answer before the server stops.
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      rx.hold('/slow', held);
      const client = queueClient(q);
      const { messageId } = await client.publish({ url: `${rx.url}/slow`, body: 'x', timeout: '1h' });
      await eventually(async () => rx.pending('/slow') === 1, 'the attempt in flight');
      await first.close(true);
      release();
      const second = await startTestLarder({}, dataDir);
      try {
        // The aborted attempt (recorded once released) and the redelivery, with one message id.
        await eventually(async () => rx.at('/slow').length === 2, 'the redelivery');
        assert.ok(rx.at('/slow').every((d) => d.headers['upstash-message-id'] === messageId));
      } finally {
        await second.close(true);
      }
    } finally {
      await rx.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

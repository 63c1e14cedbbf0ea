// queue.maxPendingMessages: messages waiting for delivery beyond it are refused with 429, by a
// publish, an enqueue or a batch, and a cancel makes room again. A batch larger than the room
// left is refused before its messages are built, so a body of hundreds of thousands of entries
// cannot hold the server's thread.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QstashRatelimitError } from '@upstash/qstash';
import { suiteLarder } from '../support/larder.js';
import { queueClient } from '../support/queue-receiver.js';

const FULL = 'too many messages are waiting for delivery; try again later';

describe('queue.maxPendingMessages', () => {
  const t = suiteLarder({ queue: { maxPendingMessages: 5 } });
  const DEST = 'http://127.0.0.1:9/later';
  const later = (n: number) => Array.from({ length: n }, (_, i) => ({ url: DEST, body: `m${i}`, delay: 3600 }));
  // The SDK reads every 429 as a rate limit; the body's text is checked over fetch below.
  const full = (e: unknown) => e instanceof QstashRatelimitError;

  it('refuses what would wait beyond it, and takes again once a message is gone', async () => {
    const client = queueClient(t.queue());
    const first = await client.batch(later(3));
    await client.publish({ url: DEST, body: 'four', delay: 3600 });
    await client.queue({ queueName: 'q' }).enqueue({ url: DEST, body: 'five', delay: 3600 });
    await assert.rejects(client.publish({ url: DEST, body: 'six', delay: 3600 }), full);
    await assert.rejects(client.batch(later(1)), full);
    await client.messages.cancel((first[0] as { messageId: string }).messageId);
    await client.publish({ url: DEST, body: 'five again', delay: 3600 });
  });

  it('refuses a batch past the room left before building its messages', async () => {
    const entries = JSON.stringify(Array.from({ length: 300_000 }, () => ({ destination: DEST })));
    const started = performance.now();
    const res = await fetch(`${t.queue().url}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.queue().token}`, 'content-type': 'application/json' },
      body: entries,
    });
    assert.deepEqual(await res.json(), { error: FULL, status: 429 });
    // Building 300,000 messages held the thread over ten seconds; reading the body takes well under one.
    assert.ok(performance.now() - started < 5000, `answered in ${Math.round(performance.now() - started)} ms`);
    const messages = await queueClient(t.queue()).logs({ filter: { url: DEST } });
    assert.equal(messages.logs.filter((l) => l.state === 'CREATED').length, 6, 'nothing of the refused batch is stored');
  });
});

// At least once across crashes (issue 9): 1,000 messages published in one batch, the server
// killed with SIGKILL while deliveries are in flight to a slow destination, then restarted on
// the same data dir. Every message arrives at least once, none is lost, every delivery
// verifies, and a message delivered twice carries its one Upstash-Message-Id both times.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder } from '../support/larder-process.js';
import { queueClient, startQueueReceiver } from '../support/queue-receiver.js';

const MESSAGES = 1000;
const RECEIVER_DELAY_MS = 20;
const IN_FLIGHT = 32;

/** Polls `check` every 20 ms for up to `ms`. */
async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) assert.fail(`never happened within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('queue crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-crash-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it(`delivers each of ${MESSAGES} messages at least once across a kill -9 mid-delivery`, async () => {
    // On engine postgres the killed process's leases last the attempt timeout plus 5 s, and the
    // restarted process (another owner) delivers their messages once they run out.
    const config = { queue: { retryDelayScale: 0.001, maxConcurrentDeliveries: IN_FLIGHT, deliveryTimeoutMs: 2000 } };
    const first = await spawnLarder({ dataDir, config });
    const q = first.info.queue;
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    try {
      rx.slow('/crash', RECEIVER_DELAY_MS);
      const answers = await queueClient(q).batch(Array.from({ length: MESSAGES }, (_, i) => ({ url: `${rx.url}/crash`, body: `m${i}` })));
      const ids = answers.map((a) => (a as { messageId: string }).messageId);
      assert.equal(new Set(ids).size, MESSAGES);

      await waitFor(() => rx.at('/crash').length >= MESSAGES / 4, 20_000, 'a quarter of the deliveries');
      first.kill('SIGKILL');
      assert.equal((await first.exited).signal, 'SIGKILL');
      const beforeCrash = rx.at('/crash').length;
      assert.ok(beforeCrash < MESSAGES, `all ${beforeCrash} were delivered before the kill`);

      const second = await spawnLarder({ dataDir, config });
      try {
        const seen = () => new Set(rx.at('/crash').map((d) => d.body)).size;
        // The receiver records an attempt cut by the kill too, so every message may be seen
        // before the attempts in flight come again: on engine postgres only once their leases
        // run out.
        await waitFor(() => seen() === MESSAGES && rx.at('/crash').length > MESSAGES, 20_000, `all ${MESSAGES} messages (${seen()} so far) and a repeat`);
        const deliveries = rx.at('/crash');
        for (const d of deliveries) {
          assert.ok(d.verified, d.verifyError);
          const i = Number(d.body.slice(1));
          assert.equal(d.headers['upstash-message-id'], ids[i], `delivery of ${d.body}`);
        }
        // The attempts in flight at the kill (the receiver was still pausing) came again, and
        // only those: every outcome written before the kill held.
        const duplicates = deliveries.length - MESSAGES;
        assert.ok(duplicates > 0, 'no message was delivered twice: the kill came after the deliveries');
        assert.ok(duplicates <= IN_FLIGHT, `${duplicates} duplicates, more than the ${IN_FLIGHT} attempts that can be in flight`);
      } finally {
        await second.stop();
      }
    } finally {
      await rx.close();
    }
  });
});

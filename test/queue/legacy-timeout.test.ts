// A message an earlier Larder stored with an Upstash-Timeout past setTimeout's longest (2^31-1 ms;
// publishes refuse one since, options/duration.ts) waits that longest for its answer: the timer
// it made fired at once, so each attempt timed out as it started and the message went to the DLQ.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { frame, readFrames } from '../../src/storage/frames.js';
import { eventually } from '../support/eventually.js';
import { embeddedQueueOnly, startTestLarder } from '../support/larder.js';
import { queueClient, startQueueReceiver } from '../support/queue-receiver.js';

const THIRTY_DAYS_MS = 30 * 86_400_000;

/** Rewrites each queue log in `dataDir` with `edit` applied to every op's JSON; how many ops it changed. */
function editQueueOps(dataDir: string, edit: (json: string) => string): number {
  const dir = join(dataDir, 'queue');
  let changed = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.aof'))) {
    const { frames } = readFrames(readFileSync(join(dir, name)));
    const edited = frames.map((f) => {
      const json = f.toString('utf8');
      const after = edit(json);
      if (after !== json) changed++;
      return frame(Buffer.from(after));
    });
    writeFileSync(join(dir, name), Buffer.concat(edited));
  }
  return changed;
}

describe('queue: a stored timeout past the longest timer', () => {
  embeddedQueueOnly('edits the embedded store\'s log')('waits the longest timer for the answer, rather than timing out at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-legacy-timeout-'));
    const config = { queue: { retryDelayScale: 0.001 } };
    const first = await startTestLarder(config, dataDir);
    const q = first.queue();
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    try {
      const { messageId } = await queueClient(q).publish({ url: `${rx.url}/slow`, body: 'x', delay: 1, timeout: '1h', retries: 0 });
      await first.close(true);
      assert.equal(editQueueOps(dataDir, (json) => json.replace('"timeoutMs":3600000', `"timeoutMs":${THIRTY_DAYS_MS}`)), 1);
      let release: () => void = () => undefined;
      rx.hold('/slow', new Promise<void>((r) => (release = r)));
      const second = await startTestLarder(config, dataDir);
      try {
        await eventually(async () => rx.pending('/slow') === 1, 'the attempt in flight');
        await new Promise((r) => setTimeout(r, 200)); // longer than a timer of 2^31 ms or more waits
        release();
        const client = queueClient({ url: second.queue().url, token: q.token });
        await eventually(async () => (await client.logs({ filter: { messageId } })).logs.some((e) => e.state === 'DELIVERED'), 'delivered');
        assert.deepEqual((await client.dlq.listMessages()).messages, []);
      } finally {
        await second.close(true);
      }
    } finally {
      await rx.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

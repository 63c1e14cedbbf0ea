// kill -9 while the queue's log is being compacted (the snapshot is written a slice at a time
// while publishes go on, issue 20) loses no acknowledged message: those the snapshot was
// taking and those published meanwhile all come back. Messages wait a day, so none is
// delivered and every one must still be pending after the restart. A clean stop at that point
// finishes the compaction instead.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { spawnLarder } from '../support/larder-process.js';
import { embeddedQueueOnly } from '../support/larder.js';
import { queueClient } from '../support/queue-receiver.js';
import { assertCompactedWhole } from '../support/restarts.js';

const BATCH = 500;
/** Publishes answered after the temp file was seen, before the kill. */
const PUBLISHES_DURING = 5;
const DESTINATION = 'http://127.0.0.1:9/never';
const A_DAY_S = 86_400;

const compacting = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.tmp'));

const config = { logLevel: 'silent', queue: { fsync: 'always', compactAfterBytes: 2 * 1024 * 1024 } };

/** Publishes until PUBLISHES_DURING were answered while one compaction ran; returns every id. */
async function publishIntoACompaction(client: ReturnType<typeof queueClient>, queueDir: string): Promise<string[]> {
  const ids: string[] = [];
  let during = -1;
  while (during < PUBLISHES_DURING) {
    if (during < 0) {
      const batch = Array.from({ length: BATCH }, (_, i) => ({ url: DESTINATION, body: `m${ids.length + i}`, delay: A_DAY_S }));
      for (const a of await client.batch(batch)) ids.push((a as { messageId: string }).messageId);
      assert.ok(ids.length < 40_000, 'a compaction was seen running');
      if (compacting(queueDir)) during = 0;
      continue;
    }
    ids.push((await client.publish({ url: DESTINATION, body: `m${ids.length}`, delay: A_DAY_S })).messageId);
    during++;
    if (during === PUBLISHES_DURING && !compacting(queueDir)) during = -1; // it ended first: wait for the next one
  }
  return ids;
}

/** Checks that a sample of `ids`, and all of the last batches, are pending with their bodies. */
async function assertPending(info: Parameters<typeof queueClient>[0], ids: readonly string[]): Promise<void> {
  const restarted = queueClient(info);
  const sample = ids.filter((_, i) => i % 101 === 0 || i >= ids.length - 2 * BATCH);
  for (const id of sample) {
    const m = await restarted.messages.get(id);
    assert.equal(m.messageId, id);
    assert.equal(m.body, `m${ids.indexOf(id)}`);
  }
}

describe('queue kill -9 during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-kill-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  embeddedQueueOnly('watches the snapshot files of <dataDir>/queue')('keeps every message acknowledged before and during the compaction', async () => {
    const first = await spawnLarder({ dataDir, config });
    const ids = await publishIntoACompaction(queueClient(first.info.queue), join(dataDir, 'queue'));
    first.kill('SIGKILL'); // the temp file was there after the last answer
    assert.equal((await first.exited).signal, 'SIGKILL');

    const second = await spawnLarder({ dataDir, config });
    try {
      await assertPending(second.info.queue, ids);
    } finally {
      await second.stop();
    }
  });
});

describe('queue clean stop during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-stop-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  embeddedQueueOnly('watches the snapshot files of <dataDir>/queue')('finishes it: the next start finds every message in a snapshot', async () => {
    const first = await spawnLarder({ dataDir, config });
    const queueDir = join(dataDir, 'queue');
    const ids = await publishIntoACompaction(queueClient(first.info.queue), queueDir);
    assert.equal((await first.stop()).code, 0); // the temp file was there after the last answer
    assertCompactedWhole(queueDir);

    const second = await spawnLarder({ dataDir, config });
    try {
      await assertPending(second.info.queue, ids);
    } finally {
      await second.stop();
    }
  });
});

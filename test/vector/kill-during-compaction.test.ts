// kill -9 while a vector index's log is being compacted (the snapshot is written a slice at a
// time while upserts go on, issue 20) loses no acknowledged vector: those the snapshot was
// taking and those upserted meanwhile all come back.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Index } from '@upstash/vector';
import { spawnLarder } from '../support/larder-process.js';
import { TEST_RUNTIME } from '../support/larder.js';

const DIMENSION = 32;
const BATCH = 500;
/** Upserts answered after the temp file was seen, before the kill. */
const UPSERTS_DURING = 5;

const vector = (n: number) => Array.from({ length: DIMENSION }, (_, d) => ((n * 31 + d * 7) % 97) / 97 + 0.01);
const compacting = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.tmp'));

describe('vector kill -9 during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-vector-kill-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every vector acknowledged before and during the compaction', async () => {
    const config = { logLevel: 'silent', vector: { fsync: 'always', compactAfterBytes: 1024 * 1024, indexes: { default: { dimension: DIMENSION } } } };
    const first = await spawnLarder({ runtime: TEST_RUNTIME, dataDir, config });
    const indexDir = join(dataDir, 'vector', 'default');
    const c = first.info.indexes.get('default')!;
    const index = new Index({ url: c.url, token: c.token, retry: false, enableTelemetry: false });
    let acked = 0;
    let during = -1;
    while (during < UPSERTS_DURING) {
      const size = during < 0 ? BATCH : 1;
      await index.upsert(Array.from({ length: size }, (_, i) => ({ id: `v${acked + i}`, vector: vector(acked + i) })));
      acked += size;
      assert.ok(acked < 100_000, 'a compaction was seen running');
      if (during >= 0) during++;
      else if (compacting(indexDir)) during = 0;
      if (during === UPSERTS_DURING && !compacting(indexDir)) during = -1; // it ended first: wait for the next one
    }
    first.kill('SIGKILL'); // the temp file was there after the last answer
    assert.equal((await first.exited).signal, 'SIGKILL');

    const second = await spawnLarder({ runtime: TEST_RUNTIME, dataDir, config });
    try {
      const d = second.info.indexes.get('default')!;
      const again = new Index({ url: d.url, token: d.token, retry: false, enableTelemetry: false });
      const ids = Array.from({ length: acked }, (_, i) => `v${i}`);
      const missing: string[] = [];
      for (let i = 0; i < ids.length; i += 1000) {
        const got = await again.fetch(ids.slice(i, i + 1000));
        got.forEach((r, j) => {
          if (r === null) missing.push(ids[i + j]);
        });
      }
      assert.deepEqual(missing, []);
    } finally {
      await second.stop();
    }
  });
});

// kill -9 while a vector index's log is being compacted (the snapshot is written a slice at a
// time while upserts go on, issue 20) loses no acknowledged vector: those the snapshot was
// taking and those upserted meanwhile all come back. A clean stop at that point finishes the
// compaction instead.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Index } from '@upstash/vector';
import { spawnLarder } from '../support/larder-process.js';
import { assertCompactedWhole } from '../support/restarts.js';

const DIMENSION = 32;
const BATCH = 500;
/** Upserts answered after the temp file was seen, before the kill. */
const UPSERTS_DURING = 5;

const vector = (n: number) => Array.from({ length: DIMENSION }, (_, d) => ((n * 31 + d * 7) % 97) / 97 + 0.01);
const compacting = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.tmp'));

const config = { logLevel: 'silent', vector: { fsync: 'always', compactAfterBytes: 1024 * 1024, indexes: { default: { dimension: DIMENSION } } } };

function indexOf(p: Awaited<ReturnType<typeof spawnLarder>>): Index {
  const c = p.info.indexes.get('default')!;
  return new Index({ url: c.url, token: c.token, retry: false, enableTelemetry: false });
}

/** Upserts until UPSERTS_DURING were answered while one compaction ran; returns how many vectors were acknowledged. */
async function upsertIntoACompaction(index: Index, indexDir: string): Promise<number> {
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
  return acked;
}

/** Checks that the vectors v0 .. v<acked - 1> are all there. */
async function assertAllThere(index: Index, acked: number): Promise<void> {
  const ids = Array.from({ length: acked }, (_, i) => `v${i}`);
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const got = await index.fetch(ids.slice(i, i + 1000));
    got.forEach((r, j) => {
      if (r === null) missing.push(ids[i + j]);
    });
  }
  assert.deepEqual(missing, []);
}

describe('vector kill -9 during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-vector-kill-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every vector acknowledged before and during the compaction', async () => {
    const first = await spawnLarder({ dataDir, config });
    const acked = await upsertIntoACompaction(indexOf(first), join(dataDir, 'vector', 'default'));
    first.kill('SIGKILL'); // the temp file was there after the last answer
    assert.equal((await first.exited).signal, 'SIGKILL');

    const second = await spawnLarder({ dataDir, config });
    try {
      await assertAllThere(indexOf(second), acked);
    } finally {
      await second.stop();
    }
  });
});

describe('vector clean stop during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-vector-stop-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finishes it: the next start finds every vector in a snapshot', async () => {
    const first = await spawnLarder({ dataDir, config });
    const indexDir = join(dataDir, 'vector', 'default');
    const acked = await upsertIntoACompaction(indexOf(first), indexDir);
    assert.equal((await first.stop()).code, 0); // the temp file was there after the last answer
    assertCompactedWhole(indexDir);

    const second = await spawnLarder({ dataDir, config });
    try {
      await assertAllThere(indexOf(second), acked);
    } finally {
      await second.stop();
    }
  });
});

// kill -9 while the log is being compacted (the snapshot is written a slice at a time while
// writes go on, issue 20) brings back exactly what was acknowledged: the keys the snapshot was
// taking, and every write answered during it. Writes go through the SDK under `fsync: always`;
// the kill comes once the snapshot's temp file is seen, after more writes were answered. A clean
// stop at that point finishes the compaction instead.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from '@upstash/redis';
import { spawnLarder } from '../../support/larder-process.js';
import { assertCompactedWhole } from '../../support/restarts.js';

const SEED_KEYS = 60_000;
const SEED_BATCH = 1_000;
const PAD = 'p'.repeat(4096);
/** Writes answered after the temp file was seen, before the kill. */
const WRITES_DURING = 5;

async function start(dataDir: string) {
  const config = { logLevel: 'silent', kv: { fsync: 'always', compactAfterBytes: 4 * 1024 * 1024 } };
  const p = await spawnLarder({ config, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, redis: new Redis({ url: db.url, token: db.token, enableTelemetry: false, retry: false, automaticDeserialization: false }) };
}

const compacting = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.tmp'));

type Client = Awaited<ReturnType<typeof start>>['redis'];

async function seed(redis: Client): Promise<void> {
  for (let i = 0; i < SEED_KEYS; i += SEED_BATCH) {
    const pairs: Record<string, string> = {};
    for (let k = i; k < i + SEED_BATCH; k++) pairs[`seed:${k}`] = `value-${k}-${'v'.repeat(150)}`;
    assert.equal(await redis.mset(pairs), 'OK');
  }
}

/** Writes until WRITES_DURING writes were answered while one compaction ran; returns how many were answered. */
async function writeIntoACompaction(redis: Client, kvDir: string): Promise<number> {
  // Each write adds 4 KiB to the log, so one soon outgrows compactAfterBytes and a compaction starts.
  let acked = 0;
  let afterSeen = -1;
  while (afterSeen < WRITES_DURING) {
    // One transaction, so the log holds both writes or neither.
    const [count] = await redis.multi().incr('counter').set(`pad:${acked}`, PAD).exec();
    assert.equal(count, acked + 1);
    acked++;
    assert.ok(acked < 5_000, 'a compaction was seen running'); // 20 MiB of log: several compactions
    if (afterSeen >= 0) afterSeen++;
    else if (compacting(kvDir)) afterSeen = 0;
    if (afterSeen === WRITES_DURING && !compacting(kvDir)) afterSeen = -1; // it ended first: wait for the next one
  }
  return acked;
}

describe('kv kill -9 during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-kill-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('restores every key of the snapshot being written and every write answered meanwhile', async () => {
    const kvDir = join(dataDir, 'kv', 'default');
    const { p, redis } = await start(dataDir);
    await seed(redis);
    const acked = await writeIntoACompaction(redis, kvDir);
    p.kill('SIGKILL'); // the temp file was there after the last answer
    assert.equal((await p.exited).signal, 'SIGKILL');

    const restarted = await start(dataDir);
    try {
      const r = restarted.redis;
      // The last write may have reached the log before the kill without its answer.
      const counter = Number(await r.get('counter'));
      assert.ok(counter === acked || counter === acked + 1, `counter ${counter}, ${acked} acknowledged`);
      assert.equal(await r.dbsize(), SEED_KEYS + 1 + counter);
      for (let i = 0; i < SEED_KEYS; i += 997) assert.equal(await r.get(`seed:${i}`), `value-${i}-${'v'.repeat(150)}`);
      for (let i = 0; i < acked; i += 7) assert.equal(await r.strlen(`pad:${i}`), PAD.length, `pad:${i}`);
      assert.equal(await r.strlen(`pad:${acked - 1}`), PAD.length);
    } finally {
      await restarted.p.stop('SIGTERM');
    }
  });
});

describe('kv clean stop during a compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-stop-compaction-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finishes it: the next start finds every key in one snapshot and the log after it', async () => {
    const kvDir = join(dataDir, 'kv', 'default');
    const { p, redis } = await start(dataDir);
    await seed(redis);
    const acked = await writeIntoACompaction(redis, kvDir);
    assert.equal((await p.stop('SIGTERM')).code, 0); // the temp file was there after the last answer

    assertCompactedWhole(kvDir);

    const restarted = await start(dataDir);
    try {
      assert.equal(await restarted.redis.get('counter'), String(acked));
      assert.equal(await restarted.redis.dbsize(), SEED_KEYS + 1 + acked);
    } finally {
      await restarted.p.stop('SIGTERM');
    }
  });
});

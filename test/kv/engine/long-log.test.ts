// A long log comes back whole: every write is a frame of the log until a compaction folds it
// into a snapshot, so a server killed before its first compaction leaves a log of as many
// frames as it took writes. On start the frames were gathered with `push(...frames)`, and a
// call takes only so many arguments (about 123k on Node, 638k on Bun): past that, Larder could
// not start again after kill -9. Each runtime gets a log longer than its own limit.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder, type Runtime } from '../../support/larder-process.js';
import { kvClient } from '../../support/larder.js';

const PER_PIPELINE = 1000;
/** Past each runtime's limit on a call's arguments. */
const WRITES: Record<Runtime, number> = { node: 130_000, bun: 700_000 };

async function connect(runtime: Runtime, dataDir: string) {
  // No compaction: the log keeps every frame.
  const config = { logLevel: 'silent', kv: { compactAfterBytes: 2 ** 30 } };
  const p = await spawnLarder({ runtime, config, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('kv restart after kill -9 with a long log', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  for (const runtime of ['node', 'bun'] as const) {
    it(`replays a log of ${WRITES[runtime]} frames on ${runtime}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'larder-long-log-'));
      dirs.push(dataDir);
      const { p, client } = await connect(runtime, dataDir);
      const n = WRITES[runtime];
      for (let i = 0; i < n; i += PER_PIPELINE) {
        const commands = Array.from({ length: PER_PIPELINE }, (_, j) => ['SET', `k${i + j}`, String(i + j)]);
        const res = await client.request('/pipeline', { method: 'POST', body: JSON.stringify(commands) });
        assert.equal(res.status, 200);
      }
      p.kill('SIGKILL');
      assert.equal((await p.exited).signal, 'SIGKILL');

      const restarted = await connect(runtime, dataDir);
      try {
        assert.equal(await restarted.client.ok(['DBSIZE']), n);
        assert.deepEqual(await restarted.client.ok(['MGET', 'k0', `k${n - 1}`]), ['0', String(n - 1)]);
      } finally {
        restarted.p.kill('SIGTERM');
        await restarted.p.exited;
      }
    });
  }
});

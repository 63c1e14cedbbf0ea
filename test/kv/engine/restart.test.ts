// `larder start` stopped and started again on the same data dir: a graceful stop by SIGTERM
// or SIGINT under the default `everysec` policy keeps every write, on both runtimes, and a
// small compaction threshold rolls generations while the server runs without losing a key.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder, type Runtime } from '../../support/larder-process.js';
import { kvClient } from '../../support/larder.js';

const root = mkdtempSync(join(tmpdir(), 'larder-restart-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function start(dataDir: string, runtime: Runtime = 'node', kv: Record<string, unknown> = {}) {
  const p = await spawnLarder({ runtime, config: { kv, logLevel: 'info' }, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('restart', () => {
  for (const runtime of ['node', 'bun'] as const) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`keeps every write after ${signal} under everysec (${runtime})`, async () => {
        const dir = join(root, `${runtime}-${signal}`);
        const first = await start(dir, runtime);
        assert.equal(first.p.info.runtime, runtime);
        for (let i = 0; i < 30; i++) assert.equal((await first.client.command(['set', `k${i}`, `v${i}`])).status, 200);
        const batch = Array.from({ length: 30 }, (_, i) => ['set', `p${i}`, `pv${i}`]);
        const res = await first.client.request('/pipeline', { method: 'POST', body: JSON.stringify(batch) });
        assert.equal(res.status, 200);
        const exit = await first.p.stop(signal);
        assert.deepEqual(exit, { code: 0, signal: null });
        assert.match(first.p.stderr(), new RegExp(`"signal":"${signal}","msg":"shutting down"`));

        const second = await start(dir, runtime);
        for (let i = 0; i < 30; i++) {
          assert.deepEqual((await second.client.command(['get', `k${i}`])).body, { result: `v${i}` });
          assert.deepEqual((await second.client.command(['get', `p${i}`])).body, { result: `pv${i}` });
        }
        assert.equal((await second.p.stop()).code, 0);
      });
    }
  }

  it('rolls generations under a small compaction threshold and restores every key', async () => {
    const dir = join(root, 'compaction');
    const kv = { compactAfterBytes: 1024 };
    const first = await start(dir, 'node', kv);
    for (let i = 0; i < 300; i++) await first.client.command(['set', `k${i}`, `first-${i}`]);
    for (let i = 0; i < 300; i += 3) await first.client.command(['set', `k${i}`, `second-${i}`]);
    for (let i = 1; i < 300; i += 3) await first.client.command(['del', `k${i}`]);
    const files = readdirSync(join(dir, 'kv', 'default')).sort();
    assert.equal(files.length, 2, files.join(' '));
    const generation = Number(/^snapshot-(\d{20})\.bin$/.exec(files[1])![1]);
    assert.ok(generation > 1, `generation ${generation}`);
    assert.equal(files[0], `log-${files[1].slice(9, 29)}.aof`);
    assert.equal((await first.p.stop()).code, 0);

    const second = await start(dir, 'node', kv);
    for (let i = 0; i < 300; i++) {
      const want = i % 3 === 0 ? `second-${i}` : i % 3 === 1 ? null : `first-${i}`;
      assert.deepEqual((await second.client.command(['get', `k${i}`])).body, { result: want }, `k${i}`);
    }
    assert.deepEqual((await second.client.command(['dbsize'])).body, { result: 200 });
    assert.equal((await second.p.stop()).code, 0);
  });
});

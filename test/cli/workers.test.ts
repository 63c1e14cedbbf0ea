// `larder start --workers N`: N processes, on Node or on Bun, serve one port in front of a remote Redis.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findRedisServer, startRedisServer } from '../kv/differential/redis-server.js';
import { launchLarder } from '../support/larder-process.js';

const REDIS = findRedisServer();

describe('larder start --workers', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  for (const runtime of ['node', 'bun'] as const) {
    it(`serves one port from several processes on a remote backend under ${runtime}, and stops them all on SIGTERM`, async () => {
      const redis = await startRedisServer(REDIS!);
      const dir = mkdtempSync(join(tmpdir(), 'larder-workers-'));
      const p = launchLarder({ runtime, dataDir: dir, flags: ['--kv-backend', `redis://127.0.0.1:${redis.port}`, '--workers', '2'] });
      try {
        const ready = await p.ready;
        assert.deepEqual(p.stdout().slice(0, 1), ['Larder workers: 2']);
        assert.equal(ready.runtime, runtime);
        const creds = ready.databases.get('default')!;
        // A new connection each: the kernel (Bun) or the primary (Node) hands them to both workers.
        const replies = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${creds.url}/incr/n`, { headers: { authorization: `Bearer ${creds.token}`, connection: 'close' } }).then((r) => r.json()),
          ),
        );
        assert.deepEqual(replies.map((r: any) => r.result).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1));
        // Each worker has its own connection to Redis, whose last command was one of those INCRs.
        const clients = await redis.client.call(['CLIENT', 'LIST']);
        assert.equal(clients.match(/ cmd=incr /g)?.length, 2, clients);
        assert.deepEqual((await p.stop('SIGTERM')).code, 0);
      } finally {
        if (p.child.exitCode === null) p.kill('SIGKILL');
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('refuses several workers while a database is embedded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'larder-workers-'));
    const p = launchLarder({ dataDir: dir, flags: ['--workers', '2'] });
    try {
      const exit = await p.exited;
      assert.equal(exit.code, 2);
      assert.match(p.stderr(), /--workers needs every key-value database on engine redis; 'default' is embedded/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

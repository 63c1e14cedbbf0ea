// `larder start --workers N`: N processes, on Node or on Bun, serve one port in front of a remote Redis.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('shares ACL users and tokens changed at run time between the workers, and loses no concurrent change', async () => {
    const redis = await startRedisServer(REDIS!);
    const dir = mkdtempSync(join(tmpdir(), 'larder-workers-'));
    // The lock of a process killed while it changed the users: the workers take it over.
    mkdirSync(join(dir, 'kv', 'default'), { recursive: true });
    writeFileSync(join(dir, 'kv', 'default', 'acl.json.lock'), String(spawnSync('true').pid));
    const p = launchLarder({ dataDir: dir, flags: ['--kv-backend', `redis://127.0.0.1:${redis.port}`, '--workers', '2'] });
    try {
      const creds = (await p.ready).databases.get('default')!;
      // A new connection each, so both workers answer some of every round.
      const send = async (token: string, command: string[]) => {
        const res = await fetch(creds.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, connection: 'close' }, body: JSON.stringify(command) });
        const body = (await res.json()) as { result?: unknown; error?: string };
        return body.error === undefined ? body.result : `${res.status} ${body.error.split(' ', 1)[0]}`;
      };
      /** The distinct answers of 24 sends. */
      const round = async (token: string, command: string[]) => {
        const answers = await Promise.all(Array.from({ length: 24 }, () => send(token, command)));
        return [...new Set(answers.map((a) => JSON.stringify(a)))].map((a) => JSON.parse(a) as unknown);
      };
      const admin = (...command: string[]) => send(creds.token, command);

      assert.equal(await admin('ACL', 'SETUSER', 'app', 'on', '>app-password', '~app:*', '+get', '+set'), 'OK');
      const token = (await admin('ACL', 'RESTTOKEN', 'app', 'app-password')) as string;
      assert.deepEqual(await round(token, ['SET', 'app:k', 'v']), ['OK']);
      assert.deepEqual(await round(token, ['GET', 'other']), ['400 NOPERM']);
      assert.equal(await admin('ACL', 'SETUSER', 'app', '-set'), 'OK');
      assert.deepEqual(await round(token, ['SET', 'app:k', 'v']), ['400 NOPERM']);
      assert.deepEqual(await round(token, ['GET', 'app:k']), ['v']);
      assert.equal(await admin('ACL', 'DELUSER', 'app'), 1);
      assert.deepEqual(await round(token, ['GET', 'app:k']), ['401 Unauthorized']);

      // Changes made at once in both workers all land: none is written over by another's.
      const names = Array.from({ length: 16 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
      assert.deepEqual([...new Set(await Promise.all(names.map((n) => admin('ACL', 'SETUSER', n, 'on', 'nopass', '+ping'))))], ['OK']);
      assert.deepEqual(await round(creds.token, ['ACL', 'USERS']), [['default', ...names]]);
    } finally {
      if (p.child.exitCode === null) p.kill('SIGKILL');
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

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

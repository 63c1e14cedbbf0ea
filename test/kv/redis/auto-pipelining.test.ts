// Auto-pipelining on the remote backend: requests that Larder takes up in one turn of its event
// loop reach Redis in one write, and each still gets its own reply. To make the requests arrive
// together whatever the machine's speed, Larder is stopped (SIGSTOP) while they are written
// and continued once the kernel holds them all. Redis counts the read events it handles (INFO
// stats, total_reads_processed): one write on Larder's side costs it one read, or a few when
// the bytes come in pieces.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';
import { launchLarder, type DatabaseCredentials, type LarderProcess } from '../../support/larder-process.js';
import { TEST_RUNTIME } from '../../support/larder.js';

const REDIS = findRedisServer();
const CONNECTIONS = 100;

describe('remote backend: auto-pipelining', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  let redis: RedisServer;
  let larder: LarderProcess;
  let db: DatabaseCredentials;
  let dir: string;
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

  before(async () => {
    redis = await startRedisServer(REDIS!);
    dir = mkdtempSync(join(tmpdir(), 'larder-autopipe-'));
    larder = launchLarder({ runtime: TEST_RUNTIME, dataDir: dir, flags: ['--kv-backend', `redis://127.0.0.1:${redis.port}`] });
    db = (await larder.ready).databases.get('default')!;
  });
  after(async () => {
    agent.destroy();
    await larder?.stop('SIGTERM');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends one path-form command; `sent` settles once the request is with the kernel. */
  function send(path: string): { sent: Promise<void>; reply: Promise<unknown> } {
    let sent!: () => void;
    const written = new Promise<void>((resolve) => (sent = resolve));
    const reply = new Promise((resolve, reject) => {
      const req = request(`${db.url}${path}`, { agent, headers: { authorization: `Bearer ${db.token}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (s: string) => (body += s));
        res.on('end', () => resolve(JSON.parse(body)));
      });
      req.on('error', reject);
      req.on('finish', sent);
      req.end();
    });
    return { sent: written, reply };
  }

  const readsOnRedis = async () => Number(/total_reads_processed:(\d+)/.exec(await redis.client.call(['INFO', 'stats']))![1]);

  it('sends the commands of requests taken up together in one write, each answered with its own reply', async () => {
    const keys = Array.from({ length: CONNECTIONS }, (_, i) => `ap:${i}`);
    // Opens every connection (and sets the keys), so the measured requests only reuse them.
    await Promise.all(keys.map((k) => send(`/set/${k}/v${k}`).reply));
    const before = await readsOnRedis();
    larder.kill('SIGSTOP');
    let requests: { sent: Promise<void>; reply: Promise<unknown> }[];
    try {
      requests = keys.map((k, i) => send(i % 2 === 0 ? `/get/${k}` : `/append/${k}/!`));
      await Promise.all(requests.map((r) => r.sent));
    } finally {
      larder.kill('SIGCONT');
    }
    const replies = await Promise.all(requests.map((r) => r.reply));
    const reads = (await readsOnRedis()) - before - 1; // the INFO itself is one read
    assert.deepEqual(replies, keys.map((k, i) => ({ result: i % 2 === 0 ? `v${k}` : `v${k}!`.length })));
    assert.ok(reads <= 5, `${CONNECTIONS} requests taken up together cost Redis ${reads} reads`);
  });
});

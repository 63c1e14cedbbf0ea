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
    larder = launchLarder({ dataDir: dir, flags: ['--kv-backend', `redis://127.0.0.1:${redis.port}`] });
    db = (await larder.ready).databases.get('default')!;
  });
  after(async () => {
    agent.destroy();
    await larder?.stop('SIGTERM');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends one request (a path-form command, or a POST with `body`); `sent` settles once the request is with the kernel. */
  function send(path: string, body?: string, headers: Record<string, string> = {}): { sent: Promise<void>; reply: Promise<unknown> } {
    let sent!: () => void;
    const written = new Promise<void>((resolve) => (sent = resolve));
    const reply = new Promise((resolve, reject) => {
      const method = body === undefined ? 'GET' : 'POST';
      const req = request(`${db.url}${path}`, { agent, method, headers: { ...headers, authorization: `Bearer ${db.token}` } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (s: string) => (text += s));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.on('finish', sent);
      req.end(body);
    });
    return { sent: written, reply };
  }

  /**
   * Sends the requests while Larder is stopped, so that it takes them up together once it goes
   * on; `meanwhile` runs once they are with the kernel, before Larder goes on.
   */
  async function together(make: () => { sent: Promise<void>; reply: Promise<unknown> }[], meanwhile = async () => {}): Promise<unknown[]> {
    larder.kill('SIGSTOP');
    let requests: { sent: Promise<void>; reply: Promise<unknown> }[];
    try {
      requests = make();
      await Promise.all(requests.map((r) => r.sent));
      await meanwhile();
    } finally {
      larder.kill('SIGCONT');
    }
    return Promise.all(requests.map((r) => r.reply));
  }

  const readsOnRedis = async () => Number(/total_reads_processed:(\d+)/.exec(await redis.client.call(['INFO', 'stats']))![1]);

  it('sends the commands of requests taken up together in one write, each answered with its own reply', async () => {
    const keys = Array.from({ length: CONNECTIONS }, (_, i) => `ap:${i}`);
    // Opens every connection (and sets the keys), so the measured requests only reuse them.
    await Promise.all(keys.map((k) => send(`/set/${k}/v${k}`).reply));
    const before = await readsOnRedis();
    const replies = await together(() => keys.map((k, i) => send(i % 2 === 0 ? `/get/${k}` : `/append/${k}/!`)));
    const reads = (await readsOnRedis()) - before - 1; // the INFO itself is one read
    assert.deepEqual(replies, keys.map((k, i) => ({ status: 200, body: { result: i % 2 === 0 ? `v${k}` : `v${k}!`.length } })));
    assert.ok(reads <= 5, `${CONNECTIONS} requests taken up together cost Redis ${reads} reads`);
  });
  // Single commands are written by Larder and queued on ioredis's reply queue; pipelines are
  // ioredis's own commands on the same connection. Taken up in one turn, their bytes leave in
  // one write, mixed: every reply must still reach its own request.
  // A wrong length in the RESP Larder writes would leave Redis waiting for bytes: the timeout turns that into a failure.
  it('answers each request with its own reply when single commands, pipelines and errors share one write', { timeout: 30_000 }, async () => {
    const value = (i: number) => `%C3%A9t%C3%A9-${i}-%FF%00`; // UTF-8 text and bytes outside it
    await Promise.all(Array.from({ length: 20 }, (_, i) => send(`/set/mix:${i}/${value(i)}`).reply));
    await send('/set/mix:text/plain').reply;
    const replies = await together(() =>
      Array.from({ length: 20 }, (_, i) => {
        if (i % 4 === 1) return send('/pipeline', JSON.stringify([['incr', `mix:n:${i}`], ['strlen', `mix:${i}`], ['lpush', 'mix:text', 'x']]));
        if (i % 4 === 3) return send('/lpush/mix:text/x'); // WRONGTYPE from the server
        return send(`/get/mix:${i}`, undefined, { 'upstash-encoding': 'base64' });
      }),
    );
    const bytes = (i: number) => Buffer.concat([Buffer.from(`été-${i}-`), Buffer.from([0xff, 0x00])]);
    const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    assert.deepEqual(
      replies,
      Array.from({ length: 20 }, (_, i) => {
        if (i % 4 === 1) return { status: 200, body: [{ result: 1 }, { result: bytes(i).length }, { error: wrongType }] };
        if (i % 4 === 3) return { status: 400, body: { error: wrongType } };
        return { status: 200, body: { result: bytes(i).toString('base64') } };
      }),
    );
  });

  // Redis goes away while commands wait for their replies: each request answers 503 in the
  // envelope, none hangs, and Larder serves again once Redis is back.
  it('answers 503 to the requests in flight when Redis goes away', async () => {
    const port = redis.port;
    // Larder's next turn finds the requests and the connection closed by Redis together.
    const replies = await together(
      () => Array.from({ length: 10 }, (_, i) => send(`/get/ap:${i}`)),
      () => redis.stop(),
    );
    for (const r of replies as { status: number; body: { error: string } }[]) {
      assert.equal(r.status, 503, JSON.stringify(r));
      assert.match(r.body.error, /^ERR the Redis backend at 127\.0\.0\.1:\d+ is unavailable \(.+\); retry later$/);
    }
    redis = await startRedisServer(REDIS!, { port });
  });
});

// The servers one `npm run bench` compares, each started on a free loopback port and answering
// the same GET: the two bare runtimes with a fixed body, Larder on each runtime, webdis in
// front of redis-server, and Larder in front of redis-server (engine redis) with 1 and 2
// workers. A row whose tool is missing throws `Missing` and is skipped.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Missing, ServerProcess } from './server-process.js';

export type Kind = 'bare' | 'larder' | 'webdis' | 'remote';

export interface Started {
  readonly url: string;
  readonly headers: Record<string, string>;
  /** The exact body of a correct answer; checked once before the load. */
  readonly expect: string;
  /** The processes whose CPU time serves the requests. */
  readonly pids: readonly number[];
  stop(): Promise<void>;
}

export interface Target {
  readonly id: string;
  readonly name: string;
  readonly runtime: string;
  readonly kind: Kind;
  start(root: string, benchDir: string): Promise<Started>;
}

const READY_MS = 15_000;
const FIXED_BODY = '{"result":"bar"}';
const BUN = 'node_modules/.bin/bun';

export const TARGETS: readonly Target[] = [
  { id: 'bare-node', name: 'bare node:http', runtime: 'node', kind: 'bare', start: (root, dir) => bare(root, process.execPath, join(dir, 'bare-node.js')) },
  { id: 'bare-bun', name: 'bare Bun.serve', runtime: 'bun', kind: 'bare', start: (root, dir) => bare(root, bunPath(root), join(dir, 'bare-bun.js')) },
  { id: 'larder-node', name: 'Larder GET', runtime: 'node', kind: 'larder', start: (root) => larder(root, process.execPath, 'node') },
  { id: 'larder-bun', name: 'Larder GET', runtime: 'bun', kind: 'larder', start: (root) => larder(root, bunPath(root), 'bun') },
  { id: 'webdis', name: 'webdis + redis-server', runtime: 'C', kind: 'webdis', start: () => webdis() },
  { id: 'remote-1', name: 'Larder GET + redis-server, 1 worker', runtime: 'node', kind: 'remote', start: (root) => remote(root, 1) },
  { id: 'remote-2', name: 'Larder GET + redis-server, 2 workers', runtime: 'node', kind: 'remote', start: (root) => remote(root, 2) },
];

function bunPath(root: string): string {
  const path = join(root, BUN);
  if (!existsSync(path)) throw new Missing(`${BUN} not found (npm install)`);
  return path;
}

async function bare(root: string, runtime: string, script: string): Promise<Started> {
  const server = await ServerProcess.start(runtime, [script], root, 'npm install');
  try {
    const [, port] = await server.waitFor(/^listening (\d+)$/m, READY_MS);
    return { url: `http://127.0.0.1:${port}/`, headers: {}, expect: FIXED_BODY, pids: [server.pid], stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

// GET /redis/default/get/foo with the standard token, after SET foo bar.
async function larder(root: string, runtime: string, name: string, more: readonly string[] = []): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-bench-'));
  const args = ['bin/larder.js', 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', '--runtime', name, ...more];
  const server = await ServerProcess.start(runtime, args, root, 'npm install');
  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [, base] = await server.waitFor(/^UPSTASH_REDIS_REST_URL=(\S+)$/m, READY_MS);
    const [, token] = await server.waitFor(/^UPSTASH_REDIS_REST_TOKEN=(\S+)$/m, READY_MS);
    const headers = { authorization: `Bearer ${token}` };
    const set = await fetch(`${base}/set/foo/bar`, { headers });
    if (!set.ok) throw new Error(`SET foo bar answered ${set.status} ${await set.text()}`);
    // With --workers, the workers serve: count their CPU too.
    return { url: `${base}/get/foo`, headers, expect: FIXED_BODY, pids: [server.pid, ...childrenOf(server.pid)], stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// redis-server on a free port without persistence, and webdis (its Debian defaults: two
// threads) in front of it; GET /GET/foo after SET foo bar.
/** A redis-server without persistence in `dir`, and its port. */
async function redisServer(dir: string): Promise<{ redis: ServerProcess; redisPort: number }> {
  const redisPort = await freePort();
  const redisArgs = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const redis = await ServerProcess.start('redis-server', redisArgs, dir, 'apt-get install redis-server');
  try {
    await redis.waitFor(/Ready to accept connections/, READY_MS);
  } catch (e) {
    await redis.stop();
    throw e;
  }
  return { redis, redisPort };
}

/** /proc/<pid>/task/<pid>/children: the processes `pid` started (none where unreadable). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

// Larder on Node with engine redis in front of a redis-server, with `workers` processes.
async function remote(root: string, workers: number): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-remote-'));
  const { redis, redisPort } = await redisServer(dir);
  try {
    const flags = ['--kv-backend', `redis://127.0.0.1:${redisPort}`, ...(workers > 1 ? ['--workers', String(workers)] : [])];
    const served = await larder(root, process.execPath, 'node', flags);
    return {
      ...served,
      pids: [...served.pids, redis.pid],
      async stop() {
        await served.stop();
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function webdis(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-webdis-'));
  const started: ServerProcess[] = [];
  const stop = async () => {
    for (const p of started.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { redis, redisPort } = await redisServer(dir);
    started.push(redis);

    const httpPort = await freePort();
    const config = {
      redis_host: '127.0.0.1',
      redis_port: redisPort,
      http_host: '127.0.0.1',
      http_port: httpPort,
      threads: 2,
      daemonize: false,
      database: 0,
      verbosity: 1,
      logfile: join(dir, 'webdis.log'),
    };
    writeFileSync(join(dir, 'webdis.json'), JSON.stringify(config));
    const web = await ServerProcess.start('webdis', [join(dir, 'webdis.json')], dir, 'apt-get install webdis');
    started.push(web);
    const base = `http://127.0.0.1:${httpPort}`;
    await untilAnswered(`${base}/SET/foo/bar`, web);
    return { url: `${base}/GET/foo`, headers: {}, expect: '{"GET":"bar"}', pids: [redis.pid, web.pid], stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** webdis prints nothing when ready, so poll it until it answers 200. */
async function untilAnswered(url: string, server: ServerProcess): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (server.exitStatus !== null) throw new Error(`webdis ${server.exitStatus}: ${server.tail()}`);
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`webdis not ready after ${READY_MS} ms (last status ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

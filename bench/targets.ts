// The servers one `npm run bench` compares, each started on a free loopback port and answering
// the same GET: the two bare runtimes with a fixed body, Larder on each runtime, and webdis in
// front of redis-server. A row whose tool is missing throws `Missing` and is skipped.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Missing, ServerProcess } from './server-process.js';

export type Kind = 'bare' | 'larder' | 'webdis';

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
];

export function bunPath(root: string): string {
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

/** A Larder server on a free loopback port with a fresh data directory. */
export interface LarderServer {
  /** The REST URL of database `default` (UPSTASH_REDIS_REST_URL). */
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startLarder(root: string, runtime: string, name: string): Promise<LarderServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-bench-'));
  const args = ['bin/larder.js', 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', '--runtime', name];
  const server = await ServerProcess.start(runtime, args, root, 'npm install');
  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [, base] = await server.waitFor(/^UPSTASH_REDIS_REST_URL=(\S+)$/m, READY_MS);
    const [, token] = await server.waitFor(/^UPSTASH_REDIS_REST_TOKEN=(\S+)$/m, READY_MS);
    return { base, headers: { authorization: `Bearer ${token}` }, pid: server.pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// GET /redis/default/get/foo with the standard token, after SET foo bar.
async function larder(root: string, runtime: string, name: string): Promise<Started> {
  const server = await startLarder(root, runtime, name);
  try {
    const { base, headers } = server;
    const set = await fetch(`${base}/set/foo/bar`, { headers });
    if (!set.ok) throw new Error(`SET foo bar answered ${set.status} ${await set.text()}`);
    return { url: `${base}/get/foo`, headers, expect: FIXED_BODY, pids: [server.pid], stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

// redis-server on a free port without persistence, and webdis (its Debian defaults: two
// threads) in front of it; GET /GET/foo after SET foo bar.
async function webdis(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-webdis-'));
  const started: ServerProcess[] = [];
  const stop = async () => {
    for (const p of started.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redisPort = await freePort();
    const redisArgs = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    const redis = await ServerProcess.start('redis-server', redisArgs, dir, 'apt-get install redis-server');
    started.push(redis);
    await redis.waitFor(/Ready to accept connections/, READY_MS);

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

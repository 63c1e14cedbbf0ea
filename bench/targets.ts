// The servers the KV workload compares, each started on a free loopback port: the two bare
// runtimes answering a fixed body (the ceiling of each runtime), Larder on each runtime,
// webdis in front of redis-server, and Larder on each runtime in front of redis-server (engine
// redis) with 1 and 2 worker processes. Each says how to GET and SET a 100-byte value, and Larder how
// to run a pipeline. A row whose tool is missing throws `Missing` and is skipped.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../test/support/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VALUE } from './kv-value.js';
import { Missing, ServerProcess } from './server-process.js';

export type Kind = 'bare' | 'larder' | 'webdis' | 'remote';

/** One request, and the exact body of a correct answer (checked once before the load). */
export interface Probe {
  readonly url: string;
  readonly expect: string;
}

/** A POST of `commands` commands in one body, answered 200 with no error inside. */
export interface Pipeline {
  readonly url: string;
  readonly body: string;
  readonly commands: number;
}

export interface Started {
  readonly headers: Record<string, string>;
  readonly get: Probe;
  /** Absent for the bare servers, which answer every request alike. */
  readonly set?: Probe;
  readonly pipeline?: Pipeline;
  /** The redis-server behind webdis, for redis-benchmark. */
  readonly redisPort?: number;
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
const FIXED_BODY = JSON.stringify({ result: VALUE });
const PIPELINE_COMMANDS = 100;
const BUN = 'node_modules/.bin/bun';

export const TARGETS: readonly Target[] = [
  { id: 'bare-node', name: 'bare node:http', runtime: 'node', kind: 'bare', start: (root, dir) => bare(root, process.execPath, join(dir, 'bare-node.js')) },
  { id: 'bare-bun', name: 'bare Bun.serve', runtime: 'bun', kind: 'bare', start: (root, dir) => bare(root, bunPath(root), join(dir, 'bare-bun.js')) },
  { id: 'larder-node', name: 'Larder', runtime: 'node', kind: 'larder', start: (root) => larder(root, process.execPath, 'node') },
  { id: 'larder-bun', name: 'Larder', runtime: 'bun', kind: 'larder', start: (root) => larder(root, bunPath(root), 'bun') },
  { id: 'webdis', name: 'webdis + redis-server', runtime: 'C', kind: 'webdis', start: () => webdis() },
  remoteTarget('node', 1),
  remoteTarget('node', 2),
  remoteTarget('bun', 1),
  remoteTarget('bun', 2),
];

function remoteTarget(runtime: 'node' | 'bun', workers: number): Target {
  const name = `Larder (${runtime}) + redis-server, ${workers} worker${workers > 1 ? 's' : ''}`;
  return { id: `remote-${runtime}-${workers}`, name, runtime, kind: 'remote', start: (root) => remote(root, runtime, workers) };
}

export function bunPath(root: string): string {
  const path = join(root, BUN);
  if (!existsSync(path)) throw new Missing(`${BUN} not found (npm install)`);
  return path;
}

async function bare(root: string, runtime: string, script: string): Promise<Started> {
  const server = await ServerProcess.start(runtime, [script], root, 'npm install');
  try {
    const [, port] = await server.waitFor(/^listening (\d+)$/m, READY_MS);
    const get = { url: `http://127.0.0.1:${port}/`, expect: FIXED_BODY };
    return { headers: {}, get, pids: [server.pid], stop: () => server.stop() };
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
  /** The lines `larder start` printed for pasting into .env (stream, vector and queue credentials). */
  readonly env: Readonly<Record<string, string>>;
  readonly pid: number;
  stop(): Promise<void>;
}

// The last line of the services the benches use; the others are printed before it. Several
// workers serve the key-value service alone, whose last line is the other.
const LAST_ENV_LINE = /^QSTASH_READ_ONLY_TOKEN=\S+$/m;
const LAST_KV_LINE = /^KV_REST_API_READ_ONLY_TOKEN=\S+$/m;

/** The flags `npm run start:node` gives Node (package.json), so that Larder on Node runs here as users start it. */
function nodeFlags(root: string): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:node'];
  const flags = /\bnode ((?:--\S+ )*)bin\/larder\.js/.exec(script);
  if (flags === null) throw new Error(`package.json's start:node does not run "node [--flags] bin/larder.js": ${script}`);
  return flags[1].split(' ').filter((f) => f !== '');
}

/** A data directory the caller keeps (across restarts), and how long a start there may take (replaying its log). */
export interface KeptData {
  readonly dataDir: string;
  readonly readyMs: number;
}

/** `flags`: more `larder start` flags (a config, a remote backend, workers); `kept`: the caller's data directory, else a fresh one removed at stop. */
export async function startLarder(root: string, runtime: string, name: string, flags: readonly string[] = [], kept?: KeptData): Promise<LarderServer> {
  const dataDir = kept?.dataDir ?? mkdtempSync(join(tmpdir(), 'larder-bench-'));
  const args = [...(name === 'node' ? nodeFlags(root) : []), 'bin/larder.js', 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', '--runtime', name, ...flags];
  const server = await ServerProcess.start(runtime, args, root, 'npm install');
  const stop = async () => {
    await server.stop();
    if (kept === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.waitFor(flags.includes('--workers') ? LAST_KV_LINE : LAST_ENV_LINE, kept?.readyMs ?? READY_MS);
    const env = Object.fromEntries([...server.text().matchAll(/^([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    const base = env.UPSTASH_REDIS_REST_URL;
    return { base, headers: { authorization: `Bearer ${env.UPSTASH_REDIS_REST_TOKEN}` }, env, pid: server.pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// GET /redis/default/get/foo with the standard token, after SET foo <value>; SET by path too;
// a pipeline of SET and GET pairs.
async function larder(root: string, runtime: string, name: string, flags: readonly string[] = []): Promise<Started> {
  const server = await startLarder(root, runtime, name, flags);
  try {
    const { base, headers } = server;
    const set = { url: `${base}/set/foo/${VALUE}`, expect: '{"result":"OK"}' };
    const commands: string[][] = [];
    for (let i = 0; commands.length < PIPELINE_COMMANDS; i++) commands.push(['SET', `p:${i}`, VALUE], ['GET', `p:${i}`]);
    const pipeline = { url: `${base}/pipeline`, body: JSON.stringify(commands), commands: commands.length };
    // With --workers, the workers serve: count their CPU too.
    const pids = [server.pid, ...childrenOf(server.pid)];
    return { headers, get: { url: `${base}/get/foo`, expect: FIXED_BODY }, set, pipeline, pids, stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

// redis-server on a free port without persistence, and webdis (its Debian defaults: two
// threads) in front of it; GET /GET/foo after SET foo <value>.
async function webdis(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-webdis-'));
  const started: ServerProcess[] = [];
  const stop = async () => {
    for (const p of started.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { redis, redisPort } = await startRedis(dir);
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
    await untilAnswered(`${base}/SET/foo/${VALUE}`, web);
    return {
      headers: {},
      get: { url: `${base}/GET/foo`, expect: JSON.stringify({ GET: VALUE }) },
      set: { url: `${base}/SET/foo/${VALUE}`, expect: '{"SET":[true,"OK"]}' },
      redisPort,
      pids: [redis.pid, web.pid],
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** /proc/<pid>/task/<pid>/children: the processes `pid` started (none where unreadable). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

// Larder on `runtime` with its default database on a redis-server (engine redis), served by
// `workers` processes; its redis-server's CPU counts too.
async function remote(root: string, runtime: 'node' | 'bun', workers: number): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-remote-'));
  const { redis, redisPort } = await startRedis(dir);
  const stopRedis = async () => {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const flags = ['--kv-backend', `redis://127.0.0.1:${redisPort}`, ...(workers > 1 ? ['--workers', String(workers)] : [])];
    const served = await larder(root, runtime === 'node' ? process.execPath : bunPath(root), runtime, flags);
    return {
      ...served,
      pids: [...served.pids, redis.pid],
      async stop() {
        await served.stop();
        await stopRedis();
      },
    };
  } catch (e) {
    await stopRedis();
    throw e;
  }
}

/** redis-server on a free loopback port without persistence, its files in `dir`. */
export async function startRedis(dir: string): Promise<{ redis: ServerProcess; redisPort: number }> {
  const redisPort = await freePort();
  const args = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const redis = await ServerProcess.start('redis-server', args, dir, 'apt-get install redis-server');
  try {
    await redis.waitFor(/Ready to accept connections/, READY_MS);
    return { redis, redisPort };
  } catch (e) {
    await redis.stop();
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


// The KV service at scale (issue 20), on Larder served by Bun:
//   during compaction  GET and SET p99 (two wrk runs at once) on 2M keys of 100 bytes, with a
//                      compaction of that keyspace running against the same without one. The
//                      server is started once to load the keys and once more with compactAfterBytes
//                      just above its log, so the bench starts the compaction when it chooses:
//                      it writes until the snapshot's temp file appears. A second compaction
//                      would need a log as large as the 2M-key snapshot, so each round loads
//                      the keys again into a new data directory: the p99 of one 2 s run moves
//                      with whatever else the machine does, and the rounds' medians less.
//   memory per key     1M string keys of 100 bytes, 100k small hashes and a 1M-member sorted set:
//                      redis-server's used_memory growth (INFO memory) against Larder's heap
//                      growth for the same commands, measured in a fresh process per data set and
//                      runtime after full collections (kv-memory-worker.ts): what the engine keeps,
//                      not the garbage loading left (the process's resident size follows the heap
//                      only as the collector returns pages).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compacting, logBytes } from './compaction-files.js';
import { datasets, type Dataset } from './kv-datasets.js';
import { VALUE } from './kv-value.js';
import { Missing } from './server-process.js';
import { Summary, type Figure } from './summary.js';
import { bunPath, startLarder, startRedis, type LarderServer } from './targets.js';
import { runWrk, type Load } from './wrk.js';

export interface KvScaleOptions {
  readonly load: Load;
  readonly warmup: number;
  /** Rounds of the compaction rows, each loading the keys anew. */
  readonly rounds: number;
  /** Keys loaded before the compaction rows. */
  readonly compactionKeys: number;
  /** 1 for the issue's sizes; smaller for a quick look. */
  readonly memoryScale: number;
}

const QUIET = 'Larder (bun), no compaction';
const COMPACTING = 'Larder (bun), compaction running';
const REDIS = 'redis-server';
const MAX_P99_RATIO = 2;
const MEMORY_TARGETS: Record<string, number> = { strings: 1.2, hashes: 1.2, zset: 1.5 };
const LOAD_BATCH = 1000; //    keys per MSET while loading
const LOAD_COMMANDS = 10; //   MSETs per /pipeline
/** Log bytes left between the loaded keys and the compaction: more than the quiet runs' SETs add. */
const HEADROOM_BYTES = 64 * 1024 * 1024;
/** What pushes the log past its threshold: requests of 1,000 SETs of 1 KiB, keys like any other. */
const PAD_SETS = 1000;
const PAD = 'p'.repeat(1024);
const READY_MS = 300_000; // a restart replays the 2M keys' log

const fig = (name: string, unit: string): Figure => ({ name, unit });
const F = {
  getP99: fig('GET p99', 'ms'),
  setP99: fig('SET p99', 'ms'),
  get: fig('GET', 'req/s'),
  set: fig('SET', 'req/s'),
};

export async function benchKvScale(root: string, benchDir: string, opts: KvScaleOptions): Promise<{ compaction: Summary; memory: Summary }> {
  const { load } = opts;
  const compaction = new Summary(
    `During compaction: GET and SET at once (wrk -t1 -c${load.connections >> 1} each, ${load.seconds} s), ${opts.compactionKeys.toLocaleString('en-US')} keys of 100 bytes, ${opts.rounds} rounds`,
    QUIET,
  );
  const memory = new Summary('Memory per key: bytes per item, Larder (heap growth) against redis-server (used_memory growth)', REDIS);
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-kv-scale-'));
  try {
    try {
      for (let round = 1; round <= opts.rounds; round++) await duringCompaction(compaction, root, opts, join(dir, `round-${round}`), round);
      verdictCompaction(compaction);
    } catch (e) {
      compaction.noteSystem(COMPACTING, `failed: ${message(e)}`);
    }
    await memoryPerKey(memory, root, benchDir, opts.memoryScale, dir).catch((e: unknown) =>
      memory.noteSystem(REDIS, e instanceof Missing ? `skipped: ${e.message}` : `failed: ${message(e)}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { compaction, memory };
}

// ---- during compaction ----

async function duringCompaction(summary: Summary, root: string, opts: KvScaleOptions, dir: string, round: number): Promise<void> {
  mkdirSync(dir);
  const dataDir = join(dir, 'data');
  const kvDir = join(dataDir, 'kv', 'default');
  process.stderr.write(`kv-scale: round ${round}, loading ${opts.compactionKeys} keys\n`);
  let server = await startServer(root, dir, dataDir, Number.MAX_SAFE_INTEGER);
  try {
    await loadKeys(server, opts.compactionKeys);
  } finally {
    await server.stop();
  }
  const logged = logBytes(kvDir);
  process.stderr.write(`kv-scale: restarting on ${logged} bytes of log\n`);
  server = await startServer(root, dir, dataDir, logged + HEADROOM_BYTES);
  try {
    const quiet = await measure(summary, QUIET, server, opts);
    process.stderr.write('kv-scale: starting a compaction\n');
    for (let pads = 0; !compacting(kvDir); pads += PAD_SETS) {
      if (pads > (2 * HEADROOM_BYTES) / PAD.length) throw new Error('no compaction started');
      await post(server, '/pipeline', Array.from({ length: PAD_SETS }, (_, i) => ['SET', `pad:${pads + i}`, PAD]));
    }
    const started = performance.now();
    const busy = await measure(summary, COMPACTING, server, { ...opts, warmup: 0 });
    const coveredRun = compacting(kvDir);
    while (compacting(kvDir)) await new Promise((r) => setTimeout(r, 50));
    const seconds = (performance.now() - started) / 1000;
    const ratios = `GET p99 ${(busy.get / quiet.get).toFixed(2)}x, SET p99 ${(busy.set / quiet.set).toFixed(2)}x its p99 without`;
    summary.notes.push(
      `round ${round}: ${ratios}; the compaction of ${opts.compactionKeys.toLocaleString('en-US')} keys took ${seconds.toFixed(1)} s under this load, ` +
        (coveredRun ? 'through the whole measured run' : 'ending before the measured run did, so the run was partly quiet'),
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startServer(root: string, dir: string, dataDir: string, compactAfterBytes: number): Promise<LarderServer> {
  const config = join(dir, 'larder.json');
  writeFileSync(config, JSON.stringify({ kv: { fsync: 'everysec', compactAfterBytes } }));
  return startLarder(root, bunPath(root), 'bun', ['--config', config], { dataDir, readyMs: READY_MS });
}

async function loadKeys(server: LarderServer, keys: number): Promise<void> {
  const perRequest = LOAD_BATCH * LOAD_COMMANDS;
  for (let i = 0; i < keys; i += perRequest) {
    const commands: string[][] = [];
    for (let c = i; c < Math.min(keys, i + perRequest); c += LOAD_BATCH) {
      const argv = ['MSET'];
      for (let k = c; k < Math.min(keys, c + LOAD_BATCH); k++) argv.push(`key:${k}`, VALUE);
      commands.push(argv);
    }
    await post(server, '/pipeline', commands);
  }
}

async function post(server: LarderServer, path: string, body: unknown): Promise<void> {
  const res = await fetch(server.base + path, { method: 'POST', headers: server.headers, body: JSON.stringify(body) });
  const answers = (await res.json()) as { error?: string }[];
  const bad = answers.find((a) => a.error !== undefined);
  if (res.status !== 200 || bad !== undefined) throw new Error(`${path} answered ${res.status} ${bad?.error ?? ''}`);
}

/** GET of a loaded key and SET of another, two wrk runs at once; returns their p99s. */
async function measure(summary: Summary, system: string, server: LarderServer, opts: KvScaleOptions): Promise<{ get: number; set: number }> {
  const half = { ...opts.load, threads: 1, connections: Math.max(1, opts.load.connections >> 1) };
  const get = `${server.base}/get/key:12345`;
  const set = `${server.base}/set/key:54321/${VALUE}`;
  if (opts.warmup > 0) await Promise.all([runWrk(get, server.headers, { ...half, seconds: opts.warmup }), runWrk(set, server.headers, { ...half, seconds: opts.warmup })]);
  const [g, s] = await Promise.all([runWrk(get, server.headers, half), runWrk(set, server.headers, half)]);
  summary.add(system, F.getP99, g.p99Ms, g.errors);
  summary.add(system, F.setP99, s.p99Ms, s.errors);
  summary.add(system, F.get, g.rps, g.errors);
  summary.add(system, F.set, s.rps, s.errors);
  for (const [what, r] of [['GET', g], ['SET', s]] as const) if (r.problems !== '') summary.notes.push(`${system}, ${what}: ${r.problems}`);
  return { get: g.p99Ms, set: s.p99Ms };
}

function verdictCompaction(summary: Summary): void {
  for (const f of [F.getP99, F.setP99]) {
    const quiet = summary.median(QUIET, f.name);
    const busy = summary.median(COMPACTING, f.name);
    if (quiet === null || busy === null) continue;
    const x = busy / quiet;
    summary.notes.push(`${f.name} during compaction at ${x.toFixed(2)}x its p99 without (target <= ${MAX_P99_RATIO}x): ${x <= MAX_P99_RATIO ? 'met' : 'NOT met'}`);
  }
}

// ---- memory per key ----

async function memoryPerKey(summary: Summary, root: string, benchDir: string, scale: number, dir: string): Promise<void> {
  const { redis, redisPort } = await startRedis(dir);
  try {
    for (const d of datasets(scale)) {
      process.stderr.write(`kv-scale: memory of ${d.id}\n`);
      const figure = fig(`${d.label}, per ${d.itemName}`, 'B');
      redisCli(redisPort, ['FLUSHALL']);
      const before = usedMemory(redisPort);
      await redisPipe(redisPort, d);
      summary.add(REDIS, figure, (usedMemory(redisPort) - before) / d.items);
      for (const runtime of ['node', 'bun'] as const) {
        const grown = larderMemory(root, benchDir, runtime, d, scale);
        summary.add(`Larder (${runtime})`, figure, grown / d.items);
      }
      verdictMemory(summary, d, figure);
    }
    redisCli(redisPort, ['FLUSHALL']);
  } finally {
    await redis.stop();
  }
}

function larderMemory(root: string, benchDir: string, runtime: 'node' | 'bun', d: Dataset, scale: number): number {
  const worker = join(benchDir, 'kv-memory-worker.js');
  const [command, args] = runtime === 'node' ? [process.execPath, ['--expose-gc', worker]] : [bunPath(root), [worker]];
  const out = spawnSync(command, [...args, d.id, String(scale)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20, timeout: 600_000 });
  if (out.status !== 0) throw new Error(`kv-memory-worker on ${runtime}: ${(out.stderr || out.stdout).trim().slice(-300)}`);
  return (JSON.parse(out.stdout.trim().split('\n').pop()!) as { heapBytes: number }).heapBytes;
}

function verdictMemory(summary: Summary, d: Dataset, figure: Figure): void {
  const redis = summary.median(REDIS, figure.name);
  if (redis === null || redis <= 0) return;
  for (const runtime of ['node', 'bun']) {
    const larder = summary.median(`Larder (${runtime})`, figure.name);
    if (larder === null) continue;
    const x = larder / redis;
    const target = MEMORY_TARGETS[d.id];
    summary.notes.push(`${d.label} on ${runtime}: ${x.toFixed(2)}x redis-server (target <= ${target}x): ${x <= target ? 'met' : 'NOT met'}`);
  }
}

function redisCli(port: number, args: readonly string[]): string {
  const out = spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
  if (out.error !== undefined) throw (out.error as NodeJS.ErrnoException).code === 'ENOENT' ? new Missing('redis-cli not installed (apt-get install redis-tools)') : out.error;
  return out.stdout;
}

function usedMemory(port: number): number {
  const m = /^used_memory:(\d+)/m.exec(redisCli(port, ['INFO', 'memory']));
  if (m === null) throw new Error('redis-server INFO memory gave no used_memory');
  return Number(m[1]);
}

/** Sends the data set's commands in RESP through `redis-cli --pipe`. */
function redisPipe(port: number, d: Dataset): Promise<void> {
  const child = spawn('redis-cli', ['-p', String(port), '--pipe'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const done = new Promise<void>((resolve, reject) =>
    child.once('close', (code) => (code === 0 && /errors: 0,/.test(out) ? resolve() : reject(new Error(`redis-cli --pipe: ${out.trim().slice(-200)}`)))),
  );
  const write = async () => {
    for (const argv of d.commands()) {
      const resp = `*${argv.length}\r\n${argv.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
      if (!child.stdin.write(resp)) await new Promise((r) => child.stdin.once('drain', r));
    }
    child.stdin.end();
  };
  return write().then(() => done);
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ');
}

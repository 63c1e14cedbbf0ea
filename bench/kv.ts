// The KV workload (issues 3, 11 and 20): GET and SET of a 100-byte value over HTTP, one command
// per request, by wrk at fixed concurrency, against the bare runtimes (the ceiling of each),
// Larder on Node and on Bun, webdis + redis-server (the reference), and Larder on each runtime
// in front of redis-server with 1 and 2 workers; a /pipeline of 100 commands on Larder; and
// redis-benchmark on the same redis-server (its own when webdis is not run) as the raw-protocol
// ceiling. Every server is started first and stays up; rounds take the systems in turn, so a
// disturbance on a shared machine spreads over every row instead of skewing one ratio.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMicros } from './cpu-time.js';
import { redisBenchmark } from './redis-benchmark.js';
import { Missing, type ServerProcess } from './server-process.js';
import { Summary, type Figure } from './summary.js';
import { startRedis, TARGETS, type Probe, type Started, type Target } from './targets.js';
import { fixedBodyScript } from './wrk-bodies.js';
import { runWrk, type Load, type WrkScript } from './wrk.js';

export interface KvOptions {
  readonly load: Load;
  readonly warmup: number;
  readonly rounds: number;
  /** Target ids to run; all when undefined. */
  readonly only: readonly string[] | undefined;
}

const REFERENCE = 'webdis + redis-server';
const RAW = 'redis-benchmark, redis-server';
const MIN_VS_BARE = 0.9; //   issue 3: Larder's GET against the bare server of its runtime,
const MIN_VS_WEBDIS = 1.5; //  and on the faster runtime against webdis
const MIN_VS_BARE_AT_SCALE = 0.85; // issue 20's point 4: the same GET, a lower bar
// Issue 20: Larder in front of redis-server (1 worker) against webdis + redis-server, GET and SET
// in req/s and per CPU second, by runtime; and 2 workers against 1 (where the machine has the cores).
const MIN_REMOTE_VS_WEBDIS: Readonly<Record<string, number>> = { bun: 1.0, node: 0.5 };
const MIN_TWO_WORKERS = 1.6;
const REDIS_BENCHMARK_RATE = 40_000; // requests per second of load, to size its fixed request count

const fig = (name: string, unit: string): Figure => ({ name, unit });
const F = {
  get: fig('GET', 'req/s'),
  getP99: fig('GET p99', 'ms'),
  getCpu: fig('GET per CPU second', 'req/CPU-s'),
  set: fig('SET', 'req/s'),
  setCpu: fig('SET per CPU second', 'req/CPU-s'),
  pipeline: fig('/pipeline of 100', 'commands/s'),
  pipelineCpu: fig('/pipeline per CPU second', 'commands/CPU-s'),
};

interface Live {
  readonly target: Target;
  readonly system: string;
  readonly started: Started;
  failed: boolean;
}

export async function benchKv(root: string, benchDir: string, opts: KvOptions): Promise<Summary> {
  const { load, warmup, rounds, only } = opts;
  const unknown = only?.filter((id) => !TARGETS.some((t) => t.id === id) && id !== 'redis-benchmark') ?? [];
  if (unknown.length > 0) throw new Error(`unknown target '${unknown[0]}'; ids: ${[...TARGETS.map((t) => t.id), 'redis-benchmark'].join(', ')}`);
  const title = `KV over HTTP: wrk -t${load.threads} -c${load.connections}, ${load.seconds} s per run, ${warmup} s warm-up, ${rounds} round(s)`;
  const summary = new Summary(title, REFERENCE);
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-kv-'));
  const live: Live[] = [];
  let standalone: ServerProcess | undefined;
  try {
    for (const target of TARGETS) {
      if (only !== undefined && !only.includes(target.id)) continue;
      const system = target.kind === 'larder' ? `Larder (${target.runtime})` : target.name;
      process.stderr.write(`kv: starting ${target.id}\n`);
      const started = await start(target, root, benchDir);
      if (typeof started === 'string') summary.noteSystem(system, started);
      else live.push({ target, system, started, failed: false });
    }
    const raw = only === undefined || only.includes('redis-benchmark');
    let redisPort = live.find((l) => l.started.redisPort !== undefined)?.started.redisPort;
    if (raw && redisPort === undefined) {
      // No webdis row: redis-benchmark gets a redis-server of its own.
      try {
        const own = await startRedis(dir);
        standalone = own.redis;
        redisPort = own.redisPort;
      } catch (e) {
        summary.noteSystem(RAW, e instanceof Missing ? `skipped: ${e.message}` : `failed: ${message(e)}`);
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const l of live) {
        if (l.failed) continue;
        process.stderr.write(`kv: round ${round}/${rounds}: ${l.target.id}\n`);
        try {
          await measureTarget(summary, l, load, round === 1 ? warmup : 0, dir);
        } catch (e) {
          l.failed = true;
          summary.noteSystem(l.system, `failed: ${message(e)}`);
        }
      }
      if (raw && redisPort !== undefined) measureRaw(summary, redisPort, load, round === 1);
    }
  } finally {
    for (const l of live) await l.started.stop();
    await standalone?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  verdict(summary);
  return summary;
}

/** Starts a target and checks its SET, then GET answers once; a note when it cannot be measured. */
async function start(target: Target, root: string, benchDir: string): Promise<Started | string> {
  let started: Started | undefined;
  try {
    started = await target.start(root, benchDir);
    for (const probe of [started.set, started.get]) if (probe !== undefined) await check(probe, started.headers);
    if (started.pipeline !== undefined) await checkPipeline(started);
    return started;
  } catch (e) {
    await started?.stop();
    return e instanceof Missing ? `skipped: ${e.message}` : `failed: ${message(e)}`;
  }
}

async function check(probe: Probe, headers: Record<string, string>): Promise<void> {
  const res = await fetch(probe.url, { headers });
  const body = await res.text();
  if (res.status !== 200 || body !== probe.expect) throw new Error(`${probe.url.slice(-40)} answered ${res.status} ${body.slice(0, 120)}`);
}

async function checkPipeline(started: Started): Promise<void> {
  const p = started.pipeline!;
  const res = await fetch(p.url, { method: 'POST', headers: started.headers, body: p.body });
  const answers = (await res.json()) as { error?: string }[];
  const bad = answers.filter((a) => a.error !== undefined);
  if (res.status !== 200 || answers.length !== p.commands || bad.length > 0) {
    throw new Error(`pipeline answered ${res.status}, ${answers.length} answers, ${bad.length} errors ${bad[0]?.error ?? ''}`);
  }
}

async function measureTarget(summary: Summary, l: Live, load: Load, warmup: number, dir: string): Promise<void> {
  const { started } = l;
  const getPerCpu = await run(summary, l, started.get.url, load, warmup, F.get, 1);
  if (getPerCpu !== null) summary.add(l.system, F.getCpu, getPerCpu);
  if (started.set !== undefined) {
    const perCpu = await run(summary, l, started.set.url, load, warmup, F.set, 1);
    if (perCpu !== null) summary.add(l.system, F.setCpu, perCpu);
  }
  if (started.pipeline !== undefined) {
    const script = fixedBodyScript(dir, started.pipeline.body);
    const perCpu = await run(summary, l, started.pipeline.url, load, warmup, F.pipeline, started.pipeline.commands, script);
    if (perCpu !== null) summary.add(l.system, F.pipelineCpu, perCpu);
    // wrk sees only the status, and a pipeline answers 200 with errors inside: check one again.
    await checkPipeline(started).catch((e: unknown) => {
      summary.addErrors(l.system, F.pipeline, 1);
      summary.notes.push(`${l.system}, ${F.pipeline.name}: ${message(e)}`);
    });
  }
}

/** One wrk run after an optional warm-up; adds its rate and returns the units per CPU second. */
async function run(summary: Summary, l: Live, url: string, load: Load, warmup: number, figure: Figure, units: number, script?: WrkScript): Promise<number | null> {
  const { headers, pids } = l.started;
  if (warmup > 0) await runWrk(url, headers, { ...load, seconds: warmup }, script);
  const before = cpuMicros(pids);
  const result = await runWrk(url, headers, load, script);
  const after = cpuMicros(pids);
  summary.add(l.system, figure, result.rps * units, result.errors);
  if (figure === F.get) summary.add(l.system, F.getP99, result.p99Ms, result.errors);
  if (result.problems !== '') summary.notes.push(`${l.system}, ${figure.name}: ${result.problems}`);
  return before === null || after === null || after === before ? null : (result.requests * units) / ((after - before) / 1e6);
}

function measureRaw(summary: Summary, port: number, load: Load, first: boolean): void {
  process.stderr.write('kv: redis-benchmark\n');
  try {
    const base = { port, connections: load.connections, valueBytes: 100 };
    const plain = redisBenchmark({ ...base, requests: REDIS_BENCHMARK_RATE * load.seconds, pipeline: 1 });
    summary.add(RAW, F.get, plain.get);
    summary.add(RAW, F.set, plain.set);
    const piped = redisBenchmark({ ...base, requests: REDIS_BENCHMARK_RATE * 10 * load.seconds, pipeline: 100 });
    summary.add(RAW, F.pipeline, (piped.get + piped.set) / 2);
    if (first) summary.notes.push(`${RAW}: RESP over TCP, -c ${load.connections} -d 100; its "/pipeline of 100" row is -P 100 (GET and SET averaged). It reports no error count.`);
  } catch (e) {
    summary.noteSystem(RAW, e instanceof Missing ? `skipped: ${e.message}` : `failed: ${message(e)}`);
  }
}

/** Issue 3's targets, as notes: Larder's GET against its bare server (and issue 20's) and against webdis. */
function verdict(summary: Summary): void {
  const webdis = summary.median(REFERENCE, F.get.name);
  const fastest = Math.max(summary.median('Larder (node)', F.get.name) ?? 0, summary.median('Larder (bun)', F.get.name) ?? 0);
  if (webdis !== null && fastest > 0) {
    const x = fastest / webdis;
    summary.notes.push(`Larder on the faster runtime: GET at ${x.toFixed(2)}x webdis (target >= ${MIN_VS_WEBDIS}x): ${x >= MIN_VS_WEBDIS ? 'met' : 'NOT met'}`);
  }
  remoteVerdict(summary);
  for (const [runtime, bare] of [['node', 'bare node:http'], ['bun', 'bare Bun.serve']]) {
    const larder = summary.median(`Larder (${runtime})`, F.get.name);
    const ceiling = summary.median(bare, F.get.name);
    if (larder === null || ceiling === null) continue;
    const x = larder / ceiling;
    const met = (min: number) => `${min}x: ${x >= min ? 'met' : 'NOT met'}`;
    summary.notes.push(`Larder on ${runtime}: GET at ${x.toFixed(2)}x its bare server (issue 3's target >= ${met(MIN_VS_BARE)}; issue 20's >= ${met(MIN_VS_BARE_AT_SCALE)})`);
  }
}

/** Issue 20's targets for the remote backend, as notes. */
function remoteVerdict(summary: Summary): void {
  const verdict = (x: number, min: number, of: string) => `${x.toFixed(2)}x ${of} (target >= ${min}x): ${x >= min ? 'met' : 'NOT met'}`;
  for (const [runtime, min] of Object.entries(MIN_REMOTE_VS_WEBDIS)) {
    const one = `Larder (${runtime}) + redis-server, 1 worker`;
    const two = `Larder (${runtime}) + redis-server, 2 workers`;
    for (const figure of [F.get, F.getCpu, F.set, F.setCpu]) {
      const larder = summary.median(one, figure.name);
      const webdis = summary.median(REFERENCE, figure.name);
      if (larder !== null && webdis !== null) summary.notes.push(`${one}: ${figure.name} at ${verdict(larder / webdis, min, 'webdis')}`);
    }
    for (const figure of [F.get, F.set]) {
      const a = summary.median(one, figure.name);
      const b = summary.median(two, figure.name);
      if (a !== null && b !== null) summary.notes.push(`Larder (${runtime}) + redis-server: ${figure.name} with 2 workers at ${verdict(b / a, MIN_TWO_WORKERS, '1 worker')}`);
    }
  }
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ');
}

// `npm run bench`: the key-value GET hot path against its baselines on loopback. Each target is
// loaded by wrk for a fixed time after a short warm-up, in one or more interleaved rounds, and
// the median round of each is printed as one table.
//
//   npm run bench -- [--duration S] [--warmup S] [--rounds N] [--threads N] [--connections N]
//                    [--only id,id]
//
// Target ids: bare-node, bare-bun, larder-node, larder-bun, webdis, remote-1, remote-2. Never part of `npm test`.

import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMicros } from './cpu-time.js';
import { renderTable, renderVerdict, type Measurement, type Row } from './table.js';
import { TARGETS, type Started, type Target } from './targets.js';
import { Missing } from './server-process.js';
import { runWrk, type Load } from './wrk.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url)); // dist/bench
const ROOT = resolve(BENCH_DIR, '../..');

// Defaults: the reference load (wrk -t2 -c64), 5 s per row after 1 s of warm-up.
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    threads: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
  },
});

function positive(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > 600) throw new Error(`--${name} must be an integer from ${min} to 600, got '${text}'`);
  return n;
}

interface Live {
  readonly target: Target;
  readonly started: Started;
  readonly runs: Measurement[];
  failure?: string;
}

/** Starts a target and checks its answer once; a row note when it cannot be measured. */
async function start(target: Target): Promise<Started | string> {
  let started: Started | undefined;
  try {
    started = await target.start(ROOT, BENCH_DIR);
    const res = await fetch(started.url, { headers: started.headers });
    const body = await res.text();
    if (res.status !== 200 || body !== started.expect) throw new Error(`answered ${res.status} ${body.slice(0, 120)}`);
    return started;
  } catch (e) {
    await started?.stop();
    return e instanceof Missing ? `skipped: ${e.message}` : `failed: ${message(e)}`;
  }
}

/** One wrk run, with the CPU time the server spent on it. */
async function measure(started: Started, load: Load): Promise<Measurement> {
  const before = cpuMicros(started.pids);
  const result = await runWrk(started.url, started.headers, load);
  const after = cpuMicros(started.pids);
  const cpuUs = before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests;
  return { ...result, cpuUs };
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ');
}

/** The run with the median req/s, so one disturbed run does not move the row. */
function median(runs: readonly Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const mid = sorted[(sorted.length - 1) >> 1];
  const problems = [...new Set(runs.map((r) => r.problems).filter((p) => p !== ''))].join('; ');
  return { ...mid, problems };
}

function version(command: string, args: string[]): string {
  const out = spawnSync(command, args, { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : 'not available';
}

async function main(): Promise<void> {
  const load: Load = {
    seconds: positive('duration', values.duration, 1),
    threads: positive('threads', values.threads, 1),
    connections: positive('connections', values.connections, 1),
  };
  const warmup = positive('warmup', values.warmup, 0);
  const rounds = positive('rounds', values.rounds, 1);
  const only = values.only?.split(',');
  const unknown = only?.filter((id) => !TARGETS.some((t) => t.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown target '${unknown[0]}'; ids: ${TARGETS.map((t) => t.id).join(', ')}`);
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    console.error('bench: wrk not installed (apt-get install wrk); nothing measured');
    process.exit(1);
  }

  const cpu = cpus();
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`machine: ${cpu.length} x ${cpu[0]?.model ?? 'unknown cpu'}`);
  console.log(`node ${process.version}, bun ${version(join(ROOT, 'node_modules/.bin/bun'), ['--version'])}`);
  console.log(`load: wrk -t${load.threads} -c${load.connections} -d${load.seconds}s, ${warmup}s warm-up, median of ${rounds} round(s), loopback`);
  console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  if (loadavg()[0] > cpu.length / 2) {
    console.log('warning: other work is using this machine; req/s will move with it, CPU/req much less');
  }

  // Every server is started first and stays up; rounds interleave the targets so that a
  // disturbance on a shared machine spreads over all rows instead of skewing one ratio.
  const rows: Row[] = [];
  const live: Live[] = [];
  try {
    for (const target of TARGETS) {
      if (only !== undefined && !only.includes(target.id)) continue;
      process.stderr.write(`starting ${target.id}...\n`);
      const started = await start(target);
      if (typeof started === 'string') rows.push({ target, note: started });
      else live.push({ target, started, runs: [] });
    }
    for (let round = 1; round <= rounds; round++) {
      for (const l of live) {
        if (l.failure !== undefined) continue;
        process.stderr.write(`round ${round}/${rounds}: ${l.target.id}\n`);
        try {
          if (round === 1 && warmup > 0) await runWrk(l.started.url, l.started.headers, { ...load, seconds: warmup });
          l.runs.push(await measure(l.started, load));
        } catch (e) {
          l.failure = `failed: ${message(e)}`;
        }
      }
    }
  } finally {
    for (const l of live) await l.started.stop();
  }
  for (const l of live) {
    if (l.failure !== undefined) rows.push({ target: l.target, note: l.failure });
    else {
      const result = median(l.runs);
      rows.push({ target: l.target, result, note: result.problems });
    }
  }
  rows.sort((a, b) => TARGETS.indexOf(a.target) - TARGETS.indexOf(b.target));
  console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')}\n`);
  console.log(renderTable(rows));
  const verdict = renderVerdict(rows);
  if (verdict.length > 0) console.log(`\n${verdict.join('\n')}`);
}

main().catch((e: unknown) => {
  console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

// The key-value GET hot path against its baselines on loopback (issue 3). Each target is loaded
// by wrk for a fixed time after a short warm-up, in one or more interleaved rounds, and the
// median round of each is printed as one table. Target ids: bare-node, bare-bun, larder-node,
// larder-bun, webdis.

import { cpuMicros } from './cpu-time.js';
import { renderTable, renderVerdict, type Measurement, type Row } from './table.js';
import { TARGETS, type Started, type Target } from './targets.js';
import { Missing } from './server-process.js';
import { runWrk, type Load } from './wrk.js';

export interface GetOptions {
  readonly load: Load;
  readonly warmup: number;
  readonly rounds: number;
  /** Target ids to run; all when undefined. */
  readonly only: readonly string[] | undefined;
}

interface Live {
  readonly target: Target;
  readonly started: Started;
  readonly runs: Measurement[];
  failure?: string;
}

/** Starts a target and checks its answer once; a row note when it cannot be measured. */
async function start(target: Target, root: string, benchDir: string): Promise<Started | string> {
  let started: Started | undefined;
  try {
    started = await target.start(root, benchDir);
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

export async function benchGet(root: string, benchDir: string, opts: GetOptions): Promise<void> {
  const { load, warmup, rounds, only } = opts;
  const unknown = only?.filter((id) => !TARGETS.some((t) => t.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown target '${unknown[0]}'; ids: ${TARGETS.map((t) => t.id).join(', ')}`);
  console.log(`\nGET: wrk -t${load.threads} -c${load.connections} -d${load.seconds}s, ${warmup}s warm-up, median of ${rounds} round(s), loopback\n`);
  // Every server is started first and stays up; rounds interleave the targets so that a
  // disturbance on a shared machine spreads over all rows instead of skewing one ratio.
  const rows: Row[] = [];
  const live: Live[] = [];
  try {
    for (const target of TARGETS) {
      if (only !== undefined && !only.includes(target.id)) continue;
      process.stderr.write(`starting ${target.id}...\n`);
      const started = await start(target, root, benchDir);
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
  console.log(renderTable(rows));
  const verdict = renderVerdict(rows);
  if (verdict.length > 0) console.log(`\n${verdict.join('\n')}`);
}


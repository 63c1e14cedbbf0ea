// The queue's "during compaction" rows (issue 20, point 2): single publishes from the queue
// workload's publishers with `pending` messages held (delayed a day), first with no compaction
// (after a warm-up as long), then while the store compacts them, from its start to its end, on
// each runtime. The server is started once to load the
// messages and once more with compactAfterBytes above its log by more than the quiet run adds,
// so the bench starts the compaction when it chooses: it publishes and cancels batches until the
// snapshot's temp file appears. The quiet run's messages are cancelled before, so the compaction
// takes the loaded messages (and the measured publishes made while it runs). A note gives the
// ratio of the two p99s and how long the compaction took under that load.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compacting, logBytes } from './compaction-files.js';
import { closedLoop, type LoopResult } from './http-load.js';
import { quantile, type Figure, type Summary } from './summary.js';
import { startLarder } from './targets.js';

const READY_MS = 120_000; // a restart replays the loaded messages' log
const LOAD_BATCH = 100;
/**
 * Log bytes left between the loaded messages and the compaction, per second of the quiet run:
 * more than its publishes add (16 MiB at the default 2 s; the bench smoke's 0.2 s pads 1.6 MiB).
 */
const HEADROOM_BYTES_PER_SECOND = 8 << 20;
/** Where each part's messages go (none is delivered: they wait a day, and all but the loaded are cancelled). */
const NOWHERE = 'http://127.0.0.1:9';
const BODY = 'q'.repeat(100);
/** The run during the compaction is measured in pieces this long, until the compaction ends. */
const PIECE_S = 0.25;
/** ... or until it has run this many times the quiet run's length. */
const MAX_PIECES_PER_SECOND = 40;

interface Server {
  readonly url: string;
  readonly headers: Record<string, string>;
  stop(): Promise<void>;
}

export interface CompactionOptions {
  readonly seconds: number;
  readonly pending: number;
  readonly publishers: number;
}

/** Adds the quiet and compacting p99 of single publishes for `system`, served by `runtime` at `path`. */
export async function publishDuringCompaction(summary: Summary, root: string, system: string, runtime: string, path: string, opts: CompactionOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-queue-compaction-'));
  const queueDir = join(dir, 'data', 'queue');
  const held = opts.pending.toLocaleString('en-US');
  try {
    process.stderr.write(`queue: ${system}: loading ${held} delayed messages\n`);
    let server = await startServer(root, dir, runtime, path, Number.MAX_SAFE_INTEGER);
    try {
      for (let i = 0; i < opts.pending; i += LOAD_BATCH) await publish(server, `${NOWHERE}/held`, Math.min(LOAD_BATCH, opts.pending - i));
    } finally {
      await server.stop();
    }
    const headroom = Math.round(opts.seconds * HEADROOM_BYTES_PER_SECOND);
    server = await startServer(root, dir, runtime, path, logBytes(queueDir) + headroom);
    try {
      await closedLoop(opts.publishers, opts.seconds, () => publish(server, `${NOWHERE}/quiet`, 1)); // warm-up
      const quiet = latencies(await closedLoop(opts.publishers, opts.seconds, () => publish(server, `${NOWHERE}/quiet`, 1)));
      await cancel(server, `${NOWHERE}/quiet`);
      for (let pads = 0; !compacting(queueDir); pads += LOAD_BATCH) {
        if (pads * BODY.length > 2 * headroom) throw new Error('no compaction started');
        await publish(server, `${NOWHERE}/pad`, LOAD_BATCH);
        await cancel(server, `${NOWHERE}/pad`);
      }
      const started = performance.now();
      const runs: LoopResult[] = [];
      for (let n = 0; compacting(queueDir) && n < opts.seconds * MAX_PIECES_PER_SECOND; n++) runs.push(await closedLoop(opts.publishers, PIECE_S, () => publish(server, `${NOWHERE}/busy`, 1)));
      const busy = latencies(...runs);
      const coveredRun = !compacting(queueDir);
      while (compacting(queueDir)) await new Promise((r) => setTimeout(r, 20));
      const seconds = (performance.now() - started) / 1000;
      const fig = (when: string): Figure => ({ name: `publish p99, ${held} pending, ${when}`, unit: 'ms' });
      summary.add(system, fig('no compaction'), quiet.p99, quiet.errors);
      summary.add(system, fig('compaction running'), busy.p99, busy.errors);
      summary.notes.push(
        `${system}: publish p99 ${(busy.p99 / quiet.p99).toFixed(2)}x its p99 without a compaction (p50 ${quiet.p50.toFixed(1)} and ${busy.p50.toFixed(1)} ms, ` +
          `${busy.count} publishes measured while it ran, the slowest ${busy.max.toFixed(1)} ms against ${quiet.max.toFixed(1)} without); the compaction of ${held} pending messages took ${seconds.toFixed(1)} s under this load` +
          (coveredRun ? '' : `, longer than the ${opts.seconds * MAX_PIECES_PER_SECOND * PIECE_S} s measured`),
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The p50, p99 and slowest of the runs' latencies together, their count and their errors. */
function latencies(...runs: LoopResult[]): { p50: number; p99: number; max: number; count: number; errors: number } {
  const all = runs.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  return { p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all[all.length - 1] ?? NaN, count: all.length, errors: runs.reduce((n, r) => n + r.errors, 0) };
}

/** Publishes `count` messages delayed a day (a batch when more than one); answers the count. */
async function publish(server: Server, destination: string, count: number): Promise<number> {
  const headers = { ...server.headers, 'upstash-delay': '1d' };
  const res =
    count === 1
      ? await fetch(`${server.url}/v2/publish/${destination}`, { method: 'POST', headers, body: BODY })
      : await fetch(`${server.url}/v2/batch`, {
          method: 'POST',
          headers: { ...server.headers, 'content-type': 'application/json' },
          body: JSON.stringify(Array.from({ length: count }, () => ({ destination, headers: { 'upstash-delay': '1d' }, body: BODY }))),
        });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`publish answered ${res.status} ${text.slice(0, 120)}`);
  return count;
}

/** Cancels every message to `destination`. */
async function cancel(server: Server, destination: string): Promise<void> {
  const res = await fetch(`${server.url}/v2/messages?url=${encodeURIComponent(destination)}`, { method: 'DELETE', headers: server.headers });
  if (res.status !== 200) throw new Error(`cancel answered ${res.status} ${(await res.text()).slice(0, 120)}`);
}

async function startServer(root: string, dir: string, runtime: string, path: string, compactAfterBytes: number): Promise<Server> {
  const config = join(dir, 'larder.json');
  writeFileSync(config, JSON.stringify({ queue: { compactAfterBytes, maxPendingMessages: 10_000_000 } }));
  const server = await startLarder(root, path, runtime, ['--config', config], { dataDir: join(dir, 'data'), readyMs: READY_MS });
  return { url: server.env.QSTASH_URL, headers: { authorization: `Bearer ${server.env.QSTASH_TOKEN}` }, stop: server.stop };
}

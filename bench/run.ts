// `npm run bench`: runs the workloads named on the command line, all of them by default.
//   get       the key-value GET hot path against its baselines (bench/get.ts, issue 3)
//   families  sorted-set and list operations at 10k, 100k and 1M items (bench/families.ts, issue 4)
//
//   npm run bench -- [get] [families]
//                    [--warmup S] [--rounds N] [--threads N] [--connections N]    (both)
//                    [--duration S] [--only id,id]                                (get)
//                    [--cell S] [--sizes N,N,N] [--modes engine,http]             (families)
//
// Never part of `npm test`.

import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchFamilies, FAMILY_MODES } from './families.js';
import { benchGet } from './get.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url)); // dist/bench
const ROOT = resolve(BENCH_DIR, '../..');
const WORKLOADS = ['get', 'families'];

// Defaults: for GET the reference load (wrk -t2 -c64), 5 s per row after 1 s of
// warm-up; for families 1 s per cell, so the whole default run takes a few minutes.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    threads: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    cell: { type: 'string', default: '1' },
    sizes: { type: 'string', default: '10000,100000,1000000' },
    modes: { type: 'string', default: FAMILY_MODES.join(',') },
  },
});

function positive(name: string, text: string, min: number, max = 600): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return n;
}

function oneOf(name: string, items: readonly string[], allowed: readonly string[]): readonly string[] {
  const unknown = items.find((item) => !allowed.includes(item));
  if (unknown !== undefined) throw new Error(`unknown ${name} '${unknown}'; one of: ${allowed.join(', ')}`);
  return items;
}

function version(command: string, args: string[]): string {
  const out = spawnSync(command, args, { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : 'not available';
}

async function main(): Promise<void> {
  const workloads = oneOf('workload', positionals.length > 0 ? positionals : WORKLOADS, WORKLOADS);
  const threads = positive('threads', values.threads, 1);
  const connections = positive('connections', values.connections, 1);
  const warmup = positive('warmup', values.warmup, 0);
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    console.error('bench: wrk not installed (apt-get install wrk); nothing measured');
    process.exit(1);
  }

  const cpu = cpus();
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`machine: ${cpu.length} x ${cpu[0]?.model ?? 'unknown cpu'}`);
  console.log(`node ${process.version}, bun ${version(join(ROOT, 'node_modules/.bin/bun'), ['--version'])}`);
  console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  if (loadavg()[0] > cpu.length / 2) {
    console.log('warning: other work is using this machine; req/s will move with it, CPU/req much less');
  }

  const rounds = positive('rounds', values.rounds, 1);
  if (workloads.includes('get')) {
    const load = { seconds: positive('duration', values.duration, 1), threads, connections };
    await benchGet(ROOT, BENCH_DIR, { load, warmup, rounds, only: values.only?.split(',') });
  }
  if (workloads.includes('families')) {
    const sizes = values.sizes.split(',').map((s) => positive('sizes', s, 10, 10_000_000));
    const modes = oneOf('mode', values.modes.split(','), FAMILY_MODES);
    await benchFamilies(ROOT, { sizes, seconds: positive('cell', values.cell, 1), warmup, threads, connections, modes, rounds });
  }
  console.log(`\nload average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}

main().catch((e: unknown) => {
  console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

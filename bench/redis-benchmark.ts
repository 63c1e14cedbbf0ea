// Runs Debian's redis-benchmark (package redis-tools, installed with redis-server) against a
// redis-server: the raw-protocol ceiling that no HTTP front can reach. Reads its CSV output.

import { spawnSync } from 'node:child_process';
import { Missing } from './server-process.js';

export interface RedisBenchmarkLoad {
  readonly port: number;
  readonly connections: number;
  /** Requests per test. */
  readonly requests: number;
  /** Commands per round trip (1: no pipelining). */
  readonly pipeline: number;
  readonly valueBytes: number;
}

/** Requests per second of GET and SET, as redis-benchmark reports them. */
export function redisBenchmark(load: RedisBenchmarkLoad): { get: number; set: number } {
  const args = ['-h', '127.0.0.1', '-p', String(load.port), '-c', String(load.connections), '-n', String(load.requests)];
  args.push('-P', String(load.pipeline), '-d', String(load.valueBytes), '-t', 'set,get', '--csv');
  const out = spawnSync('redis-benchmark', args, { encoding: 'utf8', timeout: 120_000 });
  if (out.error !== undefined) {
    if ((out.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Missing('redis-benchmark not installed (apt-get install redis-tools)');
    throw out.error;
  }
  const rate = (test: string) => {
    const m = new RegExp(`^"${test}","([\\d.]+)"`, 'm').exec(out.stdout);
    if (m === null) throw new Error(`redis-benchmark gave no ${test} figure: ${(out.stderr || out.stdout).trim().slice(-200)}`);
    return Number(m[1]);
  };
  return { get: rate('GET'), set: rate('SET') };
}

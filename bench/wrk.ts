// Runs wrk (Debian package `wrk`) against one URL and reads its summary: requests per second,
// the 99th percentile latency, and anything that was not a clean 2xx answer. A Lua script, if
// given, builds the requests (bench/wrk-bodies.ts posts prepared bodies).

import { spawn } from 'node:child_process';

export interface Load {
  seconds: number;
  threads: number;
  connections: number;
}

export interface WrkResult {
  requests: number;
  rps: number;
  p99Ms: number;
  /** Non-2xx answers and connect, read and write errors: answers that were not answers. */
  errors: number;
  /** Those errors and timeouts in words; empty when every request succeeded. */
  problems: string;
}

const OVERRUN_MS = 15_000; // wrk stops itself after `seconds`; this only guards a hang

/** A wrk Lua script and the arguments its `init` receives. */
export interface WrkScript {
  readonly path: string;
  readonly args: readonly string[];
}

export function runWrk(url: string, headers: Record<string, string>, load: Load, script?: WrkScript): Promise<WrkResult> {
  const args = ['-t', String(load.threads), '-c', String(load.connections), '-d', `${load.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (script !== undefined) args.push('-s', script.path);
  args.push(url);
  if (script !== undefined) args.push('--', ...script.args);
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), load.seconds * 1000 + OVERRUN_MS);
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const result = code === 0 ? parseWrk(out) : null;
      if (result === null) reject(new Error(`wrk failed (code ${code}): ${out.trim().split('\n').slice(-2).join(' | ')}`));
      else resolve(result);
    });
  });
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function parseWrk(out: string): WrkResult | null {
  const requests = /^\s+(\d+) requests in /m.exec(out);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  if (requests === null || rps === null || p99 === null) return null;
  const problems: string[] = [];
  let errors = 0;
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  if (non2xx !== null) {
    problems.push(`${non2xx[1]} non-2xx answers`);
    errors += Number(non2xx[1]);
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (socket !== null) {
    problems.push(`socket errors: connect ${socket[1]}, read ${socket[2]}, write ${socket[3]}, timeout ${socket[4]}`);
    errors += Number(socket[1]) + Number(socket[2]) + Number(socket[3]);
  }
  const p99Ms = Number(p99[1]) * MS_PER_UNIT[p99[2]];
  return { requests: Number(requests[1]), rps: Number(rps[1]), p99Ms, errors, problems: problems.join('; ') };
}

// The facts a result needs beside it: CPU model and cores, runtime versions, date, load.

import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

export interface Machine {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly bun: string;
}

export function machine(root: string): Machine {
  const cpu = cpus();
  const out = spawnSync(join(root, 'node_modules/.bin/bun'), ['--version'], { encoding: 'utf8' });
  return {
    date: new Date().toISOString(),
    cpu: cpu[0]?.model.trim() ?? 'unknown cpu',
    cores: cpu.length,
    node: process.version,
    bun: out.status === 0 ? out.stdout.trim() : 'not available',
  };
}

export function loadText(): string {
  return loadavg().map((n) => n.toFixed(2)).join(' ');
}

/** The lines written above a workload's tables. */
export function factsText(m: Machine, command: string, loadBefore: string, seconds: number): string {
  return [
    `Run ${m.date} by \`${command}\` (${Math.round(seconds)} s). Machine: ${m.cores} x ${m.cpu}; node ${m.node}, bun ${m.bun}.`,
    `Load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadText()}.`,
  ].join('\n');
}

// A process's resident memory, for the workloads that report what the server holds.

import { readFileSync } from 'node:fs';

/** VmRSS of `pid` in MB, or null where /proc is not readable. */
export function residentMb(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb === null ? null : Number(kb[1]) / 1024;
  } catch {
    return null;
  }
}

// CPU time used by a server's processes, read from /proc/<pid>/stat (Linux; all threads
// included). On a shared machine req/s moves with whatever else runs, while CPU time per
// request hardly does, so the table shows both.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User plus system CPU time of `pids` in microseconds, or null where /proc is not readable. */
export function cpuMicros(pids: readonly number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
    // Fields after the command name, which sits in parentheses and may hold spaces:
    // state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

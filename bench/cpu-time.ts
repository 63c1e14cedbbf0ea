// CPU time used by a server's processes, read from /proc/<pid>/stat (Linux; all threads
// included). On a shared machine req/s moves with whatever else runs, while CPU time per
// request hardly does, so the table shows both.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** The fields of /proc/<pid>/stat after the command name, or null when it cannot be read. */
function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name sits in parentheses and may hold spaces: state is field 3 of the file,
  // ppid 4, utime 14, stime 15, cutime 16 and cstime 17 (the time of children it waited for).
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const micros = (ticks: number) => (ticks * 1e6) / TICKS_PER_SECOND;

/** User plus system CPU time of `pids` in microseconds, or null where /proc is not readable. */
export function cpuMicros(pids: readonly number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields === null) return null;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return micros(ticks);
}

/**
 * CPU time of `root` and of every process below it, those that have exited and been waited for
 * included, in microseconds: a server whose workers come and go (PostgreSQL's backends, one per
 * connection). Null where /proc is not readable.
 */
export function treeCpuMicros(root: number): number | null {
  const parentOf = new Map<number, number>();
  const fieldsOf = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const fields = statFields(pid);
    if (fields === null) continue; // exited while we listed
    parentOf.set(pid, Number(fields[1]));
    fieldsOf.set(pid, fields);
  }
  if (!fieldsOf.has(root)) return null;
  const inTree = (pid: number): boolean => pid === root || (parentOf.has(pid) && pid > 1 && inTree(parentOf.get(pid)!));
  let ticks = 0;
  for (const [pid, f] of fieldsOf) if (inTree(pid)) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  return micros(ticks);
}

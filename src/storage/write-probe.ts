// Whether a directory takes a write now, for /healthz: a small file is created, written and
// removed. No fsync: a full disk or a spent quota refuses the write itself (tmpfs and ext4
// reserve the space when the data is written, not when it is synced).

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { reasonOf } from './errors.js';

const PROBE = Buffer.from('larder write probe\n');

/** Null when `dir` took a write, else the reason it did not (strerror's words). */
export function probeWrite(dir: string): string | null {
  // Per process: `--workers` processes share the data directory.
  const path = join(dir, `.write-probe-${process.pid}`);
  try {
    const fd = openSync(path, 'w', 0o600);
    try {
      writeSync(fd, PROBE);
    } finally {
      closeSync(fd);
    }
    return null;
  } catch (e) {
    return reasonOf(e);
  } finally {
    rmSync(path, { force: true });
  }
}

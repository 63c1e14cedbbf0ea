// Whether a directory takes a write now: a small file is created, written and removed. No
// fsync: a full disk or a spent quota refuses the write itself (tmpfs and ext4 reserve the
// space when the data is written, not when it is synced). /healthz probes the data directory;
// a failing log with nothing left to write probes its own (append-log.ts).

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE } from './atomic-file.js';
import { reasonOf } from './errors.js';

const PROBE = Buffer.from('larder write probe\n');

/** Throws the file system's error when `dir` does not take a write now. */
export function assertWritable(dir: string): void {
  // Per process: `--workers` processes share the data directory.
  const path = join(dir, `.write-probe-${process.pid}`);
  try {
    const fd = openSync(path, 'w', FILE_MODE);
    try {
      writeSync(fd, PROBE);
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(path, { force: true });
  }
}

/** Null when `dir` took a write, else the reason it did not (strerror's words). */
export function probeWrite(dir: string): string | null {
  try {
    assertWritable(dir);
    return null;
  } catch (e) {
    return reasonOf(e);
  }
}

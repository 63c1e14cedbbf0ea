// A small tmpfs that a test fills and frees, to see Larder meet a full disk and recover.
// Mounting needs root (CI runs as root); where it is refused, mountSmallDisk says why and the
// test skips with that text.

import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** The mounted directory. */
  readonly dir: string;
  /** Writes a filler file until the disk refuses more (ENOSPC). */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  /** Unmounts and removes the directory. */
  remove(): void;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x78);

/** A tmpfs of `bytes`, or why none could be mounted. */
export function mountSmallDisk(bytes: number): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'larder-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    rmdirSync(dir);
    return `cannot mount a tmpfs here (${((e as { stderr?: Buffer }).stderr?.toString() || (e as Error).message).trim()}); the full-disk tests need root`;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'w');
      try {
        for (;;) writeSync(fd, CHUNK);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      // Lazily: a child Larder that has not yet let go of its files must not keep it mounted.
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmdirSync(dir);
    },
  };
}

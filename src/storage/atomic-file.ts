// Making files and directories durable.
// Atomic replace: write a temp file, fsync it, rename it over the target, fsync the
// directory. A crash leaves either the old file or the new one, never a mix; a leftover
// `<name>.tmp` is garbage its owner deletes. A new directory (or file) only survives a power
// loss once the directory that names it is fsynced too.
// What Larder creates in its data directory is for its own user alone: files FILE_MODE,
// directories DIR_MODE, whatever the umask (it can only take bits away).

import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Replaces `path` with what `fill` writes, through `write`, which may be called many times. */
export function replaceFile(path: string, fill: (write: (data: Uint8Array) => void) => void): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', FILE_MODE);
  let written = false;
  try {
    fchmodSync(fd, FILE_MODE); // a leftover temp file keeps its own mode through open()
    fill((data) => {
      for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
    });
    fsyncSync(fd);
    written = true;
  } finally {
    closeSync(fd);
    // A write the disk refused leaves no half file behind to hold the space a full disk lacks.
    if (!written) rmSync(tmp, { force: true });
  }
  renameSync(tmp, path);
  syncDirectory(dirname(path));
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  replaceFile(path, (write) => write(typeof data === 'string' ? Buffer.from(data) : data));
}

export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** As syncDirectory, off the JS thread. */
export async function syncDirectoryInBackground(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** mkdir -p that also fsyncs the parent of every directory it created. */
export function makeDirectory(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (created === undefined) return;
  const first = resolve(created);
  for (let d = resolve(dir); d !== dirname(d); d = dirname(d)) {
    syncDirectory(dirname(d));
    if (d === first) return;
  }
}

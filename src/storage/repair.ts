// `larder repair`: with Larder stopped, sets aside whatever follows the valid records of every
// log and snapshot in a data directory, so the next start finds nothing damaged. Files are known
// by their names, as the services lay them out:
//   <20 digits>.log      a partition's segments (streams/log/partition-log.ts); offsets are dense,
//                        so the segments after a damaged one are set aside whole
//   snapshot-<gen>.bin   a generation's snapshot (generations.ts); the kept entries are written
//                        back under a header counting them
//   *.aof, other *.log   append logs: generation logs, consumer offsets, queue events
// What is set aside goes to `<file>.quarantine-<byte>` beside the file (a later segment is renamed
// so), a name no service reads or deletes; nothing is deleted. The quarantine file is written and
// fsynced before the log is cut, so a crash mid-repair leaves at worst a second copy.
// Torn tails, which a start would cut, are set aside too, and reported as such.

import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { syncDirectory, writeFileAtomic } from './atomic-file.js';
import { isTornTail, readFrames } from './frames.js';
import { GEN_FILE, writeSnapshot, type SnapshotFormat } from './generations.js';

/** One file's repair. */
export interface SetAside {
  readonly file: string;
  /** Whole records kept, before the damage (a snapshot's entries, without its header). */
  readonly keptRecords: number;
  /** Where the damage began: the file keeps the bytes before it (a snapshot: its records, rewritten). */
  readonly offset: number;
  readonly setAsideBytes: number;
  readonly quarantine: string;
  /** What was wrong: a torn tail, damage, or a segment after a damaged one. */
  readonly what: 'torn tail' | 'damage' | 'follows a damaged segment';
}

const SEGMENT = /^\d{20}\.log$/;

/**
 * Repairs every log and snapshot under `dataDir`. `snapshotFormats` gives the format of the
 * snapshots under each top-level folder (`kv`, `vector`, `queue`).
 */
export function repairDataDir(dataDir: string, snapshotFormats: Readonly<Record<string, SnapshotFormat>>): SetAside[] {
  const done: SetAside[] = [];
  const note = (repaired: SetAside | null) => repaired !== null && done.push(repaired);
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const segments: string[] = [];
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) visit(path);
      else if (SEGMENT.test(e.name)) segments.push(path);
      else if (GEN_FILE.exec(e.name)?.[1] === 'snapshot') {
        const format = snapshotFormats[relative(dataDir, dir).split(sep)[0]];
        if (format !== undefined) note(repairSnapshot(path, format));
      } else if (e.name.endsWith('.aof') || e.name.endsWith('.log')) note(repairLog(path));
    }
    done.push(...repairPartition(segments));
  };
  if (existsSync(dataDir)) visit(dataDir);
  return done;
}

function repairLog(path: string): SetAside | null {
  const data = readFileSync(path);
  const scan = readFrames(data);
  if (scan.stop === undefined) return null;
  const quarantine = moveTail(path, data, scan.validBytes);
  const what = isTornTail(data, scan.validBytes) ? 'torn tail' : 'damage';
  return { file: path, keptRecords: scan.frames.length, offset: scan.validBytes, setAsideBytes: data.length - scan.validBytes, quarantine, what };
}

/** Segments in order: the first with bad bytes keeps its valid records, and every later one is set aside. */
function repairPartition(segments: readonly string[]): SetAside[] {
  const bad = segments.findIndex((path) => readFrames(readFileSync(path)).stop !== undefined);
  if (bad === -1) return [];
  const first = repairLog(segments[bad])!;
  const later = segments.slice(bad + 1).map((path): SetAside => {
    const quarantine = freeName(path, 0);
    const setAsideBytes = statSync(path).size;
    renameSync(path, quarantine);
    return { file: path, keptRecords: 0, offset: 0, setAsideBytes, quarantine, what: 'follows a damaged segment' };
  });
  if (later.length > 0) syncDirectory(dirname(segments[0]));
  // The last segment's bad bytes are damage when later segments held records.
  return [later.length > 0 ? { ...first, what: 'damage' } : first, ...later];
}

/** Keeps the snapshot's valid entries under a header that counts them; the rest goes to quarantine. */
function repairSnapshot(path: string, format: SnapshotFormat): SetAside | null {
  const data = readFileSync(path);
  const scan = readFrames(data);
  if (scan.stop === undefined) return null;
  const quarantine = writeQuarantine(path, data, scan.validBytes);
  const [head, ...entries] = scan.frames;
  // A damaged header leaves no entries either: the kept snapshot is an empty one.
  const header = head === undefined ? { version: format.version } : (JSON.parse(head.toString('utf8')) as Record<string, unknown>);
  writeSnapshot(path, { ...header, [format.countField]: entries.length }, entries);
  return { file: path, keptRecords: entries.length, offset: scan.validBytes, setAsideBytes: data.length - scan.validBytes, quarantine, what: 'damage' };
}

/** Copies the bytes from `offset` to a quarantine file, then cuts the file there; returns the quarantine's path. */
function moveTail(path: string, data: Buffer, offset: number): string {
  const quarantine = writeQuarantine(path, data, offset);
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return quarantine;
}

function writeQuarantine(path: string, data: Buffer, offset: number): string {
  const quarantine = freeName(path, offset);
  writeFileAtomic(quarantine, data.subarray(offset));
  return quarantine;
}

/** `<path>.quarantine-<offset>`, with `-2`, `-3`... when an earlier repair took that name. */
function freeName(path: string, offset: number): string {
  const base = `${path}.quarantine-${offset}`;
  let name = base;
  for (let n = 2; existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

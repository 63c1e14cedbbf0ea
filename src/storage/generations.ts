// The generational layout a kv database, a vector index and the queue keep their data in, one directory each:
//   snapshot-<gen>.bin   everything at the moment generation <gen> began (absent for gen 0):
//                        a JSON header frame {"version", <count>: N, ...}, then N entry frames
//   log-<gen>.aof        every write since, one frame each
// Restoring loads the newest snapshot and replays every log from its generation on, in order.
// Compaction starts log <gen+1> at once (writes go on into it), writes snapshot <gen+1> of the
// state at that moment, a slice at a time (snapshot-write.ts) or all at once, and once it is in
// place deletes the generations before it. Until then the newest snapshot is an older one, and
// its log and the logs after it, which follow each other with no gap, say everything since: a
// crash (or a close) at any point leaves a complete chain, and leftovers of older generations
// are deleted on the next start. A log's torn tail is cut and reported (AppendLog.open); damage
// in the middle of a log, any damage in a snapshot (it is written whole, never torn), or a log
// that does not continue the chain from the newest snapshot stops the start with a
// CorruptDataError naming the file. `larder repair` (repair.ts) sets damage aside.
// Not safe for concurrent use; its owner's JS thread owns it.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../server/log.js';
import { AppendLog, type FsyncPolicy, type Recovered } from './append-log.js';
import { makeDirectory, replaceFile } from './atomic-file.js';
import { CorruptDataError, DamagedFileError } from './errors.js';
import { frame, readFrames } from './frames.js';
import { SnapshotWrite } from './snapshot-write.js';

export interface GenerationSettings {
  dir: string;
  fsync: FsyncPolicy;
  /** The log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
  compactAfterBytes: number;
}

/** What a snapshot file names: its header's format version and the header field counting its entries. */
export interface SnapshotFormat {
  readonly version: number;
  readonly countField: string;
}

export interface Snapshot {
  readonly path: string;
  readonly header: Record<string, unknown>;
  readonly entries: readonly Buffer[];
}

export const GEN_FILE = /^(snapshot|log)-(\d{20})\.(bin|aof)$/;
/** Snapshot frames are gathered into writes of about this size. */
const SNAPSHOT_CHUNK = 1 << 20;
/**
 * A background compaction encodes for this long (or until it has 1 MiB to write), then lets
 * the event loop serve what waits while the write runs off the JS thread: a request waits
 * about this long for one slice, and a snapshot of 2M small keys takes a few thousand slices.
 */
const SLICE_MS = 1;
/**
 * After each slice the event loop has this long to itself: a compaction takes about a fifth of
 * the thread, so under full load requests keep four fifths of it. With a pause of twice the
 * slice (a third of the thread), 9 rounds of kv-scale's 2M-key compaction put GET p99 at 1.0x
 * to 3.4x of its p99 without one (median 1.8x, one run's median over 2x); with four times,
 * 1.05x to 2.6x (median 1.8x, every run's median under 2x), the compaction 6.5 s instead of
 * 4.5. A compaction of an idle process takes about five times its work; it is in the background.
 */
const PAUSE_MS = 4 * SLICE_MS;

const genName = (kind: 'snapshot' | 'log', gen: number) =>
  `${kind}-${String(gen).padStart(20, '0')}.${kind === 'snapshot' ? 'bin' : 'aof'}`;

export class Generations {
  /** The generation of the log being appended to. */
  gen = 0;
  log!: AppendLog;
  /** The generation of the newest snapshot (0: none); its log and every later one make the chain. */
  private base = 0;
  private snapshotBytes = 0;
  /** After a failed compaction, the log size at which to try again. */
  private retryCompactionAt = 0;
  /** The snapshot being written in the background, if one is. */
  private writing: SnapshotWrite | null = null;

  /** `owner` names the data in errors and logs: "kv database 'default'". */
  constructor(
    private readonly settings: GenerationSettings,
    private readonly format: SnapshotFormat,
    private readonly owner: string,
    private readonly logger: Logger,
  ) {}

  /** Finds the newest snapshot and the chain of logs after it, and reads the snapshot; null for generation 0. */
  openSnapshot(): Snapshot | null {
    const dir = this.settings.dir;
    makeDirectory(dir);
    const files = readdirSync(dir);
    const logs = new Set<number>();
    for (const name of files) {
      const m = GEN_FILE.exec(name);
      if (m === null) continue;
      if (m[1] === 'snapshot') this.base = Math.max(this.base, Number(m[2]));
      else logs.add(Number(m[2]));
    }
    this.gen = this.base;
    while (logs.has(this.gen) && logs.has(this.gen + 1)) this.gen++;
    // A log the chain does not reach holds writes that no snapshot or log before it leads to: never guess.
    for (const g of logs) {
      if (g > this.gen) {
        throw new CorruptDataError(
          `${this.owner}: ${join(dir, genName('log', g))} has no snapshot-${String(g).padStart(20, '0')}.bin beside it ` +
            'nor the log before it; restore that snapshot from a backup, or move the log away to start from the newest snapshot',
        );
      }
    }
    return this.base === 0 ? null : this.readSnapshot(join(dir, genName('snapshot', this.base)));
  }

  /**
   * Opens the newest log for appending; the frames of every log in the chain, oldest first.
   * `path` names the newest log, or the chain when there are several.
   */
  openLog(): Recovered & { readonly path: string } {
    const frames: Buffer[] = [];
    const paths: string[] = [];
    let cutBytes = 0;
    let last!: Recovered;
    for (let g = this.base; g <= this.gen; g++) {
      const path = join(this.settings.dir, genName('log', g));
      const { log, recovered } = AppendLog.open(path, this.settings.fsync);
      if (recovered.cutBytes > 0) {
        this.logger.warn(
          { owner: this.owner, file: path, validBytes: recovered.validBytes, cutBytes: recovered.cutBytes, reason: recovered.stop },
          'log had a torn tail; cut it and kept every write before it',
        );
      }
      if (g < this.gen) log.close();
      else this.log = log;
      for (const f of recovered.frames) frames.push(f); // not push(...): a log may hold more frames than a call takes arguments
      paths.push(path);
      cutBytes += recovered.cutBytes;
      last = recovered;
    }
    return { ...last, frames, cutBytes, path: paths.join(' followed by ') };
  }

  /** Whether the log has outgrown the settings and the last snapshot (and no compaction or failure holds it back). */
  wantsCompaction(): boolean {
    const size = this.log.size;
    return (
      this.writing === null && size > this.settings.compactAfterBytes && size > this.snapshotBytes && size >= this.retryCompactionAt
    );
  }

  /**
   * Starts log <gen+1> and writes snapshot <gen+1> from `header` (with the format's version and
   * count) and `entries`, which must yield the state as it is now even as later writes change it,
   * then deletes the generations before it. Each entry is copied before the next is taken, so
   * an entry may be a view of a buffer the next one reuses. A failure (a full disk) is logged,
   * not thrown: the writes are durable in the logs already, and compaction is tried again after
   * more growth. In the background, the entries are encoded a slice at a time between turns of
   * the event loop, and the writes, the fsync, the rename and the deletion of the generations
   * before it run off the JS thread; otherwise all at once.
   */
  compact(header: Record<string, unknown>, entries: Iterable<Buffer>, background = false): void {
    this.writing?.abandon(); // its log stays in the chain
    this.writing = null;
    let write: SnapshotWrite;
    try {
      write = this.begin(header, entries);
    } catch (err) {
      return this.failed(err);
    }
    if (!background) {
      try {
        this.installed(write.finish());
      } catch (err) {
        write.abandon();
        this.failed(err);
      }
      return;
    }
    this.writing = write;
    const failed = (err: unknown) => {
      if (this.writing !== write) return;
      this.writing = null;
      write.abandon();
      this.failed(err);
    };
    const slice = () => {
      if (this.writing !== write) return; // closed meanwhile
      let done: boolean;
      try {
        done = write.step(SLICE_MS);
      } catch (err) {
        return failed(err);
      }
      write.writeGatheredInBackground().then(() => {
        if (this.writing !== write) return;
        if (!done) return void setTimeout(slice, PAUSE_MS);
        write.finishInBackground().then((bytes) => {
          if (this.writing !== write || bytes === null) return;
          this.writing = null;
          this.installed(bytes, true);
        }, failed);
      }, failed);
    };
    setImmediate(slice);
  }

  /** Whether a snapshot is being written in the background. */
  get compacting(): boolean {
    return this.writing !== null;
  }

  /**
   * Closes the log; a compaction still running is dropped (the chain of logs stays whole). Its
   * owner, to spare the next start that compaction's log, first compacts again at once.
   */
  close(): void {
    this.writing?.abandon();
    this.writing = null;
    this.log.close();
    this.deleteOlder(false); // a deletion still running in the background would leave them to the next start
  }

  /** Deletes the generations before the newest snapshot and unfinished snapshot writes. */
  removeOlder(): void {
    for (const name of readdirSync(this.settings.dir)) {
      if (this.isOlder(name) || name.endsWith('.tmp')) rmSync(join(this.settings.dir, name), { force: true });
    }
  }

  /**
   * Deletes the generations before the newest snapshot off the JS thread: unlinking a log of
   * hundreds of megabytes took the kernel tens of milliseconds. Temp files are left to the next
   * start, as one may be a compaction that began meanwhile.
   */
  private async removeOlderInBackground(): Promise<void> {
    const older = (await readdir(this.settings.dir)).filter((name) => this.isOlder(name));
    for (const name of older) await rm(join(this.settings.dir, name), { force: true });
  }

  /** removeOlder, now or in the background; a failure is logged: the new generation is whole, and the next start deletes what is left. */
  private deleteOlder(background: boolean): void {
    const leftOver = (err: unknown) => this.logger.warn({ err, owner: this.owner }, 'could not delete the generations before the new snapshot');
    if (background) return void this.removeOlderInBackground().catch(leftOver);
    try {
      this.removeOlder();
    } catch (err) {
      leftOver(err);
    }
  }

  private isOlder(name: string): boolean {
    const m = GEN_FILE.exec(name);
    return m !== null && Number(m[2]) < this.base;
  }

  /** The error for a snapshot or log entry that cannot be read. */
  corrupt(path: string, what: string): CorruptDataError {
    return new CorruptDataError(`${this.owner}: ${path} ${what}; restore it from a backup`);
  }

  /** Moves the writes to log <gen+1> and opens snapshot <gen+1> for writing. */
  private begin(header: Record<string, unknown>, entries: Iterable<Buffer>): SnapshotWrite {
    const source = entries[Symbol.iterator]();
    let write: SnapshotWrite;
    try {
      this.log.flush();
      write = new SnapshotWrite(join(this.settings.dir, genName('snapshot', this.gen + 1)), { version: this.format.version, ...header }, this.format.countField, source);
    } catch (err) {
      source.return?.(); // its owner may hold state for it (kv's keyspace walk)
      throw err;
    }
    try {
      const log = AppendLog.open(join(this.settings.dir, genName('log', this.gen + 1)), this.settings.fsync).log;
      this.log.close();
      this.log = log;
      this.gen++;
    } catch (err) {
      write.abandon();
      throw err;
    }
    return write;
  }

  private installed(snapshotBytes: number, background = false): void {
    this.snapshotBytes = snapshotBytes;
    this.base = this.gen;
    this.retryCompactionAt = 0;
    this.deleteOlder(background);
    this.logger.info({ owner: this.owner, generation: this.gen, snapshotBytes }, 'log compacted');
  }

  private failed(err: unknown): void {
    this.retryCompactionAt = this.log.size + this.settings.compactAfterBytes;
    this.logger.error({ err, owner: this.owner, retryAtBytes: this.retryCompactionAt }, 'log compaction failed');
  }

  private readSnapshot(path: string): Snapshot {
    const data = readFileSync(path);
    const { frames, validBytes, stop } = readFrames(data);
    const corrupt = (what: string) => this.corrupt(`snapshot ${path}`, what);
    if (validBytes !== data.length) throw new DamagedFileError(path, validBytes, data.length - validBytes, `${stop}; a snapshot is written whole, so it is never torn`);
    if (frames.length === 0) throw corrupt('is empty');
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(frames[0].toString('utf8')) as Record<string, unknown>;
    } catch {
      throw corrupt('has an unreadable header');
    }
    const { version, countField } = this.format;
    if (header.version !== version) throw corrupt(`has version ${String(header.version)}, not ${version}`);
    if (header[countField] !== frames.length - 1) throw corrupt(`holds ${frames.length - 1} of ${String(header[countField])} ${countField}`);
    this.snapshotBytes = data.length;
    return { path, header, entries: frames.slice(1) };
  }
}

/** Writes the header and entry frames to `path` atomically, in chunks; returns the file's size. */
export function writeSnapshot(path: string, header: Record<string, unknown>, entries: Iterable<Buffer>): number {
  let bytes = 0;
  replaceFile(path, (write) => {
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    const add = (payload: Buffer) => {
      const f = frame(payload);
      chunk.push(f);
      chunkBytes += f.length;
      if (chunkBytes < SNAPSHOT_CHUNK) return;
      write(Buffer.concat(chunk, chunkBytes));
      bytes += chunkBytes;
      chunk = [];
      chunkBytes = 0;
    };
    add(Buffer.from(JSON.stringify(header)));
    for (const e of entries) add(e);
    write(Buffer.concat(chunk, chunkBytes));
    bytes += chunkBytes;
  });
  return bytes;
}

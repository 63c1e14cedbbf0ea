// The generational layout a kv database and a vector index keep their data in, one directory each:
//   snapshot-<gen>.bin   everything at the moment generation <gen> began (absent for gen 0):
//                        a JSON header frame {"version", <count>: N, ...}, then N entry frames
//   log-<gen>.aof        every write since, one frame each
// Restoring loads the newest snapshot and replays its log. Compaction writes snapshot <gen+1>
// atomically, starts log <gen+1>, then deletes generation <gen>: a crash at any point leaves one
// complete generation, and leftovers of older ones are deleted on the next start. A log's
// torn tail is cut and reported (AppendLog.open); damage in the middle of a log, any damage in
// a snapshot (it is written whole, never torn), or a log newer than every snapshot stops the
// start with a CorruptDataError naming the file. `larder repair` (repair.ts) sets damage aside.
// Not safe for concurrent use; its owner's JS thread owns it.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../server/log.js';
import { AppendLog, type FsyncPolicy, type Recovered } from './append-log.js';
import { makeDirectory, replaceFile } from './atomic-file.js';
import { CorruptDataError, DamagedFileError } from './errors.js';
import { frame, readFrames } from './frames.js';

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

const genName = (kind: 'snapshot' | 'log', gen: number) =>
  `${kind}-${String(gen).padStart(20, '0')}.${kind === 'snapshot' ? 'bin' : 'aof'}`;

export class Generations {
  gen = 0;
  log!: AppendLog;
  private snapshotBytes = 0;
  /** After a failed compaction, the log size at which to try again. */
  private retryCompactionAt = 0;

  /** `owner` names the data in errors and logs: "kv database 'default'". */
  constructor(
    private readonly settings: GenerationSettings,
    private readonly format: SnapshotFormat,
    private readonly owner: string,
    private readonly logger: Logger,
  ) {}

  /** Finds the newest generation and reads its snapshot; null for generation 0. */
  openSnapshot(): Snapshot | null {
    const dir = this.settings.dir;
    makeDirectory(dir);
    const files = readdirSync(dir);
    for (const name of files) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'snapshot') this.gen = Math.max(this.gen, Number(m[2]));
    }
    // A log newer than every snapshot holds writes that no snapshot precedes: never guess.
    for (const name of files) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'log' && Number(m[2]) > this.gen) {
        throw new CorruptDataError(
          `${this.owner}: ${join(dir, name)} has no snapshot-${m[2]}.bin beside it; ` +
            'restore that snapshot from a backup, or move the log away to start from the newest snapshot',
        );
      }
    }
    return this.gen === 0 ? null : this.readSnapshot(join(dir, genName('snapshot', this.gen)));
  }

  /** Opens the generation's log for appending; the frames it held. */
  openLog(): Recovered & { readonly path: string } {
    const path = join(this.settings.dir, genName('log', this.gen));
    const { log, recovered } = AppendLog.open(path, this.settings.fsync);
    this.log = log;
    if (recovered.cutBytes > 0) {
      this.logger.warn(
        { owner: this.owner, file: path, validBytes: recovered.validBytes, cutBytes: recovered.cutBytes, reason: recovered.stop },
        'log had a torn tail; cut it and kept every write before it',
      );
    }
    return { ...recovered, path };
  }

  /** Whether the log has outgrown the settings and the last snapshot (and no failure holds it back). */
  wantsCompaction(): boolean {
    const size = this.log.size;
    return size > this.settings.compactAfterBytes && size > this.snapshotBytes && size >= this.retryCompactionAt;
  }

  /**
   * Writes snapshot <gen+1> from `header` (with the format's version) and `entries`, starts log
   * <gen+1> and deletes generation <gen>. A failure (a full disk) is logged, not thrown: the
   * writes are durable in the log already, and compaction is tried again after more growth.
   */
  compact(header: Record<string, unknown>, entries: Iterable<Buffer>): void {
    try {
      this.log.flush();
      const next = this.gen + 1;
      this.snapshotBytes = writeSnapshot(join(this.settings.dir, genName('snapshot', next)), { ...header, version: this.format.version }, entries);
      this.log.close();
      this.gen = next;
      this.log = AppendLog.open(join(this.settings.dir, genName('log', next)), this.settings.fsync).log;
      this.removeOlder();
      this.retryCompactionAt = 0;
      this.logger.info({ owner: this.owner, generation: next, snapshotBytes: this.snapshotBytes }, 'log compacted');
    } catch (err) {
      this.retryCompactionAt = this.log.size + this.settings.compactAfterBytes;
      this.logger.error({ err, owner: this.owner, retryAtBytes: this.retryCompactionAt }, 'log compaction failed');
    }
  }

  /** Deletes older generations and unfinished snapshot writes. */
  removeOlder(): void {
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if ((m !== null && Number(m[2]) < this.gen) || name.endsWith('.tmp')) rmSync(join(this.settings.dir, name));
    }
  }

  /** The error for a snapshot or log entry that cannot be read. */
  corrupt(path: string, what: string): CorruptDataError {
    return new CorruptDataError(`${this.owner}: ${path} ${what}; restore it from a backup`);
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

// Durability of one embedded database, in <dataDir>/kv/<db>/:
//   snapshot-<gen>.bin   every key at the moment generation <gen> began (absent for gen 0)
//   log-<gen>.aof        every write since, as frames of logged commands
// Restoring loads the newest snapshot and replays its log. Compaction writes snapshot
// <gen+1> atomically, starts log <gen+1>, then deletes generation <gen>: a crash at any point
// leaves one complete generation, and leftovers of older ones are deleted on the next start.
// A log's invalid tail is cut and reported (AppendLog.open); a damaged snapshot, or a log
// newer than every snapshot, stops the start with a CorruptDataError naming the file.
//
// Snapshot frames: the first holds {"version":1,"keys":N} as JSON, plus "scripts" (SCRIPT LOAD's
// bodies) and "libraries" (FUNCTION LOAD's codes) as arrays of byte strings when there are
// any; each next one holds
//   [u32 key length][key][f64 expiry ms, 0 = none][value encoding (value-codec.ts)].
// Not safe for concurrent use; the database's JS thread owns it.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppendLog, type FsyncPolicy } from '../../storage/append-log.js';
import { makeDirectory, replaceFile } from '../../storage/atomic-file.js';
import { CorruptDataError } from '../../storage/errors.js';
import { frame, readFrames } from '../../storage/frames.js';
import type { Logger } from '../../server/log.js';
import type { Args } from '../commands/spec.js';
import { decodeCommands, encodeCommands } from './command-codec.js';
import type { Database, Journal } from './database.js';
import { decodeValue, encodeValue } from './value-codec.js';

const SNAPSHOT_VERSION = 1;
/** Snapshot frames are gathered into writes of about this size. */
const SNAPSHOT_CHUNK = 1 << 20;
const GEN_FILE = /^(snapshot|log)-(\d{20})\.(bin|aof)$/;

export interface PersistenceSettings {
  dir: string;
  fsync: FsyncPolicy;
  compactAfterBytes: number;
}

const genName = (kind: 'snapshot' | 'log', gen: number) =>
  `${kind}-${String(gen).padStart(20, '0')}.${kind === 'snapshot' ? 'bin' : 'aof'}`;

export class Persistence implements Journal {
  private log!: AppendLog;
  private gen = 0;
  private frameCommands: Args[] = [];
  private snapshotBytes = 0;
  /** After a failed compaction, the log size at which to try again. */
  private retryCompactionAt = 0;

  constructor(
    private readonly db: Database,
    private readonly settings: PersistenceSettings,
    private readonly logger: Logger,
  ) {}

  /** Restores the database from disk and starts logging its writes. */
  open(): void {
    makeDirectory(this.settings.dir);
    this.gen = this.newestGeneration();
    this.refuseOrphanLogs();
    const ks = this.db.ks;
    ks.loading = true;
    try {
      if (this.gen > 0) this.loadSnapshot(join(this.settings.dir, genName('snapshot', this.gen)));
      this.replayLog();
    } finally {
      ks.loading = false;
    }
    this.removeOlderGenerations();
    this.db.journal = this;
    ks.expireCycle(1000, 1_000_000);
  }

  record(argv: Args): void {
    this.frameCommands.push(argv);
  }

  seal(): void {
    if (this.frameCommands.length === 0) return;
    this.log.append(encodeCommands(this.frameCommands));
    this.frameCommands = [];
  }

  commit(): void {
    this.log.flush();
    const size = this.log.size;
    if (size <= this.settings.compactAfterBytes || size <= this.snapshotBytes || size < this.retryCompactionAt) return;
    // The writes are durable already; a compaction that fails (a full disk) must not fail them.
    try {
      this.compact();
    } catch (err) {
      this.retryCompactionAt = size + this.settings.compactAfterBytes;
      this.logger.error({ err, db: this.db.dbName, retryAtBytes: this.retryCompactionAt }, 'kv log compaction failed');
    }
  }

  /** Writes a snapshot of the whole keyspace and starts a new, empty log. */
  compact(): void {
    this.seal();
    this.log.flush();
    const next = this.gen + 1;
    const path = join(this.settings.dir, genName('snapshot', next));
    this.snapshotBytes = this.writeSnapshot(path);
    this.log.close();
    this.gen = next;
    this.log = AppendLog.open(join(this.settings.dir, genName('log', next)), this.settings.fsync).log;
    this.removeOlderGenerations();
    this.retryCompactionAt = 0;
    this.logger.info({ db: this.db.dbName, generation: next, snapshotBytes: this.snapshotBytes }, 'kv log compacted');
  }

  close(): void {
    this.seal();
    this.log.close();
  }

  private newestGeneration(): number {
    let newest = 0;
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'snapshot') newest = Math.max(newest, Number(m[2]));
    }
    return newest;
  }

  /** A log newer than every snapshot holds writes that no snapshot precedes: never guess. */
  private refuseOrphanLogs(): void {
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'log' && Number(m[2]) > this.gen) {
        throw new CorruptDataError(
          `kv database '${this.db.dbName}': ${join(this.settings.dir, name)} has no snapshot-${m[2]}.bin beside it; ` +
            'restore that snapshot from a backup, or move the log away to start from the newest snapshot',
        );
      }
    }
  }

  private removeOlderGenerations(): void {
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if ((m !== null && Number(m[2]) < this.gen) || name.endsWith('.tmp')) rmSync(join(this.settings.dir, name));
    }
  }

  private replayLog(): void {
    const path = join(this.settings.dir, genName('log', this.gen));
    const { log, recovered } = AppendLog.open(path, this.settings.fsync);
    this.log = log;
    if (recovered.cutBytes > 0) {
      this.logger.warn(
        { db: this.db.dbName, file: path, validBytes: recovered.validBytes, cutBytes: recovered.cutBytes, reason: recovered.stop },
        'kv log had an invalid tail; cut it and kept every write before it',
      );
    }
    let failed = 0;
    recovered.frames.forEach((payload, i) => {
      let commands: Args[];
      try {
        commands = decodeCommands(payload);
      } catch (e) {
        log.close();
        throw new CorruptDataError(
          `kv database '${this.db.dbName}': frame ${i} of ${path} passed its checksum but ${(e as Error).message}`,
        );
      }
      for (const argv of commands) if (this.db.replay(argv) !== null) failed++;
    });
    if (failed > 0) this.logger.error({ db: this.db.dbName, failed }, 'kv log commands failed to replay');
  }

  private loadSnapshot(path: string): void {
    const corrupt = (what: string) =>
      new CorruptDataError(`kv database '${this.db.dbName}': snapshot ${path} ${what}; restore it from a backup`);
    const data = readFileSync(path);
    const { frames, validBytes } = readFrames(data);
    if (validBytes !== data.length || frames.length === 0) {
      throw corrupt(`is corrupt (valid up to byte ${validBytes} of ${data.length})`);
    }
    let header: { version?: unknown; keys?: unknown; scripts?: unknown; libraries?: unknown };
    try {
      header = JSON.parse(frames[0].toString('utf8')) as typeof header;
    } catch {
      throw corrupt('has an unreadable header');
    }
    if (header.version !== SNAPSHOT_VERSION) throw corrupt(`has version ${String(header.version)}, not ${SNAPSHOT_VERSION}`);
    if (header.keys !== frames.length - 1) throw corrupt(`holds ${frames.length - 1} of ${String(header.keys)} keys`);
    const texts = (v: unknown): string[] | null =>
      v === undefined ? [] : Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : null;
    const scripts = texts(header.scripts);
    const libraries = texts(header.libraries);
    if (scripts === null || libraries === null) throw corrupt('has unreadable scripts or libraries');
    const failed = this.db.scripting.restore({ scripts, libraries });
    if (failed > 0) this.logger.error({ db: this.db.dbName, file: path, failed }, 'kv snapshot scripts or libraries failed to load');
    const ks = this.db.ks;
    for (let i = 1; i < frames.length; i++) {
      const f = frames[i];
      const keyLen = f.length >= 4 ? f.readUInt32LE(0) : f.length;
      if (f.length < 12 + keyLen) throw corrupt(`has a truncated entry (frame ${i})`);
      const key = f.toString('latin1', 4, 4 + keyLen);
      const value = decodeValue(f.toString('latin1', 12 + keyLen));
      if (value === null) throw corrupt(`holds an unreadable value (frame ${i})`);
      ks.insert(key, value, f.readDoubleLE(4 + keyLen));
    }
    this.snapshotBytes = data.length;
  }

  /** Writes every live key to `path` atomically; returns the file's size. */
  private writeSnapshot(path: string): number {
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
      const entries = [...this.db.ks.live()];
      const { scripts, libraries } = this.db.scripting.snapshot();
      const header = { version: SNAPSHOT_VERSION, keys: entries.length, ...(scripts.length > 0 && { scripts }), ...(libraries.length > 0 && { libraries }) };
      add(Buffer.from(JSON.stringify(header)));
      for (const e of entries) {
        const value = encodeValue(e.value);
        const buf = Buffer.allocUnsafe(12 + e.key.length + value.length);
        buf.writeUInt32LE(e.key.length, 0);
        buf.write(e.key, 4, 'latin1');
        buf.writeDoubleLE(e.exp, 4 + e.key.length);
        buf.write(value, 12 + e.key.length, 'latin1');
        add(buf);
      }
      write(Buffer.concat(chunk, chunkBytes));
      bytes += chunkBytes;
    });
    return bytes;
  }
}

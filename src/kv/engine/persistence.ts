// Durability of one embedded database, in <dataDir>/kv/<db>/:
//   snapshot-<gen>.bin   every key at the moment generation <gen> began (absent for gen 0)
//   log-<gen>.aof        every write since, as frames of logged commands
// Restoring loads the newest snapshot and replays its log. Compaction writes snapshot
// <gen+1> atomically, starts log <gen+1>, then deletes generation <gen>: a crash at any point
// leaves one complete generation, and leftovers of older ones are deleted on the next start.
//
// Snapshot frames: the first holds {"version":1,"keys":N} as JSON; each next one holds
//   [u32 key length][key][f64 expiry ms, 0 = none][value encoding (value-codec.ts)].

import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, rmSync, writeSync, fsyncSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { AppendLog, type FsyncPolicy } from '../../storage/append-log.js';
import { syncDirectory } from '../../storage/atomic-file.js';
import { frame, readFrames } from '../../storage/frames.js';
import type { Logger } from '../../server/log.js';
import type { Args } from '../commands/spec.js';
import { decodeCommands, encodeCommands } from './command-codec.js';
import type { Database, Journal } from './database.js';
import { decodeValue, encodeValue } from './value-codec.js';

const SNAPSHOT_VERSION = 1;
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

  constructor(
    private readonly db: Database,
    private readonly settings: PersistenceSettings,
    private readonly logger: Logger,
  ) {}

  /** Restores the database from disk and starts logging its writes. */
  open(): void {
    mkdirSync(this.settings.dir, { recursive: true });
    this.gen = this.newestGeneration();
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
    if (this.log.size > this.settings.compactAfterBytes && this.log.size > this.snapshotBytes) this.compact();
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
    syncDirectory(this.settings.dir);
    this.removeOlderGenerations();
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
      this.logger.warn({ db: this.db.dbName, file: path, cutBytes: recovered.cutBytes }, 'kv log had an invalid tail; cut it');
    }
    let failed = 0;
    for (const payload of recovered.frames) {
      for (const argv of decodeCommands(payload)) if (this.db.replay(argv) !== null) failed++;
    }
    if (failed > 0) this.logger.error({ db: this.db.dbName, failed }, 'kv log commands failed to replay');
  }

  private loadSnapshot(path: string): void {
    const data = readFileSync(path);
    const { frames, validBytes } = readFrames(data);
    if (validBytes !== data.length || frames.length === 0) {
      throw new Error(`snapshot ${path} is corrupt (valid up to byte ${validBytes} of ${data.length}); restore it from a backup`);
    }
    const header = JSON.parse(frames[0].toString('utf8')) as { version: number; keys: number };
    if (header.version !== SNAPSHOT_VERSION || header.keys !== frames.length - 1) {
      throw new Error(`snapshot ${path} has version ${header.version} and ${frames.length - 1} of ${header.keys} keys`);
    }
    const ks = this.db.ks;
    for (let i = 1; i < frames.length; i++) {
      const f = frames[i];
      const keyLen = f.readUInt32LE(0);
      const key = f.toString('latin1', 4, 4 + keyLen);
      const exp = f.readDoubleLE(4 + keyLen);
      const value = decodeValue(f.toString('latin1', 12 + keyLen));
      if (value === null) throw new Error(`snapshot ${path} holds an unreadable value for a key`);
      ks.insert(key, value, exp);
    }
    this.snapshotBytes = data.length;
  }

  private writeSnapshot(path: string): number {
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w');
    let bytes = 0;
    const write = (payload: Buffer) => {
      const f = frame(payload);
      for (let off = 0; off < f.length; ) off += writeSync(fd, f, off);
      bytes += f.length;
    };
    try {
      const entries = [...this.db.ks.live()];
      write(Buffer.from(JSON.stringify({ version: SNAPSHOT_VERSION, keys: entries.length })));
      for (const e of entries) {
        const value = encodeValue(e.value);
        const buf = Buffer.allocUnsafe(12 + e.key.length + value.length);
        buf.writeUInt32LE(e.key.length, 0);
        buf.write(e.key, 4, 'latin1');
        buf.writeDoubleLE(e.exp, 4 + e.key.length);
        buf.write(value, 12 + e.key.length, 'latin1');
        write(buf);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    syncDirectory(this.settings.dir);
    return bytes;
  }
}

// Durability of one vector index, in <dataDir>/vector/<index>/:
//   snapshot-<gen>.bin   the whole index at the moment generation <gen> began (absent for gen 0)
//   log-<gen>.aof        every write since, one op per frame (ops.ts)
// Both hold frames (storage/frames.ts) of ops; a snapshot starts with a header frame
// {"version":1,"ops":N} and then restates the index as ops: its dimension, then per namespace
// a `namespace` op and `upsert` ops of up to SNAPSHOT_BATCH records, in insertion order.
// Restoring loads the newest snapshot and replays its log, exactly as kv does (see
// kv/engine/persistence.ts for the crash reasoning of compaction, which is the same here).
//
// The HNSW graphs are not saved: a restart rebuilds them from the stored vectors. The log and
// snapshot are the one source of truth, checksummed and cut on a torn tail; a graph file
// written beside them could disagree with them after a crash, and hnswlib's file has no
// checksum. The price is start time (inserting every vector again), paid only at start.
// Not safe for concurrent use; the index's JS thread owns it.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../server/log.js';
import { AppendLog, type FsyncPolicy } from '../../storage/append-log.js';
import { makeDirectory, replaceFile } from '../../storage/atomic-file.js';
import { CorruptDataError } from '../../storage/errors.js';
import { frame, readFrames } from '../../storage/frames.js';
import { decodeOp, encodeOp, type Op } from './ops.js';
import type { VectorData } from './record.js';
import type { Journal, VectorIndex } from './vector-index.js';

const SNAPSHOT_VERSION = 1;
const SNAPSHOT_BATCH = 1000;
const GEN_FILE = /^(snapshot|log)-(\d{20})\.(bin|aof)$/;

export interface PersistenceSettings {
  dir: string;
  fsync: FsyncPolicy;
  compactAfterBytes: number;
}

const genName = (kind: 'snapshot' | 'log', gen: number) =>
  `${kind}-${String(gen).padStart(20, '0')}.${kind === 'snapshot' ? 'bin' : 'aof'}`;

export class VectorPersistence implements Journal {
  private log!: AppendLog;
  private gen = 0;
  private snapshotBytes = 0;
  private retryCompactionAt = 0;
  private compactionQueued = false;
  private closed = false;

  constructor(
    private readonly index: VectorIndex,
    private readonly settings: PersistenceSettings,
    private readonly logger: Logger,
  ) {}

  private get name(): string {
    return this.index.settings.name;
  }

  /** Restores the index from disk and starts logging its writes. */
  open(): void {
    makeDirectory(this.settings.dir);
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'snapshot') this.gen = Math.max(this.gen, Number(m[2]));
    }
    for (const name of readdirSync(this.settings.dir)) {
      const m = GEN_FILE.exec(name);
      if (m !== null && m[1] === 'log' && Number(m[2]) > this.gen) {
        throw new CorruptDataError(
          `vector index '${this.name}': ${join(this.settings.dir, name)} has no snapshot-${m[2]}.bin beside it; ` +
            'restore that snapshot from a backup, or move the log away to start from the newest snapshot',
        );
      }
    }
    if (this.gen > 0) this.loadSnapshot(join(this.settings.dir, genName('snapshot', this.gen)));
    this.replayLog();
    this.removeOlderGenerations();
    this.index.journal = this;
  }

  /** Appends and flushes one op (under `always`, fsyncs) before it is applied and answered. */
  write(op: Op): void {
    this.log.append(encodeOp(op));
    this.log.flush();
    const size = this.log.size;
    if (this.compactionQueued || size <= this.settings.compactAfterBytes || size <= this.snapshotBytes || size < this.retryCompactionAt) return;
    // Compact once the op is applied: the snapshot must include it.
    this.compactionQueued = true;
    queueMicrotask(() => this.compactSafely(size));
  }

  /** Writes a snapshot of the whole index and starts a new, empty log. */
  compact(): void {
    this.log.flush();
    const next = this.gen + 1;
    this.snapshotBytes = this.writeSnapshot(join(this.settings.dir, genName('snapshot', next)));
    this.log.close();
    this.gen = next;
    this.log = AppendLog.open(join(this.settings.dir, genName('log', next)), this.settings.fsync).log;
    this.removeOlderGenerations();
    this.retryCompactionAt = 0;
    this.logger.info({ index: this.name, generation: next, snapshotBytes: this.snapshotBytes }, 'vector log compacted');
  }

  close(): void {
    this.closed = true;
    this.log.close();
  }

  private compactSafely(size: number): void {
    this.compactionQueued = false;
    if (this.closed) return;
    // The writes are durable already; a compaction that fails (a full disk) must not fail them.
    try {
      this.compact();
    } catch (err) {
      this.retryCompactionAt = size + this.settings.compactAfterBytes;
      this.logger.error({ err, index: this.name, retryAtBytes: this.retryCompactionAt }, 'vector log compaction failed');
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
        { index: this.name, file: path, validBytes: recovered.validBytes, cutBytes: recovered.cutBytes, reason: recovered.stop },
        'vector log had an invalid tail; cut it and kept every write before it',
      );
    }
    recovered.frames.forEach((payload, i) => this.index.apply(this.decode(payload, path, i)));
  }

  private decode(payload: Buffer, path: string, i: number): Op {
    try {
      return decodeOp(payload);
    } catch (e) {
      throw new CorruptDataError(`vector index '${this.name}': frame ${i} of ${path} passed its checksum but ${(e as Error).message}`);
    }
  }

  private loadSnapshot(path: string): void {
    const data = readFileSync(path);
    const { frames, validBytes } = readFrames(data);
    const corrupt = (what: string) => new CorruptDataError(`vector index '${this.name}': snapshot ${path} ${what}; restore it from a backup`);
    if (validBytes !== data.length || frames.length === 0) throw corrupt(`is corrupt (valid up to byte ${validBytes} of ${data.length})`);
    let header: { version?: unknown; ops?: unknown };
    try {
      header = JSON.parse(frames[0].toString('utf8')) as typeof header;
    } catch {
      throw corrupt('has an unreadable header');
    }
    if (header.version !== SNAPSHOT_VERSION) throw corrupt(`has version ${String(header.version)}, not ${SNAPSHOT_VERSION}`);
    if (header.ops !== frames.length - 1) throw corrupt(`holds ${frames.length - 1} of ${String(header.ops)} ops`);
    for (let i = 1; i < frames.length; i++) this.index.apply(this.decode(frames[i], path, i));
    this.snapshotBytes = data.length;
  }

  private writeSnapshot(path: string): number {
    const payloads: Buffer[] = [];
    const dimension = this.index.dimension;
    if (dimension !== null) payloads.push(encodeOp({ op: 'dimension', dimension }));
    for (const [ns, records] of this.index.contents()) {
      payloads.push(encodeOp({ op: 'namespace', ns }));
      let batch: VectorData[] = [];
      for (const r of records) {
        batch.push(r);
        if (batch.length === SNAPSHOT_BATCH) {
          payloads.push(encodeOp({ op: 'upsert', ns, records: batch }));
          batch = [];
        }
      }
      if (batch.length > 0) payloads.push(encodeOp({ op: 'upsert', ns, records: batch }));
    }
    let bytes = 0;
    replaceFile(path, (write) => {
      for (const p of [Buffer.from(JSON.stringify({ version: SNAPSHOT_VERSION, ops: payloads.length })), ...payloads]) {
        const f = frame(p);
        write(f);
        bytes += f.length;
      }
    });
    return bytes;
  }
}

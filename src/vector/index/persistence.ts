// Durability of one vector index, in <dataDir>/vector/<index>/:
//   snapshot-<gen>.bin   the whole index at the moment generation <gen> began (absent for gen 0)
//   log-<gen>.aof        every write since, one op per frame (ops.ts)
// Both hold frames (storage/frames.ts) of ops; a snapshot starts with a header frame
// {"version":1,"ops":N} and then restates the index as ops: its dimension, then per namespace
// a `namespace` op and `upsert` ops of up to SNAPSHOT_BATCH records, in insertion order.
// Restoring loads the newest snapshot and replays its log, exactly as kv does (see
// kv/engine/persistence.ts for the crash reasoning of compaction, which is the same here).
//
// The log and snapshot are the one source of truth. The HNSW graphs are a cache beside them:
//   graph-<gen>-<i>.hnsw   namespace i's graph (hnswlib's format), written by a clean close
//   graphs.json            {"gen","logBytes","graphs":{namespace: file}}, written (atomically) last
// A start that finds graphs.json naming its generation and exactly its log's length (nothing
// cut, nothing appended since) loads those graphs instead of inserting every vector again; in
// every other case (kill -9, a torn log, a compaction since) it rebuilds them from the stored
// vectors. Either way the cache files are deleted once read, before any new write, so they
// never outlive the state they describe. Labels are part of that state: a snapshot stores each
// record's label and each namespace's next label, so a load assigns the labels the graph uses.
// Not safe for concurrent use; the index's JS thread owns it.

import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '../../server/log.js';
import { AppendLog, type FsyncPolicy } from '../../storage/append-log.js';
import { makeDirectory, replaceFile, writeFileAtomic } from '../../storage/atomic-file.js';
import { CorruptDataError } from '../../storage/errors.js';
import { frame, readFrames } from '../../storage/frames.js';
import { decodeOp, encodeOp, type Op } from './ops.js';
import type { VectorData } from './record.js';
import type { Journal, VectorIndex } from './vector-index.js';

const SNAPSHOT_VERSION = 1;
const SNAPSHOT_BATCH = 1000;
const GEN_FILE = /^(snapshot|log)-(\d{20})\.(bin|aof)$/;
const GRAPHS_MARKER = 'graphs.json';
const GRAPH_FILE = /^graph-\d{20}-\d+\.hnsw(\.tmp)?$/;

interface GraphsMarker {
  gen: number;
  logBytes: number;
  graphs: Record<string, string>;
}

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
    const marker = this.readGraphsMarker();
    this.index.beginLoad();
    if (this.gen > 0) this.loadSnapshot(join(this.settings.dir, genName('snapshot', this.gen)));
    const logBytes = this.replayLog();
    const usable = marker !== null && marker.gen === this.gen && marker.logBytes === logBytes;
    const graphs = new Map(usable ? Object.entries(marker.graphs).map(([ns, file]) => [ns, join(this.settings.dir, file)]) : []);
    this.index.finishLoad(graphs, (ns, err) =>
      this.logger.warn({ err, index: this.name, namespace: ns }, 'saved vector graph unreadable; rebuilt it from the stored vectors'),
    );
    this.removeGraphs();
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

  /** Flushes the log, then saves the graphs so the next start need not rebuild them. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.close();
    try {
      const graphs = this.index.saveGraphs((i) => join(this.settings.dir, `graph-${String(this.gen).padStart(20, '0')}-${i}.hnsw`));
      for (const path of graphs.values()) syncFile(path);
      const marker: GraphsMarker = { gen: this.gen, logBytes: this.log.size, graphs: Object.fromEntries([...graphs].map(([ns, p]) => [ns, basename(p)])) };
      writeFileAtomic(join(this.settings.dir, GRAPHS_MARKER), JSON.stringify(marker));
    } catch (err) {
      // Only a cache: the next start rebuilds the graphs.
      this.logger.warn({ err, index: this.name }, 'could not save the vector graphs');
    }
  }

  private readGraphsMarker(): GraphsMarker | null {
    try {
      return JSON.parse(readFileSync(join(this.settings.dir, GRAPHS_MARKER), 'utf8')) as GraphsMarker;
    } catch {
      return null;
    }
  }

  private removeGraphs(): void {
    for (const name of readdirSync(this.settings.dir)) {
      if (name === GRAPHS_MARKER || GRAPH_FILE.test(name)) rmSync(join(this.settings.dir, name));
    }
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

  /** Replays the log; returns its valid length. */
  private replayLog(): number {
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
    return recovered.cutBytes > 0 ? -1 : recovered.validBytes;
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
    for (const [ns, records, next] of this.index.contents()) {
      payloads.push(encodeOp({ op: 'namespace', ns, next }));
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

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

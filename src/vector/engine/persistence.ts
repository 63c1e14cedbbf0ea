// Durability of one vector index, in <dataDir>/vector/<index>/, as storage/generations.ts lays
// it out: snapshot-<gen>.bin and log-<gen>.aof, both of ops (ops.ts), one per frame. A snapshot's
// header is {"version":1,"ops":N}; its ops restate the index: its dimension, then per namespace
// a `namespace` op and `upsert` ops of up to SNAPSHOT_BATCH records, in label order.
//
// The log and snapshot are the one source of truth. The HNSW graphs are a cache beside them:
//   graph-<gen>-<i>.hnsw   namespace i's graph (usearch's format), written by a clean close
//   graphs.json            {"format","gen","logBytes","graphs":{namespace: file}}, written (atomically) last
// A start that finds graphs.json naming this build's graph format, its generation and exactly
// its log's length (nothing cut, nothing appended since) loads those graphs instead of
// inserting every vector again; in every other case (kill -9, a torn log, a compaction since)
// it rebuilds them from the stored vectors. Either way the cache files are deleted once read,
// before any new write, so they never outlive the state they describe. Labels are part of
// that state: a snapshot stores each record's label and each namespace's next label, so a load
// assigns the labels the graph uses.
// Not safe for concurrent use; the index's JS thread owns it.

import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '../../server/log.js';
import { writeFileAtomic } from '../../storage/atomic-file.js';
import type { LogFailedError } from '../../storage/errors.js';
import { Generations, type GenerationSettings, type Snapshot } from '../../storage/generations.js';
import { decodeOp, encodeOp, type Op } from './ops.js';
import type { VectorRecord } from './record.js';
import type { Journal, VectorIndex } from './vector-index.js';

export const SNAPSHOT_FORMAT = { version: 1, countField: 'ops' };
/** Records per snapshot op: a background compaction's slice ends between ops, and 1000 records
 *  of 128 dimensions took 6 to 10 ms to encode on Node, ten times the slice (0.6 to 0.9 on Bun). */
const SNAPSHOT_BATCH = 100;
const GRAPHS_MARKER = 'graphs.json';
/** How ann.ts builds its graphs; a graph saved by a build with another (usearch would load it
 *  as it was saved, in the old precision) is rebuilt instead. 2: COSINE in 8 bits; 3: COSINE
 *  as inner product in half precision (none: the builds before 2, rebuilt once). */
const GRAPH_FORMAT = 3;
const GRAPH_FILE = /^graph-\d{20}-\d+\.hnsw(\.tmp)?$/;

interface GraphsMarker {
  format?: number;
  gen: number;
  logBytes: number;
  graphs: Record<string, string>;
}

export type PersistenceSettings = GenerationSettings;

export class VectorPersistence implements Journal {
  private readonly generations: Generations;
  private compactionQueued = false;
  private closed = false;

  constructor(
    private readonly index: VectorIndex,
    private readonly settings: PersistenceSettings,
    private readonly logger: Logger,
  ) {
    this.generations = new Generations(settings, SNAPSHOT_FORMAT, `vector index '${index.settings.name}'`, logger);
  }

  /** The index's name. */
  get name(): string {
    return this.index.settings.name;
  }

  /** Restores the index from disk and starts logging its writes. */
  open(): void {
    const generations = this.generations;
    const snapshot = generations.openSnapshot();
    const marker = this.readGraphsMarker();
    this.index.beginLoad();
    if (snapshot !== null) this.loadSnapshot(snapshot);
    const logBytes = this.replayLog();
    const usable = marker !== null && marker.format === GRAPH_FORMAT && marker.gen === generations.gen && marker.logBytes === logBytes;
    const graphs = new Map(usable ? Object.entries(marker.graphs).map(([ns, file]) => [ns, join(this.settings.dir, file)]) : []);
    this.index.finishLoad(graphs, (ns, err) =>
      this.logger.warn({ err, index: this.name, namespace: ns }, 'saved vector graph unreadable; rebuilt it from the stored vectors'),
    );
    this.removeGraphs();
    generations.removeOlder();
    this.index.journal = this;
  }

  /**
   * Appends and flushes one op (under `always`, fsyncs) before it is applied and answered.
   * When the disk refuses it, the op is forgotten (it was never applied) and LogFailedError
   * is thrown, for the service's boundary to answer (503).
   */
  write(op: Op): void {
    const log = this.generations.log;
    log.append(encodeOp(op));
    try {
      log.flush();
    } catch (e) {
      log.discardPending();
      throw e;
    }
    if (this.compactionQueued || !this.generations.wantsCompaction()) return;
    // Compact once the op is applied: the snapshot must include it.
    this.compactionQueued = true;
    queueMicrotask(() => {
      this.compactionQueued = false;
      if (!this.closed) this.compact(true);
    });
  }

  /**
   * Writes a snapshot of the whole index as it is now and starts a new, empty log; in the
   * background, a slice at a time while writes go on (see Generations.compact).
   */
  compact(background = false): void {
    this.generations.compact({}, this.snapshotOps(), background);
  }

  /** Writes what a failure held back, if it can now; the failure that still holds, or null. */
  writeFailure(): LogFailedError | null {
    return this.generations.log.retry();
  }

  /** Flushes the log, then saves the graphs so the next start need not rebuild them. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.generations.compacting) this.compact(); // else the next start replays what it took
    const { log, gen } = this.generations;
    this.generations.close();
    try {
      const graphs = this.index.saveGraphs((i) => join(this.settings.dir, `graph-${String(gen).padStart(20, '0')}-${i}.hnsw`));
      for (const path of graphs.values()) syncFile(path);
      const marker: GraphsMarker = { format: GRAPH_FORMAT, gen, logBytes: log.size, graphs: Object.fromEntries([...graphs].map(([ns, p]) => [ns, basename(p)])) };
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

  /** Replays the log; returns its valid length, -1 when a tail was cut. */
  private replayLog(): number {
    const { frames, path, cutBytes, validBytes } = this.generations.openLog();
    frames.forEach((payload, i) => this.index.apply(this.decode(payload, path, i)));
    return cutBytes > 0 ? -1 : validBytes;
  }

  private decode(payload: Buffer, path: string, i: number): Op {
    try {
      return decodeOp(payload);
    } catch (e) {
      throw this.generations.corrupt(path, `frame ${i} passed its checksum but ${(e as Error).message}`);
    }
  }

  private loadSnapshot({ path, entries }: Snapshot): void {
    entries.forEach((payload, i) => this.index.apply(this.decode(payload, path, i + 1)));
  }

  /**
   * The index restated as ops, in the order a load applies them, as it is now: each namespace's
   * records are frozen now (see Namespace.frozen) and made and encoded as they are written.
   */
  private snapshotOps(): Iterable<Buffer> {
    const dimension = this.index.dimension;
    const spaces = [...this.index.contents()];
    return (function* () {
      if (dimension !== null) yield encodeOp({ op: 'dimension', dimension });
      for (const [ns, records, next] of spaces) {
        yield encodeOp({ op: 'namespace', ns, next });
        let batch: VectorRecord[] = [];
        for (const r of records) {
          batch.push(r);
          if (batch.length < SNAPSHOT_BATCH) continue;
          yield encodeOp({ op: 'upsert', ns, records: batch });
          batch = [];
        }
        if (batch.length > 0) yield encodeOp({ op: 'upsert', ns, records: batch });
      }
    })();
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

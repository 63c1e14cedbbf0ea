// Durability of one embedded database, in <dataDir>/kv/<db>/, as storage/generations.ts lays
// it out: snapshot-<gen>.bin and log-<gen>.aof.
//
// Snapshot frames: the header holds {"version":1,"keys":N}, plus "scripts" (SCRIPT LOAD's
// bodies) and "libraries" (FUNCTION LOAD's codes) as arrays of byte strings when there are
// any, and "search" (the SEARCH.CREATE of each search index and SEARCH.ALIASADD of each alias)
// as an array of argvs when there are any, and "keyspaceEvents" (CONFIG SET notify-keyspace-events,
// its classes as text, `A` read again by the classes a newer Larder has, as the log's CONFIG SET
// is; the bits of the version before) when some are enabled; search indexes themselves are not stored but rebuilt from the keys at start. Each
// entry holds
//   [u32 key length][key][f64 expiry ms, 0 = none][value encoding (value-codec.ts)].
// Log frames hold the commands of one write (command-codec.ts).
// Not safe for concurrent use; the database's JS thread owns it.

import type { Logger } from '../../server/log.js';
import { LogFailedError } from '../../storage/errors.js';
import { Generations, type GenerationSettings, type Snapshot } from '../../storage/generations.js';
import type { Args } from '../argv.js';
import { diskWriteFailed, type ReplyError } from '../errors.js';
import { decodeCommands, encodeCommands } from './command-codec.js';
import type { Keyspace } from './keyspace.js';
import { formatEventClasses, parseEventClasses, type KeyspaceEvents } from './pubsub/keyspace-events.js';
import type { Scripting } from './scripting/scripting.js';
import { decodeValue, encodeValueAfter } from './value-codec.js';
import type { Value } from './value.js';

export const SNAPSHOT_FORMAT = { version: 1, countField: 'keys' };
/**
 * Snapshot entries up to this size are encoded into one buffer, reused from entry to entry,
 * and copied into the snapshot's write buffer at once: a buffer of its own for each of 2M keys
 * made the collector pause requests again and again while a compaction ran.
 */
const ENTRY_SCRATCH_BYTES = 64 * 1024;

export type PersistenceSettings = GenerationSettings;

/** Where writes go to be durable. */
export interface Journal {
  /** Adds one command to the frame being built. */
  record(argv: Args): void;
  /** Closes the frame: its commands are replayed all or none. */
  seal(): void;
  /**
   * Makes sealed frames durable as the fsync policy says; called before answering. Returns
   * the error for the writes among them when the disk refused them (they stay pending).
   */
  commit(): ReplyError | null;
  /** The error a write gets now, before it runs, because the log cannot be written; or null. */
  writeFailure(): ReplyError | null;
  /** Whether every write committed so far is on the disk (WAITAOF in a transaction asks). */
  synced(): boolean;
  /** Resolves once every write committed so far is on the disk: null, or the error of a disk that refused them. */
  sync(): Promise<ReplyError | null>;
}

/** What is kept durable and replayed into: the embedded database (kv/database.ts). */
export interface PersistedDatabase {
  readonly dbName: string;
  readonly ks: Keyspace;
  readonly scripting: Scripting;
  readonly search: PersistedSearch;
  readonly events: KeyspaceEvents;
  journal: Journal;
  /** Re-runs a logged command, unchecked; the error it met, or null. */
  replay(argv: Args): ReplyError | null;
}

/** The search indexes (kv/search/registry.ts): their definitions are kept, the indexes rebuilt. */
export interface PersistedSearch {
  /** Some index or alias is defined. */
  readonly declared: boolean;
  /** Some index is defined, so there is something to rebuild. */
  readonly active: boolean;
  /** SEARCH.CREATE and SEARCH.ALIASADD argvs that define them again. */
  definitions(): string[][];
  /** [index name, key...] for each index created with SKIPINITIALSCAN that still leaves keys out. */
  skippedKeys(): string[][];
  restoreSkipped(name: string, keys: readonly string[]): boolean;
  list(): readonly unknown[];
  rebuild(): void;
}

/** The reply to writes the disk refused; anything but a failed log is thrown on. */
function refusedWrite(e: unknown): ReplyError {
  if (e instanceof LogFailedError) return diskWriteFailed(e.reason);
  throw e;
}

export class Persistence implements Journal {
  private readonly generations: Generations;
  private frameCommands: Args[] = [];
  /** What errors and /healthz call it: "kv database 'default'". */
  readonly owner: string;

  constructor(
    private readonly db: PersistedDatabase,
    settings: PersistenceSettings,
    private readonly logger: Logger,
  ) {
    this.owner = `kv database '${db.dbName}'`;
    this.generations = new Generations(settings, SNAPSHOT_FORMAT, this.owner, logger);
  }

  /** Restores the database from disk and starts logging its writes. */
  open(): void {
    const ks = this.db.ks;
    ks.loading = true;
    try {
      const snapshot = this.generations.openSnapshot();
      if (snapshot !== null) this.loadSnapshot(snapshot);
      this.replayLog();
    } finally {
      ks.loading = false;
    }
    this.rebuildSearch();
    this.generations.removeOlder();
    this.db.journal = this;
    ks.expireCycle(1000, Infinity);
  }

  record(argv: Args): void {
    this.frameCommands.push(argv);
  }

  seal(): void {
    if (this.frameCommands.length === 0) return;
    this.generations.log.append(encodeCommands(this.frameCommands));
    this.frameCommands = [];
  }

  commit(): ReplyError | null {
    try {
      this.generations.log.flush();
    } catch (e) {
      return refusedWrite(e);
    }
    if (this.generations.wantsCompaction()) this.compact(true);
    return null;
  }

  synced(): boolean {
    return this.frameCommands.length === 0 && this.generations.log.synced;
  }

  /** A log that compaction rotated out was fdatasynced as it closed: waiting for the current one covers every write. */
  sync(): Promise<ReplyError | null> {
    return this.generations.log.sync().then(() => null, refusedWrite);
  }

  writeFailure(): ReplyError | null {
    const failure = this.retryWrites();
    return failure === null ? null : diskWriteFailed(failure.reason);
  }

  /** Writes what a full disk held back, if it can now; the failure that still holds, or null. */
  retryWrites(): LogFailedError | null {
    return this.generations.log.retry();
  }

  /**
   * Writes a snapshot of the whole keyspace as it is now and starts a new, empty log; in the
   * background, a slice at a time while commands go on (see Generations.compact).
   */
  compact(background = false): void {
    this.seal();
    const { scripts, libraries } = this.db.scripting.snapshot();
    const search = this.db.search.declared ? this.db.search.definitions() : [];
    const searchSkipped = this.db.search.active ? this.db.search.skippedKeys() : [];
    const events = this.db.events.flags;
    const header = {
      ...(events !== 0 && { keyspaceEvents: formatEventClasses(events, true) }),
      ...(scripts.length > 0 && { scripts }),
      ...(libraries.length > 0 && { libraries }),
      ...(search.length > 0 && { search }),
      ...(searchSkipped.length > 0 && { searchSkipped }),
    };
    const scratch = Buffer.allocUnsafe(ENTRY_SCRATCH_BYTES);
    const entries = this.db.ks.snapshot((key, value, exp) => encodeEntry(key, value, exp, scratch));
    this.generations.compact(header, entries, background);
  }

  close(): void {
    if (this.generations.compacting) this.compact(); // else the next start replays what it took
    this.seal();
    this.generations.close();
  }

  /** Fills the search indexes from the loaded keys, and says how long that took. */
  private rebuildSearch(): void {
    if (!this.db.search.active) return;
    const started = performance.now();
    this.db.search.rebuild();
    this.db.ks.fold(); // the rebuild read every key, unfolding small hashes
    const ms = Math.round(performance.now() - started);
    this.logger.info({ db: this.db.dbName, indexes: this.db.search.list().length, ms }, 'kv search indexes rebuilt');
  }

  private replayLog(): void {
    const { frames, path } = this.generations.openLog();
    let failed = 0;
    frames.forEach((payload, i) => {
      let commands: Args[];
      try {
        commands = decodeCommands(payload);
      } catch (e) {
        this.generations.log.close();
        throw this.generations.corrupt(path, `frame ${i} passed its checksum but ${(e as Error).message}`);
      }
      for (const argv of commands) if (this.db.replay(argv) !== null) failed++;
    });
    if (failed > 0) this.logger.error({ db: this.db.dbName, failed }, 'kv log commands failed to replay');
  }

  private loadSnapshot({ path, header, entries }: Snapshot): void {
    const corrupt = (what: string) => this.generations.corrupt(`snapshot ${path}`, what);
    const texts = (v: unknown): string[] | null =>
      v === undefined ? [] : Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : null;
    const scripts = texts(header.scripts);
    const libraries = texts(header.libraries);
    if (scripts === null || libraries === null) throw corrupt('has unreadable scripts or libraries');
    const events = eventClasses(header.keyspaceEvents);
    if (events === null) throw corrupt('has unreadable keyspace event classes');
    this.db.events.flags = events;
    for (const argv of searchDefinitions(header.search)) {
      if (argv === null || this.db.replay(argv) !== null) throw corrupt('has an unreadable search index definition');
    }
    for (const skipped of searchDefinitions(header.searchSkipped)) {
      if (skipped === null || !this.db.search.restoreSkipped(skipped[0], skipped.slice(1))) throw corrupt('has unreadable skipped search keys');
    }
    const failed = this.db.scripting.restore({ scripts, libraries });
    if (failed > 0) this.logger.error({ db: this.db.dbName, file: path, failed }, 'kv snapshot scripts or libraries failed to load');
    const ks = this.db.ks;
    entries.forEach((f, i) => {
      const keyLen = f.length >= 4 ? f.readUInt32LE(0) : f.length;
      if (f.length < 12 + keyLen) throw corrupt(`has a truncated entry (frame ${i + 1})`);
      const key = f.toString('latin1', 4, 4 + keyLen);
      const value = decodeValue(f.toString('latin1', 12 + keyLen));
      if (value === null) throw corrupt(`holds an unreadable value (frame ${i + 1})`);
      ks.insert(key, value, f.readDoubleLE(4 + keyLen));
      ks.fold();
    });
  }
}

/** The header's search index definitions (argvs) or skipped keys (name, keys...): each null when it is not one. */
function searchDefinitions(v: unknown): (string[] | null)[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return [null];
  return v.map((argv) => (Array.isArray(argv) && argv.every((s) => typeof s === 'string') ? argv : null));
}

/** One snapshot entry: [u32 key length][key][f64 expiry][value], in `scratch` when it fits there. */
function encodeEntry(key: string, value: Value, exp: number, scratch: Buffer): Buffer {
  const out = encodeValueAfter(value, 12 + key.length, scratch);
  out.writeUInt32LE(key.length, 0);
  out.write(key, 4, 'latin1');
  out.writeDoubleLE(exp, 4 + key.length);
  return out;
}

/** A snapshot's keyspace event classes: text, or the bits an earlier version kept; null when neither. */
function eventClasses(stored: unknown): number | null {
  if (stored === undefined) return 0;
  if (typeof stored === 'string') return parseEventClasses(stored);
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : null;
}

// The search indexes of one database, kept in sync with its keyspace. The database tells it
// every key a write touched (`keyChanged`) and when the keyspace was emptied (`cleared`); it
// re-reads the key and updates each index covering it. Not safe for concurrent use: the
// database's JS thread owns it.
//
// A STREAM index covers one stream key, each entry a document named by its id; its
// StreamDocuments keeps it in step with the stream, and only one index may cover a stream.
//
// SKIPINITIALSCAN: an index created with it leaves out the keys that existed then (`skipped`)
// until each is written again or SEARCH.REINDEX rebuilds the index; a STREAM index, the ids of
// the entries there were, until SEARCH.REINDEX. The set is what makes a restart give back the
// same index: replaying the log re-creates it at the point the index was created, snapshots
// carry it, and the rebuild at start leaves those documents out.
//
// Keys are looked up with the keyspace's `find`: an index reads them for no client, so a missing
// one publishes no keymiss.

import type { Keyspace } from '../engine/keyspace.js';
import type { Value } from '../engine/value.js';
import type { ReplyError } from '../errors.js';
import { readDocument, type Stored } from './document.js';
import * as E from './errors.js';
import { InvertedIndex } from './inverted-index.js';
import { createArgv, sameDefinition, type CreateRequest } from './schema.js';
import { entryIds, StreamDocuments } from './stream-documents.js';

export class SearchRegistry {
  private readonly indexes = new Map<string, InvertedIndex>();
  /** Alias to index name; the index need not exist (the reference allows dangling aliases). */
  private readonly aliases = new Map<string, string>();
  /** Index name to the keys (a STREAM index: entry ids) its SKIPINITIALSCAN left out and nothing has written since. */
  private readonly skipped = new Map<string, Set<string>>();
  /** The STREAM indexes' documents, by index name. */
  private readonly streams = new Map<string, StreamDocuments>();

  constructor(private readonly ks: Keyspace) {}

  /** Whether any index exists: writes skip the sync work when none does. */
  get active(): boolean {
    return this.indexes.size > 0;
  }

  /** Whether there is anything to keep across a restart: indexes or aliases. */
  get declared(): boolean {
    return this.indexes.size > 0 || this.aliases.size > 0;
  }

  /** 1 when created, 0 when an identical index exists and EXISTSOK allows it. */
  create(req: CreateRequest): 0 | 1 | ReplyError {
    const { def } = req;
    const existing = this.indexes.get(def.name);
    if (existing !== undefined) {
      if (!req.existsOk) return E.indexExists(def.name);
      return sameDefinition(existing.def, def) ? 0 : E.EXISTS_DIFFERENT(def.name);
    }
    if (this.ks.find(def.name) !== undefined) return E.NAME_IS_KEY(def.name);
    const index = new InvertedIndex(def);
    if (def.dataType === 'STREAM') {
      const bound = [...this.streams.values()].find((s) => s.key === def.prefixes[0]);
      if (bound !== undefined) return E.streamIndexed(bound.key, bound.indexName);
      this.streams.set(def.name, new StreamDocuments(index));
    }
    this.indexes.set(def.name, index);
    if (req.skipInitialScan) {
      const existing = this.documentsNow(index);
      if (existing.length > 0) this.skipped.set(def.name, new Set(existing));
    }
    // While the database loads, the rebuild after the load fills every index once.
    if (!this.ks.loading) this.scan(index);
    return 1;
  }

  drop(name: string): boolean {
    this.skipped.delete(name);
    this.streams.delete(name);
    return this.indexes.delete(name);
  }

  /** SEARCH.REINDEX: forgets what was skipped and reads every key again; false without the index. */
  reindex(name: string): boolean {
    const index = this.get(name);
    if (index === undefined) return false;
    this.skipped.delete(index.def.name);
    index.clear();
    this.streams.get(index.def.name)?.reset();
    if (!this.ks.loading) this.scan(index);
    return true;
  }

  /** The index `name` names, or the one the alias `name` points to. */
  get(name: string): InvertedIndex | undefined {
    const index = this.indexes.get(name);
    if (index !== undefined) return index;
    const target = this.aliases.get(name);
    return target === undefined ? undefined : this.indexes.get(target);
  }

  /** 1 when the alias is new, 2 when it existed (even pointing at `index` already). */
  addAlias(alias: string, index: string): 1 | 2 {
    const existed = this.aliases.has(alias);
    this.aliases.set(alias, index);
    return existed ? 2 : 1;
  }

  deleteAlias(alias: string): boolean {
    return this.aliases.delete(alias);
  }

  /** [alias, index name] pairs, by alias. */
  listAliases(): [string, string][] {
    return [...this.aliases].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** Every index, by name. */
  list(): InvertedIndex[] {
    return [...this.indexes.values()].sort((a, b) => (a.def.name < b.def.name ? -1 : a.def.name > b.def.name ? 1 : 0));
  }

  /** Whether document `doc` of `index` is live: looking at an expired key deletes it, which takes its documents out. */
  isLive(index: InvertedIndex, doc: string): boolean {
    const stream = this.streams.get(index.def.name);
    if (stream === undefined) return this.ks.find(doc) !== undefined;
    return this.ks.find(stream.key) !== undefined && index.docs.has(doc);
  }

  /** What live document `doc` of `index` is read from: its key's value, or its stream entry. */
  stored(index: InvertedIndex, doc: string): Stored {
    const stream = this.streams.get(index.def.name);
    return stream === undefined ? this.ks.findValue(doc)! : stream.entry(doc)!;
  }

  /** A write touched `key`. While the database loads only the skipped sets learn of it: the rebuild after the load reads the keys. */
  keyChanged(key: string): void {
    let value;
    for (const index of this.indexes.values()) {
      if (!index.covers(key)) continue;
      const stream = this.streams.get(index.def.name);
      if (stream !== undefined) {
        if (!this.ks.loading) this.syncStream(stream, index, this.ks.findValue(key));
        continue;
      }
      const skipped = this.skipped.get(index.def.name);
      if (skipped?.delete(key) && skipped.size === 0) this.skipped.delete(index.def.name);
      if (this.ks.loading) continue;
      value ??= this.ks.findValue(key) ?? null;
      index.put(key, value === null ? null : readDocument(index.def, value));
    }
  }

  cleared(): void {
    this.skipped.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const stream of this.streams.values()) stream.reset();
  }

  /** Re-reads the whole keyspace into every index (at start, after the data is loaded). */
  rebuild(): void {
    for (const index of this.indexes.values()) {
      index.clear();
      this.scan(index);
    }
  }

  /** For snapshots: each index's skipped keys, [index name, key...] (none when nothing is skipped). */
  skippedKeys(): string[][] {
    return [...this.skipped].map(([name, keys]) => [name, ...keys]);
  }

  /** Restores what `skippedKeys` gave, after the definitions are declared again. */
  restoreSkipped(name: string, keys: readonly string[]): boolean {
    if (!this.indexes.has(name)) return false;
    this.skipped.set(name, new Set(keys));
    return true;
  }

  /** The commands that declare every index and alias again, for snapshots. */
  definitions(): string[][] {
    const aliases = this.listAliases().map(([alias, index]) => ['SEARCH.ALIASADD', alias, index]);
    return [...this.list().map((index) => createArgv(index.def)), ...aliases];
  }

  /** The documents `index` would hold now: the keys it covers, or its stream's entry ids. */
  private documentsNow(index: InvertedIndex): string[] {
    const stream = this.streams.get(index.def.name);
    return stream === undefined ? [...this.ks.keys()].filter((key) => index.covers(key)) : entryIds(this.ks.findValue(stream.key));
  }

  private syncStream(stream: StreamDocuments, index: InvertedIndex, value: Value | undefined): void {
    const skipped = this.skipped.get(index.def.name);
    stream.sync(value, skipped);
    if (skipped?.size === 0) this.skipped.delete(index.def.name);
  }

  private scan(index: InvertedIndex): void {
    const skipped = this.skipped.get(index.def.name);
    const stream = this.streams.get(index.def.name);
    if (stream !== undefined) {
      stream.reset();
      return this.syncStream(stream, index, this.ks.findValue(stream.key));
    }
    for (const key of this.ks.keys()) {
      if (index.covers(key) && !skipped?.has(key)) index.put(key, readDocument(index.def, this.ks.findValue(key)!));
    }
  }
}

// The search indexes of one database, kept in sync with its keyspace. The database tells it
// every key a write touched (`keyChanged`) and when the keyspace was emptied (`cleared`); it
// re-reads the key and updates each index covering it. Not safe for concurrent use: the
// database's JS thread owns it.

import type { Keyspace } from '../engine/keyspace.js';
import type { ReplyError } from '../errors.js';
import { readDocument } from './document.js';
import * as E from './errors.js';
import { InvertedIndex } from './inverted-index.js';
import { createArgv, sameDefinition, type CreateRequest } from './schema.js';

export class SearchRegistry {
  private readonly indexes = new Map<string, InvertedIndex>();
  /** Alias to index name; the index need not exist (the reference allows dangling aliases). */
  private readonly aliases = new Map<string, string>();

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
    if (this.ks.peek(def.name) !== undefined) return E.NAME_IS_KEY(def.name);
    const index = new InvertedIndex(def);
    this.indexes.set(def.name, index);
    // While the database loads, the rebuild after the load fills every index once.
    if (!req.skipInitialScan && !this.ks.loading) this.scan(index);
    return 1;
  }

  drop(name: string): boolean {
    return this.indexes.delete(name);
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

  keyChanged(key: string): void {
    let value;
    for (const index of this.indexes.values()) {
      if (!index.covers(key)) continue;
      value ??= this.ks.peek(key)?.value ?? null;
      index.put(key, value === null ? null : readDocument(index.def, value));
    }
  }

  cleared(): void {
    for (const index of this.indexes.values()) index.clear();
  }

  /** Re-reads the whole keyspace into every index (at start, after the data is loaded). */
  rebuild(): void {
    for (const index of this.indexes.values()) {
      index.clear();
      this.scan(index);
    }
  }

  /** The commands that declare every index and alias again, for snapshots. */
  definitions(): string[][] {
    const aliases = this.listAliases().map(([alias, index]) => ['SEARCH.ALIASADD', alias, index]);
    return [...this.list().map((index) => createArgv(index.def)), ...aliases];
  }

  private scan(index: InvertedIndex): void {
    for (const key of this.ks.keys()) {
      if (index.covers(key)) index.put(key, readDocument(index.def, this.ks.peek(key)!.value));
    }
  }
}

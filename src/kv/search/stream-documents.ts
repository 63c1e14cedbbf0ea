// The documents of a STREAM index: one per entry of its stream key, named by the entry's id
// ("1-0"). An entry never changes once added, so keeping the index in step means taking in the
// entries past the last one it took and dropping those gone: XADD appends, trimming cuts the
// front, and only a hole (XDEL) or a stream whose ids went back needs the whole stream compared.
// Another value put under the key (RESTORE, RENAME, a new stream after DEL) is read afresh.
// Not safe for concurrent use: the database's JS thread owns it.

import { MAX_ID, MIN_ID, formatId, makeId, type StreamId } from '../engine/stream/stream-id.js';
import type { StreamEntry } from '../engine/stream/entry-store.js';
import { StreamValue } from '../engine/stream/stream-value.js';
import type { Value } from '../engine/value.js';
import { readDocument } from './document.js';
import type { InvertedIndex } from './inverted-index.js';

export class StreamDocuments {
  /** The ids of the entries taken in (indexed, or left out by SKIPINITIALSCAN), ascending, from `head` on. */
  private ids: StreamId[] = [];
  /** Where they start: a trim of the front moves it, so a capped stream's XADD costs no shift of them all. */
  private head = 0;
  /** The stream they came from. */
  private source: StreamValue | null = null;

  constructor(private readonly index: InvertedIndex) {}

  /** The stream key. */
  get key(): string {
    return this.index.def.prefixes[0];
  }

  get indexName(): string {
    return this.index.def.name;
  }

  /**
   * Brings the index in step with `value`, what the key holds now. `skipped` holds the ids
   * SKIPINITIALSCAN left out: they are taken in unindexed, and forgotten once their entry goes
   * (also those a log replay left behind, read afresh after the load).
   */
  sync(value: Value | undefined, skipped: Set<string> | undefined): void {
    const stream = value instanceof StreamValue ? value : null;
    if (stream !== this.source) {
      this.leaveFrom(this.head, skipped);
      this.ids = [];
      this.head = 0;
      this.source = stream;
      if (skipped !== undefined) for (const doc of skipped) if (this.entry(doc) === undefined) skipped.delete(doc);
    }
    if (stream === null) return;
    const first = stream.length === 0 ? MAX_ID + 1n : stream.firstId;
    while (this.head < this.ids.length && this.ids[this.head] < first) this.leave(this.ids[this.head++], skipped);
    if (this.head > 1024 && this.head * 2 > this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
    const ids = this.ids;
    const after = ids.length === this.head ? MIN_ID : ids[ids.length - 1] + 1n;
    for (const entry of stream.store.range(after, MAX_ID, false)) {
      this.enter(entry, skipped);
      ids.push(entry.id);
    }
    if (ids.length - this.head !== stream.length) this.compare(stream, skipped);
  }

  /** Forgets every entry taken in (the index itself is cleared by its owner). */
  reset(): void {
    this.ids = [];
    this.head = 0;
    this.source = null;
  }

  /** The entry document `doc` names, if the stream holds it. */
  entry(doc: string): StreamEntry | undefined {
    const dash = doc.indexOf('-');
    return this.source?.get(makeId(BigInt(doc.slice(0, dash)), BigInt(doc.slice(dash + 1))));
  }

  /** Both in id order: drops the ids the stream no longer holds, takes in its entries not yet taken. */
  private compare(stream: StreamValue, skipped: Set<string> | undefined): void {
    const ids = this.ids;
    const next: StreamId[] = [];
    let i = this.head;
    for (const entry of stream.store.range(MIN_ID, MAX_ID, false)) {
      while (i < ids.length && ids[i] < entry.id) this.leave(ids[i++], skipped);
      if (i < ids.length && ids[i] === entry.id) i++;
      else this.enter(entry, skipped);
      next.push(entry.id);
    }
    this.leaveFrom(i, skipped);
    this.ids = next;
    this.head = 0;
  }

  private leaveFrom(start: number, skipped: Set<string> | undefined): void {
    for (let i = start; i < this.ids.length; i++) this.leave(this.ids[i], skipped);
  }

  private enter(entry: StreamEntry, skipped: Set<string> | undefined): void {
    const doc = formatId(entry.id);
    if (!skipped?.has(doc)) this.index.put(doc, readDocument(this.index.def, entry));
  }

  private leave(id: StreamId, skipped: Set<string> | undefined): void {
    const doc = formatId(id);
    this.index.put(doc, null);
    skipped?.delete(doc);
  }
}

/** The ids of the entries `value` holds, if it is a stream. */
export function entryIds(value: Value | undefined): string[] {
  return value instanceof StreamValue ? [...value.store.range(MIN_ID, MAX_ID, false)].map((e) => formatId(e.id)) : [];
}

// A stream (Redis's t_stream.c stream struct): entries, the last id handed out, the deletion
// and addition counters that make consumer-group lag computable, and the consumer groups.
// Not safe for concurrent use, and needs none.

import { registerKind, type Container, type ContainerKind } from '../value.js';
import { ConsumerGroup, INVALID_ENTRIES_READ } from './consumer-group.js';
import { EntryStore, trimStopsAt, type StreamEntry, type TrimBy } from './entry-store.js';
import { decodeStream, encodeStream } from './stream-codec.js';
import { streamMemory } from './stream-memory.js';
import { MAX_ID, MIN_ID, type StreamId } from './stream-id.js';

/**
 * What removing entries does with consumer groups' references to them (Redis 8.2's XDELEX,
 * XACKDEL, and XADD's and XTRIM's trims): KEEPREF leaves them in the PELs, DELREF removes them
 * from every PEL, ACKED removes only entries no group still needs (see `referenced`).
 */
export type RefPolicy = 'keepref' | 'delref' | 'acked';

export class StreamValue implements Container {
  readonly store = new EntryStore();
  /** The largest id ever added (or set by XSETID). */
  lastId: StreamId = MIN_ID;
  /** The largest id deleted by XDEL (trimming does not count). */
  maxDeletedId: StreamId = MIN_ID;
  /** Entries ever added: a 64-bit counter, as XSETID may set it to any int64. */
  entriesAdded = 0n;
  readonly groups = new Map<string, ConsumerGroup>();

  get kind(): ContainerKind {
    return STREAM_KIND;
  }

  get length(): number {
    return this.store.length;
  }

  /** The first live entry's id, 0-0 when empty (Redis's recorded first id). */
  get firstId(): StreamId {
    return this.store.first()?.id ?? MIN_ID;
  }

  /** Appends an entry with an id above lastId. */
  append(id: StreamId, fields: readonly string[]): void {
    this.store.append(id, fields);
    this.lastId = id;
    this.entriesAdded++;
  }

  get(id: StreamId): StreamEntry | undefined {
    return this.store.get(id);
  }

  /** XDEL's deletion: counts toward maxDeletedId, which makes lag unknowable past it. */
  delete(id: StreamId): boolean {
    if (!this.store.delete(id)) return false;
    if (id > this.maxDeletedId) this.maxDeletedId = id;
    return true;
  }

  /** Whether some group still needs the entry: pending there, or not delivered yet (Redis's streamEntryIsReferenced). */
  referenced(id: StreamId): boolean {
    for (const g of this.groups.values()) if (g.pel.has(id) || g.lastId < id) return true;
    return false;
  }

  /** Removes the entry from every group's PEL (Redis's streamCleanupEntryCGroupRefs). */
  dropReferences(id: StreamId): void {
    for (const g of this.groups.values()) g.ack(id);
  }

  /**
   * Redis's streamTrim, always exact: removes entries from the head as `by` says, at most
   * `limit` of them (0: no cap), dealing with groups' references as `policy` says. ACKED passes
   * over an entry a group still needs and goes on with the next (a pending entry holds back
   * only itself); MAXLEN counts the entries passed over, which stay. Trimming leaves
   * maxDeletedId alone, as in Redis. Without groups every policy trims alike. Returns how many went.
   */
  trim(by: TrimBy, limit: number, policy: RefPolicy): number {
    if (this.groups.size === 0 || policy === 'keepref') return this.store.trim(by, limit);
    if (policy === 'delref') return this.store.trim(by, limit, (id) => this.dropReferences(id));
    // Entries past some group's last delivered id all stay: the walk ends there.
    const gone: StreamId[] = [];
    let length = this.length;
    for (const e of this.store.range(MIN_ID, this.deliveredToAll(), false)) {
      if (gone.length === limit && limit > 0) break;
      if (trimStopsAt(by, length, e.id)) break;
      if (this.referenced(e.id)) continue;
      gone.push(e.id);
      length--;
    }
    for (const id of gone) this.store.delete(id);
    return gone.length;
  }

  /**
   * The first entry a trim under `policy` could still remove, MAX_ID when none. A trim removes
   * such entries in id order, so every one before it is gone: an exact MINID trim to this id,
   * replayed on the state before, removes the same entries (how a trim with ~ or LIMIT is logged).
   */
  firstTrimmable(policy: RefPolicy): StreamId {
    if (policy !== 'acked') return this.store.first()?.id ?? MAX_ID;
    for (const e of this.store.range(MIN_ID, this.deliveredToAll(), false)) if (!this.referenced(e.id)) return e.id;
    return MAX_ID;
  }

  /** The last id every group has been given (MAX_ID without groups). */
  private deliveredToAll(): StreamId {
    let last = MAX_ID;
    for (const g of this.groups.values()) if (g.lastId < last) last = g.lastId;
    return last;
  }

  /** Redis's streamRangeHasTombstones: whether an XDEL hole may lie in [start, end]. */
  hasTombstones(start: StreamId, end: StreamId = MAX_ID): boolean {
    if (this.length === 0 || this.maxDeletedId === MIN_ID) return false;
    if (this.firstId > this.maxDeletedId) return false;
    return start <= this.maxDeletedId && this.maxDeletedId <= end;
  }

  /** Redis's streamEstimateDistanceFromFirstEverEntry: entries read up to `id`, or INVALID. */
  entriesReadAt(id: StreamId): bigint {
    if (this.entriesAdded === 0n) return 0n;
    if (this.length === 0 && id <= this.lastId) return this.entriesAdded;
    if (id === this.lastId) return this.entriesAdded;
    if (id > this.lastId) return INVALID_ENTRIES_READ;
    const first = this.firstId;
    if (this.maxDeletedId === MIN_ID || this.maxDeletedId < first) {
      if (id < first) return this.entriesAdded - BigInt(this.length);
      if (id === first) return this.entriesAdded - BigInt(this.length) + 1n;
    }
    return INVALID_ENTRIES_READ;
  }

  /** A group's lag (entries not yet delivered), or null when unknowable. */
  lag(g: ConsumerGroup): bigint | null {
    if (this.entriesAdded === 0n) return 0n;
    if (g.entriesRead !== INVALID_ENTRIES_READ && !this.hasTombstones(g.lastId)) return this.entriesAdded - g.entriesRead;
    const read = this.entriesReadAt(g.lastId);
    return read === INVALID_ENTRIES_READ ? null : this.entriesAdded - read;
  }

  clone(): StreamValue {
    return decodeStream(encodeStream(this), () => new StreamValue())!;
  }
}

export const STREAM_KIND: ContainerKind = registerKind({
  type: 'stream',
  tag: 5,
  clone: (v) => (v as StreamValue).clone(),
  encode: (v) => encodeStream(v as StreamValue),
  decode: (bytes) => decodeStream(bytes, () => new StreamValue()),
  encoding: () => 'stream',
  memoryUsage: (v, samples) => streamMemory(v as StreamValue, samples),
});

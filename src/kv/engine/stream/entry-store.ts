// A stream's entries, laid out as Redis lays them out: a sorted list of nodes (Redis's radix
// tree of listpacks), each holding up to NODE_MAX_ENTRIES entries in id order and starting a
// new node when its listpack would pass NODE_MAX_BYTES (listpack-size.ts). A deleted entry
// stays in its node as a tombstone, as in a listpack, until the node's last live entry goes and
// the node with it. Redis's node boundaries are kept so XINFO STREAM and MEMORY USAGE see
// Redis's layout; trimming is always exact (Upstash trims `~` exactly too).
// Seeking an id is a binary search over the nodes, then within one node: O(log n). A node
// emptied by a deletion is marked dropped and left in the list until the dropped outnumber the
// rest, as removing each at once shifted every later node (an XDEL of 50k entries of 4 KB,
// a node each, took seconds).
// Not safe for concurrent use, and needs none.

import { int64Of, intSize, LISTPACK_OVERHEAD, NODE_MAX_BYTES, stringSize } from '../listpack-size.js';
import { U64_MAX, type StreamId } from './stream-id.js';

/** Redis's stream-node-max-entries default. */
export const NODE_MAX_ENTRIES = 100;

/** A trim's threshold: entries go from the head while the stream is longer than `maxlen`, or while their ids are below `minid`. */
export type TrimBy = { readonly maxlen: number } | { readonly minid: StreamId };

/** Whether a trim by `by` stops at the live entry `id`, the stream being `length` long. */
export function trimStopsAt(by: TrimBy, length: number, id: StreamId): boolean {
  return 'maxlen' in by ? length <= by.maxlen : id >= by.minid;
}

export interface StreamEntry {
  readonly id: StreamId;
  /** Field, value, field, value, ... */
  readonly fields: readonly string[];
  deleted: boolean;
}

interface Node {
  /** Ids ascending, tombstones included; entries[0].id is the node's master id. */
  readonly entries: StreamEntry[];
  live: number;
  /** The size of Redis's listpack for this node. */
  bytes: number;
  /** Emptied by a deletion: gone from the stream, not yet from the list. */
  dropped: boolean;
}

/** A new node's listpack: the master entry (count 1, deleted 0, the first entry's field names, 0) and the entry. */
function newNode(entry: StreamEntry): Node {
  const names = fieldNames(entry.fields);
  let bytes = LISTPACK_OVERHEAD + intSize(1n) + intSize(0n) + intSize(BigInt(names.length)) + intSize(0n);
  for (const f of names) bytes += stringSize(f);
  const node: Node = { entries: [entry], live: 1, bytes, dropped: false };
  node.bytes += entrySize(node, entry);
  return node;
}

/** An entry's bytes: flags, id deltas, its fields (names left out when they are the master's), lp-count. */
function entrySize(node: Node, e: StreamEntry): number {
  const master = node.entries[0];
  const masterFields = master.fields;
  const n = e.fields.length / 2;
  let same = n === masterFields.length / 2;
  for (let i = 0; same && i < n; i++) same = e.fields[2 * i] === masterFields[2 * i];
  let bytes = intSize(0n) + intSize(int64Of((e.id >> 64n) - (master.id >> 64n))) + intSize(int64Of((e.id & U64_MAX) - (master.id & U64_MAX)));
  if (!same) bytes += intSize(BigInt(n));
  for (let i = 0; i < n; i++) bytes += (same ? 0 : stringSize(e.fields[2 * i])) + stringSize(e.fields[2 * i + 1]);
  return bytes + intSize(BigInt(3 + n + (same ? 0 : n + 1)));
}

function fieldNames(fields: readonly string[]): string[] {
  return fields.filter((_, i) => i % 2 === 0);
}

/** Redis rewrites the master entry's live and deleted counters in place; their sizes may change. */
function recount(node: Node, live: number, deleted: number): void {
  const oldDeleted = node.entries.length - node.live;
  node.bytes += intSize(BigInt(live)) - intSize(BigInt(node.live)) + intSize(BigInt(deleted)) - intSize(BigInt(oldDeleted));
  node.live = live;
}

/** Dropped nodes below this many are never swept out, so a small stream is not rewritten on every deletion. */
const MIN_SWEEP = 64;

export class EntryStore {
  private nodes: Node[] = [];
  private dropped = 0;
  /** The nodes before this one are dropped (a stream deleted from its head). */
  private head = 0;
  length = 0;

  /** How many nodes (Redis's radix-tree-keys). */
  get nodeCount(): number {
    return this.nodes.length - this.dropped;
  }

  /** Each node's master id (its first entry's, tombstones included) and listpack size, in order. */
  *nodeLayout(): Generator<{ readonly masterId: StreamId; readonly bytes: number }> {
    for (const node of this.nodes) if (!node.dropped) yield { masterId: node.entries[0].id, bytes: node.bytes };
  }

  /** Appends an entry whose id is above every id in the store. */
  append(id: StreamId, fields: readonly string[]): void {
    const last = this.nodes[this.nodes.length - 1];
    const entry: StreamEntry = { id, fields, deleted: false };
    let total = 0;
    for (const f of fields) total += f.length;
    if (last !== undefined && last.bytes + total < NODE_MAX_BYTES && last.entries.length < NODE_MAX_ENTRIES) {
      recount(last, last.live + 1, last.entries.length - last.live);
      last.entries.push(entry);
      last.bytes += entrySize(last, entry);
    } else this.nodes.push(newNode(entry));
    this.length++;
  }

  /** Restores a node as saved (tombstones included), for decoding. */
  restoreNode(entries: StreamEntry[]): void {
    const live = entries.filter((e) => !e.deleted).length;
    // A node may be all tombstones: an exact MINID trim can leave one, as in Redis.
    if (entries.length === 0) return;
    const node = newNode(entries[0]);
    for (const e of entries.slice(1)) {
      recount(node, node.live + 1, 0);
      node.entries.push(e);
      node.bytes += entrySize(node, e);
    }
    recount(node, live, entries.length - live);
    this.nodes.push(node);
    this.length += live;
  }

  /** Every node's entries, tombstones included, for encoding. */
  *rawNodes(): Iterable<readonly StreamEntry[]> {
    for (const n of this.nodes) if (!n.dropped) yield n.entries;
  }

  get(id: StreamId): StreamEntry | undefined {
    const n = this.nodeAt(id);
    if (n < 0) return undefined;
    const entries = this.nodes[n].entries;
    const i = lowerBound(entries, id);
    const e = entries[i];
    return e !== undefined && e.id === id && !e.deleted ? e : undefined;
  }

  /** Deletes a live entry; returns whether there was one. */
  delete(id: StreamId): boolean {
    const n = this.nodeAt(id);
    if (n < 0) return false;
    const node = this.nodes[n];
    const e = node.entries[lowerBound(node.entries, id)];
    if (e === undefined || e.id !== id || e.deleted) return false;
    this.length--;
    e.deleted = true;
    if (node.live > 1) recount(node, node.live - 1, node.entries.length - node.live + 1);
    else this.drop(n);
    return true;
  }

  /**
   * Marks the node at `n` dropped: one at either end leaves the list at once (so the last node
   * is never a dropped one), the rest once they outnumber the others.
   */
  private drop(n: number): void {
    const nodes = this.nodes;
    nodes[n].dropped = true;
    this.dropped++;
    while (nodes.length > 0 && nodes[nodes.length - 1].dropped) {
      nodes.pop();
      this.dropped--;
    }
    while (this.head < nodes.length && nodes[this.head].dropped) this.head++;
    if (this.head > nodes.length) this.head = nodes.length;
    if (this.dropped >= MIN_SWEEP && 2 * this.dropped > nodes.length) this.sweep();
  }

  first(): StreamEntry | undefined {
    return this.range(0n, (1n << 128n) - 1n, false).next().value ?? undefined;
  }

  last(): StreamEntry | undefined {
    return this.range(0n, (1n << 128n) - 1n, true).next().value ?? undefined;
  }

  /** Live entries with start <= id <= end, ascending or (rev) descending. The store must not change during the walk. */
  *range(start: StreamId, end: StreamId, rev: boolean): Generator<StreamEntry, undefined> {
    if (start > end) return undefined;
    if (!rev) {
      let n = Math.max(this.nodeAt(start), this.head);
      let i = n < this.nodes.length ? lowerBound(this.nodes[n].entries, start) : 0;
      for (; n < this.nodes.length; n++, i = 0) {
        const entries = this.nodes[n].entries;
        for (; i < entries.length; i++) {
          const e = entries[i];
          if (e.id > end) return undefined;
          if (!e.deleted) yield e;
        }
      }
    } else {
      let n = this.nodeAt(end);
      if (n < 0) return undefined;
      let i = upperBound(this.nodes[n].entries, end) - 1;
      for (; n >= 0; n--, i = n >= 0 ? this.nodes[n].entries.length - 1 : 0) {
        const entries = this.nodes[n].entries;
        for (; i >= 0; i--) {
          const e = entries[i];
          if (e.id < start) return undefined;
          if (!e.deleted) yield e;
        }
      }
    }
    return undefined;
  }

  /**
   * Removes entries from the head while the stream is longer than `maxlen` (or, with `minid`,
   * while ids are below it), at most `limit` of them (0: no cap). Always exact, as Upstash trims
   * `~` too. A node that goes whole is dropped at once; the rest leave tombstones, as in Redis's
   * streamTrim. `removed` (if given) is told each live entry that goes, in order. Returns how many went.
   */
  trim(by: TrimBy, limit: number, removed?: (id: StreamId) => void): number {
    let deleted = 0;
    let whole = 0; // the nodes that go whole, removed in one splice
    for (; whole < this.nodes.length; whole++) {
      const node = this.nodes[whole];
      if (node.dropped) {
        this.dropped--;
        continue;
      }
      const room = limit > 0 ? limit - deleted : Infinity;
      const removeNode =
        'maxlen' in by ? this.length - node.live >= by.maxlen : node.entries[node.entries.length - 1].id < by.minid;
      if (removeNode && node.live <= room) {
        if (removed !== undefined) for (const e of node.entries) if (!e.deleted) removed(e.id);
        this.length -= node.live;
        deleted += node.live;
        continue;
      }
      let marked = 0;
      for (const e of node.entries) {
        if (marked === room || trimStopsAt(by, this.length, e.id)) break;
        if (!e.deleted) {
          e.deleted = true;
          marked++;
          this.length--;
          removed?.(e.id);
        }
      }
      // The counters are rewritten once, after the entries are marked, as Redis does.
      const tombstones = node.entries.length - node.live;
      recount(node, node.live - marked, tombstones + marked);
      deleted += marked;
      break;
    }
    this.nodes.splice(0, whole);
    this.head = 0;
    return deleted;
  }

  /** Removes the dropped nodes from the list. */
  private sweep(): void {
    this.nodes = this.nodes.filter((n) => !n.dropped);
    this.dropped = 0;
    this.head = 0;
  }

  /** The index of the last node whose master id is <= id; -1 when none. */
  private nodeAt(id: StreamId): number {
    let lo = 0;
    let hi = this.nodes.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.nodes[mid].entries[0].id <= id) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

/** The first index whose id is >= id. */
function lowerBound(entries: readonly StreamEntry[], id: StreamId): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose id is > id. */
function upperBound(entries: readonly StreamEntry[], id: StreamId): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].id <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

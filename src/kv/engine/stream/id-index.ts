// Values keyed by stream id, in id order: a consumer group's or a consumer's pending entries.
// Two parallel arrays sorted by id, searched by bisection. Not a Map: V8 hashes a BigInt by its
// lowest 64 bits, which for an id (ms << 64 | seq) is the sequence number, nearly always 0, so
// every id fell in one bucket and a group's pending list grew quadratically on Node (20k
// entries read by one XREADGROUP took 7 s). Deliveries mostly append in id order (new entries),
// so inserting stays cheap.

import type { StreamId } from './stream-id.js';

export class IdIndex<V> {
  private readonly ids: StreamId[] = [];
  private readonly values: V[] = [];

  get size(): number {
    return this.ids.length;
  }

  get(id: StreamId): V | undefined {
    const i = this.seek(id);
    return this.ids[i] === id ? this.values[i] : undefined;
  }

  has(id: StreamId): boolean {
    return this.ids[this.seek(id)] === id;
  }

  /** Adds or replaces; returns whether the id is new. */
  set(id: StreamId, v: V): boolean {
    const last = this.ids[this.ids.length - 1];
    if (last === undefined || last < id) {
      this.ids.push(id);
      this.values.push(v);
      return true;
    }
    const i = this.seek(id);
    if (this.ids[i] === id) {
      this.values[i] = v;
      return false;
    }
    this.ids.splice(i, 0, id);
    this.values.splice(i, 0, v);
    return true;
  }

  delete(id: StreamId): boolean {
    const i = this.seek(id);
    if (this.ids[i] !== id) return false;
    this.ids.splice(i, 1);
    this.values.splice(i, 1);
    return true;
  }

  /** Every id, ascending. */
  keys(): readonly StreamId[] {
    return this.ids;
  }

  first(): StreamId | undefined {
    return this.ids[0];
  }

  last(): StreamId | undefined {
    return this.ids[this.ids.length - 1];
  }

  /** Entries with start <= id <= end, ascending. A snapshot: the index may change meanwhile. */
  *range(start: StreamId, end: StreamId): Generator<[StreamId, V]> {
    for (let i = this.seek(start); i < this.ids.length; i++) {
      const id = this.ids[i];
      if (id > end) return;
      yield [id, this.values[i]];
      if (this.ids[i] !== id) i = this.seek(id) - 1; // the entry was deleted while we yielded it
    }
  }

  /** The first index whose id is >= id. */
  private seek(id: StreamId): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

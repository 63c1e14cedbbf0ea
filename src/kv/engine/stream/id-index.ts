// Values keyed by stream id, in id order: a consumer group's or a consumer's pending entries.
// A map for lookups and a sorted key array for ordered walks. Deliveries mostly append in id
// order (new entries), so inserting stays cheap; seeking is a binary search.

import type { StreamId } from './stream-id.js';

export class IdIndex<V> {
  private readonly byId = new Map<StreamId, V>();
  private readonly ids: StreamId[] = [];

  get size(): number {
    return this.ids.length;
  }

  get(id: StreamId): V | undefined {
    return this.byId.get(id);
  }

  has(id: StreamId): boolean {
    return this.byId.has(id);
  }

  /** Adds or replaces; returns whether the id is new. */
  set(id: StreamId, v: V): boolean {
    const fresh = !this.byId.has(id);
    this.byId.set(id, v);
    if (fresh) {
      const last = this.ids[this.ids.length - 1];
      if (last === undefined || last < id) this.ids.push(id);
      else this.ids.splice(this.seek(id), 0, id);
    }
    return fresh;
  }

  delete(id: StreamId): boolean {
    if (!this.byId.delete(id)) return false;
    this.ids.splice(this.seek(id), 1);
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
      const v = this.byId.get(id);
      if (v !== undefined) yield [id, v];
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

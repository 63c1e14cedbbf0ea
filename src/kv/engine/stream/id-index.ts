// Values keyed by stream id, in id order: a consumer group's or a consumer's pending entries.
// Two parallel arrays sorted by id, searched by bisection. Not a Map: V8 hashes a BigInt by its
// lowest 64 bits, which for an id (ms << 64 | seq) is the sequence number, nearly always 0, so
// every id fell in one bucket and a group's pending list grew quadratically on Node (20k
// entries read by one XREADGROUP took 7 s). Deliveries mostly append in id order (new entries),
// so inserting stays cheap. A deleted entry stays as a tombstone until the tombstones outnumber
// the live entries, when they are swept out in one pass: removing one by splicing moved every
// later entry (an XACK of 130k ids took 34 s on Node).

import type { StreamId } from './stream-id.js';

const GONE: unique symbol = Symbol('deleted');

/** Tombstones below this many are never swept, so a small index is not rewritten on every delete. */
const MIN_SWEEP = 64;

export class IdIndex<V> {
  private readonly ids: StreamId[] = [];
  private readonly values: (V | typeof GONE)[] = [];
  private live = 0;
  /** The first live entry's index (ids.length when there is none): tombstones may lead. */
  private head = 0;

  get size(): number {
    return this.live;
  }

  get(id: StreamId): V | undefined {
    const i = this.seek(id);
    const v = this.values[i];
    return this.ids[i] === id && v !== GONE ? v : undefined;
  }

  has(id: StreamId): boolean {
    const i = this.seek(id);
    return this.ids[i] === id && this.values[i] !== GONE;
  }

  /** Adds or replaces; returns whether the id is new. */
  set(id: StreamId, v: V): boolean {
    const n = this.ids.length;
    if (n === 0 || this.ids[n - 1] < id) {
      this.ids.push(id);
      this.values.push(v);
    } else {
      const i = this.seek(id);
      if (this.ids[i] === id) {
        const was = this.values[i];
        this.values[i] = v;
        if (was !== GONE) return false;
      } else {
        this.ids.splice(i, 0, id);
        this.values.splice(i, 0, v);
      }
      if (i < this.head) this.head = i;
    }
    this.live++;
    return true;
  }

  delete(id: StreamId): boolean {
    const i = this.seek(id);
    if (this.ids[i] !== id || this.values[i] === GONE) return false;
    this.values[i] = GONE;
    if (--this.live === 0) {
      this.ids.length = 0;
      this.values.length = 0;
      this.head = 0;
      return true;
    }
    // Live entries remain, so both walks stop at one.
    while (this.values[this.values.length - 1] === GONE) {
      this.ids.pop();
      this.values.pop();
    }
    while (this.values[this.head] === GONE) this.head++;
    const dead = this.ids.length - this.live;
    if (dead >= MIN_SWEEP && dead > this.live) this.sweep();
    return true;
  }

  /** Every id, ascending. */
  keys(): readonly StreamId[] {
    if (this.ids.length > this.live) this.sweep();
    return this.ids;
  }

  first(): StreamId | undefined {
    return this.live === 0 ? undefined : this.ids[this.head];
  }

  last(): StreamId | undefined {
    return this.ids[this.ids.length - 1];
  }

  /** Entries with start <= id <= end, ascending. A snapshot: the index may change meanwhile. */
  *range(start: StreamId, end: StreamId): Generator<[StreamId, V]> {
    for (let i = this.seek(start); i < this.ids.length; i++) {
      const id = this.ids[i];
      if (id > end) return;
      const v = this.values[i];
      if (v === GONE) continue;
      yield [id, v];
      // Entries moved while we yielded (a sweep, an insertion before): go on after this id.
      if (this.ids[i] !== id) i = this.seekAbove(id) - 1;
    }
  }

  /** Drops the tombstones. */
  private sweep(): void {
    let n = 0;
    for (let i = 0; i < this.ids.length; i++) {
      const v = this.values[i];
      if (v === GONE) continue;
      this.ids[n] = this.ids[i];
      this.values[n++] = v;
    }
    this.ids.length = n;
    this.values.length = n;
    this.head = 0;
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

  /** The first index whose id is > id. */
  private seekAbove(id: StreamId): number {
    const i = this.seek(id);
    return this.ids[i] === id ? i + 1 : i;
  }
}

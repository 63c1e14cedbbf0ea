// Values keyed by stream id, in id order: a consumer group's or a consumer's pending entries.
// Not a Map: V8 hashes a BigInt by its lowest 64 bits, which for an id (ms << 64 | seq) is the
// sequence number, nearly always 0, so every id fell in one bucket and a group's pending list
// grew quadratically on Node. Not one sorted array either: inserting or removing shifts every
// later entry (an XACK of 130k ids took 34 s, an XCLAIM of ids in descending order as long). A
// list of sorted blocks of at most BLOCK entries each: a change shifts one block, and a block
// split, emptied or merged shifts the list of blocks.

import type { StreamId } from './stream-id.js';

const BLOCK = 512;

interface Block<V> {
  readonly ids: StreamId[];
  readonly values: V[];
}

export class IdIndex<V> {
  /** Non-empty blocks, in id order. */
  private readonly blocks: Block<V>[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: StreamId): V | undefined {
    const b = this.blocks[this.blockOf(id)];
    if (b === undefined) return undefined;
    const i = seek(b.ids, id);
    return b.ids[i] === id ? b.values[i] : undefined;
  }

  has(id: StreamId): boolean {
    const b = this.blocks[this.blockOf(id)];
    return b !== undefined && b.ids[seek(b.ids, id)] === id;
  }

  /** Adds or replaces; returns whether the id is new. */
  set(id: StreamId, v: V): boolean {
    const last = this.blocks[this.blocks.length - 1];
    if (last === undefined || last.ids[last.ids.length - 1] < id) {
      // Deliveries come in id order: fill the last block, then open the next.
      if (last === undefined || last.ids.length === BLOCK) this.blocks.push({ ids: [id], values: [v] });
      else {
        last.ids.push(id);
        last.values.push(v);
      }
      this.count++;
      return true;
    }
    const at = this.blockOf(id);
    const b = this.blocks[at];
    const i = seek(b.ids, id);
    if (b.ids[i] === id) {
      b.values[i] = v;
      return false;
    }
    b.ids.splice(i, 0, id);
    b.values.splice(i, 0, v);
    this.count++;
    if (b.ids.length > BLOCK) {
      const half = b.ids.length >> 1;
      this.blocks.splice(at + 1, 0, { ids: b.ids.splice(half), values: b.values.splice(half) });
    }
    return true;
  }

  delete(id: StreamId): boolean {
    const at = this.blockOf(id);
    const b = this.blocks[at];
    if (b === undefined) return false;
    const i = seek(b.ids, id);
    if (b.ids[i] !== id) return false;
    b.ids.splice(i, 1);
    b.values.splice(i, 1);
    this.count--;
    if (b.ids.length === 0) this.blocks.splice(at, 1);
    else {
      // A block a quarter full joins the next when both fit in one, so blocks stay few.
      const next = this.blocks[at + 1];
      if (b.ids.length < BLOCK / 4 && next !== undefined && b.ids.length + next.ids.length <= BLOCK) {
        b.ids.push(...next.ids);
        b.values.push(...next.values);
        this.blocks.splice(at + 1, 1);
      }
    }
    return true;
  }

  /** Every id, ascending. */
  keys(): StreamId[] {
    return this.blocks.flatMap((b) => b.ids);
  }

  first(): StreamId | undefined {
    return this.blocks[0]?.ids[0];
  }

  last(): StreamId | undefined {
    const b = this.blocks[this.blocks.length - 1];
    return b?.ids[b.ids.length - 1];
  }

  /** Entries with start <= id <= end, ascending. The index may change between steps: each goes on after the id it yielded. */
  *range(start: StreamId, end: StreamId): Generator<[StreamId, V]> {
    let at = this.blockOf(start);
    let b = this.blocks[at];
    if (b === undefined) return;
    let i = seek(b.ids, start);
    for (;;) {
      if (i === b.ids.length) {
        b = this.blocks[++at];
        if (b === undefined) return;
        i = 0;
      }
      const id = b.ids[i];
      if (id > end) return;
      yield [id, b.values[i]];
      if (this.blocks[at] === b && b.ids[i] === id) i++;
      else {
        at = this.blockOf(id);
        b = this.blocks[at];
        if (b === undefined) return;
        i = seek(b.ids, id);
        if (b.ids[i] === id) i++;
      }
    }
  }

  /** The block that holds or would hold `id`: the last whose first id is <= id, else the first. */
  private blockOf(id: StreamId): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.blocks[mid].ids[0] <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : lo - 1;
  }
}

/** The first index whose id is >= id. */
function seek(ids: readonly StreamId[], id: StreamId): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

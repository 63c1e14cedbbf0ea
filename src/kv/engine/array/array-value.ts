// A key holding an array (Upstash's AR* commands): string values at unsigned 64-bit indexes
// 0..2^64-2, sparse (an index holds a value or nothing; nothing shifts), with an append cursor
// (the index the next ARINSERT or ARRING writes) that only appends and ARSEEK move, and the
// ring size ARRING last stated. Indexes are bigints; the order tree keeps their 16-digit hex
// keys, whose string order is their numeric order, for ranges in either direction.
// Serialized (DUMP, snapshots) as the cursor, the ring size and each index with its value.
// Not safe for concurrent use, and needs none.

import { OrderTree } from '../../../collections/order-tree.js';
import { ROBJ, sdsSize } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';

/** The highest index an array may use. */
export const MAX_INDEX = 2n ** 64n - 2n;

const keyOf = (index: bigint): string => index.toString(16).padStart(16, '0');
const indexOf = (key: string): bigint => BigInt(`0x${key}`);

export class ArrayValue implements Container {
  private readonly values = new Map<string, string>();
  private readonly order = new OrderTree();
  /** Where the next append writes (0 before any); past MAX_INDEX once the last index is taken. */
  next = 0n;
  /** The size ARRING last stated; 0 when no ARRING did. */
  ringSize = 0n;

  get kind(): ContainerKind {
    return ARRAY_KIND;
  }

  get count(): number {
    return this.values.size;
  }

  /** The highest index holding a value, plus one (0 when empty). */
  get length(): bigint {
    const last = this.order.last();
    return last === null ? 0n : indexOf(last.member) + 1n;
  }

  get(index: bigint): string | undefined {
    return this.values.get(keyOf(index));
  }

  /** Stores `value` at `index`; true when the slot was empty. */
  set(index: bigint, value: string): boolean {
    const key = keyOf(index);
    const added = !this.values.has(key);
    this.values.set(key, value);
    if (added) this.order.insert(0, key);
    return added;
  }

  /** Empties `index`; true when it held a value. */
  delete(index: bigint): boolean {
    const key = keyOf(index);
    if (!this.values.delete(key)) return false;
    this.order.delete(0, key);
    return true;
  }

  clear(): void {
    for (const key of [...this.values.keys()]) this.delete(indexOf(key));
  }

  /** Calls `visit` for each held index from `from` to `to` inclusive, ascending, until it returns false. */
  scan(from: bigint, to: bigint, visit: (index: bigint, value: string) => boolean): void {
    const first = keyOf(from);
    const last = keyOf(to);
    for (let c = this.order.firstAfter((_, m) => m < first); c !== null && c.member <= last; c = c.next()) {
      if (!visit(indexOf(c.member), this.values.get(c.member)!)) return;
    }
  }

  /**
   * The held indexes with their values walking back from `start` (inclusive) to 0, then from
   * the highest index down to just past `start`: the most recent writes first when `start` is
   * the last append.
   */
  *backFrom(start: bigint): IterableIterator<[bigint, string]> {
    const at = keyOf(start);
    for (let c = this.order.lastBefore((_, m) => m <= at); c !== null; c = c.prev()) yield [indexOf(c.member), this.values.get(c.member)!];
    for (let c = this.order.last(); c !== null && c.member > at; c = c.prev()) yield [indexOf(c.member), this.values.get(c.member)!];
  }

  /** Each held index with its value, ascending. */
  *entries(): IterableIterator<[bigint, string]> {
    for (let c = this.order.first(); c !== null; c = c.next()) yield [indexOf(c.member), this.values.get(c.member)!];
  }

  /** How many slices of `sliceSize` indexes hold a value, and how many values each holds. */
  sliceCounts(sliceSize: bigint): Map<bigint, number> {
    const slices = new Map<bigint, number>();
    for (const [index] of this.entries()) {
      const slice = index / sliceSize;
      slices.set(slice, (slices.get(slice) ?? 0) + 1);
    }
    return slices;
  }
}

/** "next ring count\n", then per value its index in 16 hex digits, its length, ':' and its bytes. */
function encode(v: ArrayValue): string {
  const parts = [`${v.next} ${v.ringSize} ${v.count}\n`];
  for (const [index, value] of v.entries()) parts.push(keyOf(index), `${value.length}:`, value);
  return parts.join('');
}

function decode(bytes: string): ArrayValue | null {
  const header = /^(\d+) (\d+) (\d+)\n/.exec(bytes);
  if (header === null) return null;
  const value = new ArrayValue();
  value.next = BigInt(header[1]);
  value.ringSize = BigInt(header[2]);
  let at = header[0].length;
  for (let left = Number(header[3]); left > 0; left--) {
    const key = bytes.slice(at, at + 16);
    const colon = bytes.indexOf(':', at + 16);
    const length = Number(bytes.slice(at + 16, colon));
    if (!/^[0-9a-f]{16}$/.test(key) || colon === -1 || !Number.isSafeInteger(length) || colon + 1 + length > bytes.length) return null;
    value.set(indexOf(key), bytes.slice(colon + 1, colon + 1 + length));
    at = colon + 1 + length;
  }
  return at === bytes.length && value.next <= MAX_INDEX + 1n ? value : null;
}

export const ARRAY_KIND: ContainerKind = registerKind({
  type: 'array',
  tag: 8,
  clone(v) {
    const source = v as ArrayValue;
    const copy = new ArrayValue();
    for (const [index, value] of source.entries()) copy.set(index, value);
    copy.next = source.next;
    copy.ringSize = source.ringSize;
    return copy;
  },
  encode: (v) => encode(v as ArrayValue),
  decode,
  encoding: () => 'raw',
  // Redis 7.0 has no such type: each value counts as a string, its index as a 16-byte key.
  memoryUsage(v) {
    let bytes = ROBJ;
    for (const [, value] of (v as ArrayValue).entries()) bytes += sdsSize(value.length) + sdsSize(16);
    return bytes;
  },
});

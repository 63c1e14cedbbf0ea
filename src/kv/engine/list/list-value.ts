// The list value kind (TYPE "list", tag 2): a deque of byte strings. Serialized as
//   [u32 count] then per element [u32 length][bytes]      (little endian)
// An empty list is never stored (its key is deleted), so a count of 0 is not a valid encoding.

import { LISTPACK_OVERHEAD, stringSize } from '../listpack-size.js';
import { jemallocSize, ROBJ, sampled } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';
import { Deque } from './deque.js';

export class ListValue extends Deque<string> implements Container {
  get kind(): ContainerKind {
    return LIST;
  }
}

export const LIST: ContainerKind = registerKind({
  type: 'list',
  tag: 2,
  clone: (v) => new ListValue((v as ListValue).toArray()),
  encode: (v) => encodeList(v as ListValue),
  decode: decodeList,
  // Redis 7.0 keeps every list in a quicklist, whatever its size.
  encoding: () => 'quicklist',
  memoryUsage: (v, samples) => listMemory(v as ListValue, samples),
});

/** sizeof(quicklist) and sizeof(quicklistNode). */
const QUICKLIST = 40;
const QUICKLIST_NODE = 40;
/** list-max-listpack-size -2: a node's listpack stays within 8 KiB. */
const NODE_MAX_BYTES = 8192;
/** What Redis adds to an element's length when it checks whether a node can take it (SIZE_ESTIMATE_OVERHEAD). */
const SIZE_ESTIMATE_OVERHEAD = 8;

/**
 * Redis 7.0's size of a list: a quicklist whose nodes each hold a listpack of up to 8 KiB.
 * Nodes are filled in order, as RPUSH fills them; a list built otherwise splits a little
 * differently in Redis.
 */
function listMemory(list: ListValue, samples: number): number {
  const nodes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < list.length; i++) {
    const item = list.at(i);
    if (bytes === 0 || bytes + item.length + SIZE_ESTIMATE_OVERHEAD > NODE_MAX_BYTES) {
      if (bytes > 0) nodes.push(bytes);
      bytes = LISTPACK_OVERHEAD;
    }
    bytes += stringSize(item);
  }
  nodes.push(bytes);
  return ROBJ + QUICKLIST + sampled(nodes, nodes.length, samples, (b) => QUICKLIST_NODE + jemallocSize(b));
}

function encodeList(list: ListValue): string {
  let size = 4;
  for (let i = 0; i < list.length; i++) size += 4 + list.at(i).length;
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt32LE(list.length, 0);
  for (let i = 0; i < list.length; i++) {
    const item = list.at(i);
    at = out.writeUInt32LE(item.length, at);
    at += out.write(item, at, 'latin1');
  }
  return out.toString('latin1');
}

function decodeList(bytes: string): ListValue | null {
  let at = 0;
  const u32 = (): number => {
    if (at + 4 > bytes.length) return -1;
    const n =
      (bytes.charCodeAt(at) | (bytes.charCodeAt(at + 1) << 8) | (bytes.charCodeAt(at + 2) << 16) | (bytes.charCodeAt(at + 3) << 24)) >>> 0;
    at += 4;
    return n;
  };
  const count = u32();
  // Each element takes at least its 4-byte length: a larger count cannot be genuine.
  if (count <= 0 || count > (bytes.length - 4) / 4) return null;
  const items = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const len = u32();
    if (len < 0 || at + len > bytes.length) return null;
    items[i] = bytes.slice(at, at + len);
    at += len;
  }
  return at === bytes.length ? new ListValue(items) : null;
}

// Redis 7.0's MEMORY USAGE of a stream (objectComputeSize, streamRadixTreeMemoryUsage): the
// stream struct, its radix tree of nodes, the nodes' listpacks and the consumer groups' PELs.
// Redis sizes a radix tree from its element and node counts; the node count follows from the
// ids (a compressed radix tree over 16-byte big-endian keys), so it is computed here exactly.

import { NODE_MAX_BYTES } from '../listpack-size.js';
import { jemallocSize, ROBJ } from '../redis-memory.js';
import type { StreamId } from './stream-id.js';
import type { StreamValue } from './stream-value.js';

/** sizeof(stream). */
const STREAM = 80;
/** sizeof(streamCG), sizeof(streamConsumer), sizeof(streamNACK). */
const GROUP = 40;
const CONSUMER = 24;
const NACK = 24;
/** A stream id as a radix-tree key: 128 bits, big-endian. */
const KEY_BYTES = 16;

export function streamMemory(s: StreamValue, samples: number): number {
  const nodes = [...s.store.nodeLayout()];
  let size = ROBJ + STREAM + radixTreeMemory(nodes.map((n) => n.masterId));
  // The open (last) node keeps the 4 KiB Redis preallocates for it; the others are shrunk to
  // fit when the next one opens. Redis averages the first nodes when there are more than
  // `samples`, and adds the last one as it is.
  const allocated = nodes.map((n, i) => (i === nodes.length - 1 ? Math.max(NODE_MAX_BYTES, jemallocSize(n.bytes)) : jemallocSize(n.bytes)));
  if (samples === 0 || nodes.length <= samples) size += allocated.reduce((sum, n) => sum + n, 0);
  else {
    const average = Math.floor(allocated.slice(0, samples).reduce((sum, n) => sum + n, 0) / samples);
    size += average * (nodes.length - 1) + allocated[nodes.length - 1];
  }
  for (const g of s.groups.values()) {
    size += GROUP + radixTreeMemory(g.pel.keys()) + NACK * g.pel.size;
    for (const c of g.consumers.values()) size += CONSUMER + c.name.length + radixTreeMemory(c.pel.keys());
  }
  return size;
}

/** Redis's streamRadixTreeMemoryUsage: 16 bytes an element, 4 + 240 a node. */
function radixTreeMemory(ids: readonly StreamId[]): number {
  return ids.length * KEY_BYTES + radixNodes(ids, 0) * (4 + 8 * 30);
}

/**
 * The nodes of Redis's rax holding `ids` (ascending, all of KEY_BYTES bytes) below byte
 * `depth`: a shared run of bytes is one compressed node, a byte where keys part is one branch
 * node, and each key ends in a node of its own. An empty tree is its root.
 */
function radixNodes(ids: readonly StreamId[], depth: number): number {
  if (ids.length === 0) return 1;
  if (depth === KEY_BYTES) return 1;
  if (ids.length === 1) return 2;
  let split = depth;
  while (split < KEY_BYTES && byteAt(ids[0], split) === byteAt(ids[ids.length - 1], split)) split++;
  const prefix = split > depth ? 1 : 0;
  let count = prefix + 1;
  let from = 0;
  for (let i = 1; i <= ids.length; i++) {
    if (i === ids.length || byteAt(ids[i], split) !== byteAt(ids[from], split)) {
      count += radixNodes(ids.slice(from, i), split + 1);
      from = i;
    }
  }
  return count;
}

function byteAt(id: StreamId, depth: number): number {
  return Number((id >> BigInt(8 * (KEY_BYTES - 1 - depth))) & 0xffn);
}

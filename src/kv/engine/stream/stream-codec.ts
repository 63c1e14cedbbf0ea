// The serialized form of a stream (DUMP payloads and snapshots), as a byte string. Ids are
// 16 big-endian bytes, counts u32 little-endian, numbers and byte strings length-prefixed:
//   [id lastId][id maxDeletedId][num entriesAdded]
//   [u32 nodes] per node: [u32 entries] per entry: [id][u8 deleted][u32 n][n x str field|value]
//   [u32 groups] per group: [str name][id lastId][num entriesRead]
//     [u32 consumers] per consumer: [str name][num seenTime]
//       [u32 pending] per pending entry: [id][num deliveryTime][num deliveryCount]
// Tombstones are kept so node boundaries (and so approximate trimming) survive a restart. A
// group's PEL is the union of its consumers' PELs.

import { ConsumerGroup, type Nack } from './consumer-group.js';
import type { StreamEntry } from './entry-store.js';
import { idBytes, idFromBytes, MAX_ID, type StreamId } from './stream-id.js';
import type { StreamValue } from './stream-value.js';

export function encodeStream(s: StreamValue): string {
  const out: string[] = [idBytes(s.lastId), idBytes(s.maxDeletedId), big(s.entriesAdded)];
  const nodes = [...s.store.rawNodes()];
  out.push(u32(nodes.length));
  for (const entries of nodes) {
    out.push(u32(entries.length));
    for (const e of entries) {
      out.push(idBytes(e.id), e.deleted ? '\x01' : '\x00', u32(e.fields.length));
      for (const f of e.fields) out.push(str(f));
    }
  }
  out.push(u32(s.groups.size));
  for (const g of s.groups.values()) {
    out.push(str(g.name), idBytes(g.lastId), big(g.entriesRead), u32(g.consumers.size));
    for (const c of g.consumers.values()) {
      out.push(str(c.name), num(c.seenTime), u32(c.pel.size));
      for (const [id, n] of c.pel.range(0n, MAX_ID)) out.push(idBytes(id), num(n.deliveryTime), num(n.deliveryCount));
    }
  }
  return out.join('');
}

class Malformed extends Error {}

/** The stream in `bytes`, or null when they are not an encoding of one. */
export function decodeStream(bytes: string, create: () => StreamValue): StreamValue | null {
  let at = 0;
  const take = (n: number): string => {
    if (n < 0 || at + n > bytes.length) throw new Malformed();
    at += n;
    return bytes.slice(at - n, at);
  };
  const readU32 = (): number => {
    const s = take(4);
    return (s.charCodeAt(0) | (s.charCodeAt(1) << 8) | (s.charCodeAt(2) << 16) | (s.charCodeAt(3) << 24)) >>> 0;
  };
  const readId = (): StreamId => idFromBytes(take(16), 0);
  const readStr = (): string => take(readU32());
  const readNum = (): number => {
    const n = Number(readStr());
    if (!Number.isSafeInteger(n)) throw new Malformed();
    return n;
  };
  const readBig = (): bigint => {
    const text = readStr();
    if (!/^-?\d{1,19}$/.test(text)) throw new Malformed();
    return BigInt(text);
  };
  // Every count is checked against the bytes left, so a corrupt count cannot make us loop.
  const readCount = (minBytes: number): number => {
    const n = readU32();
    if (n * minBytes > bytes.length - at) throw new Malformed();
    return n;
  };
  try {
    const s = create();
    s.lastId = readId();
    s.maxDeletedId = readId();
    s.entriesAdded = readBig();
    const nodes = readCount(4);
    let prev = -1n;
    for (let i = 0; i < nodes; i++) {
      const entries: StreamEntry[] = [];
      const count = readCount(21);
      for (let j = 0; j < count; j++) {
        const id = readId();
        if (id <= prev || id > s.lastId) throw new Malformed();
        prev = id;
        const deleted = take(1);
        if (deleted !== '\x00' && deleted !== '\x01') throw new Malformed();
        const fields: string[] = [];
        const n = readCount(4);
        for (let k = 0; k < n; k++) fields.push(readStr());
        entries.push({ id, fields, deleted: deleted === '\x01' });
      }
      s.store.restoreNode(entries);
    }
    const groups = readCount(4);
    for (let i = 0; i < groups; i++) {
      const g = new ConsumerGroup(readStr(), readId(), readBig());
      if (s.groups.has(g.name)) throw new Malformed();
      s.groups.set(g.name, g);
      const consumers = readCount(8);
      for (let j = 0; j < consumers; j++) {
        const name = readStr();
        if (g.consumers.has(name)) throw new Malformed();
        const c = g.consumer(name, readNum());
        const pending = readCount(24);
        for (let k = 0; k < pending; k++) {
          const id = readId();
          const nack: Nack = { consumer: c, deliveryTime: readNum(), deliveryCount: readNum() };
          if (!g.pel.set(id, nack)) throw new Malformed();
          c.pel.set(id, nack);
        }
      }
    }
    return at === bytes.length ? s : null;
  } catch (e) {
    if (e instanceof Malformed) return null;
    throw e;
  }
}

function num(n: number): string {
  return str(String(n));
}

function big(n: bigint): string {
  return str(String(n));
}

function str(s: string): string {
  return u32(s.length) + s;
}

function u32(n: number): string {
  return String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

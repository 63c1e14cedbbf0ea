// The stream value on its own: the entry store against a plain sorted array (seeks, ranges
// both ways, deletions, exact trims), the node layout approximate trims rely on, the pending
// index, and the serialized form (never thrown on, whatever the bytes).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConsumerGroup } from '../../../src/kv/engine/stream/consumer-group.js';
import { EntryStore } from '../../../src/kv/engine/stream/entry-store.js';
import { IdIndex } from '../../../src/kv/engine/stream/id-index.js';
import { decodeStream, encodeStream } from '../../../src/kv/engine/stream/stream-codec.js';
import { formatId, MAX_ID, parseU64 } from '../../../src/kv/engine/stream/stream-id.js';
import { STREAM_KIND, StreamValue } from '../../../src/kv/engine/stream/stream-value.js';
import { Rng } from '../differential/prng.js';

describe('stream value', () => {
  it('answers seeks and ranges like a sorted array through appends, deletions and trims', () => {
    const rng = new Rng(11);
    const store = new EntryStore();
    let reference: bigint[] = [];
    let next = 1n;
    for (let step = 0; step < 4000; step++) {
      const r = rng.next();
      if (r < 0.6) {
        next += BigInt(rng.int(1, 3));
        store.append(next, ['f', String(next)]);
        reference.push(next);
      } else if (r < 0.8) {
        const id = BigInt(rng.int(0, Number(next) + 2));
        assert.equal(store.delete(id), reference.includes(id));
        reference = reference.filter((x) => x !== id);
      } else if (r < 0.82) {
        const maxlen = rng.int(0, reference.length);
        store.trim({ maxlen }, 0);
        reference = reference.slice(reference.length - maxlen);
      } else {
        const a = BigInt(rng.int(0, Number(next) + 2));
        const b = BigInt(rng.int(0, Number(next) + 2));
        const rev = rng.chance(0.5);
        const want = reference.filter((x) => x >= a && x <= b);
        assert.deepEqual([...store.range(a, b, rev)].map((e) => e.id), rev ? want.reverse() : want);
      }
      assert.equal(store.length, reference.length);
    }
  });

  it('fills nodes of 100 entries, tombstones included, and trims exactly, LIMIT capping it', () => {
    const store = new EntryStore();
    for (let i = 1n; i <= 250n; i++) store.append(i, ['n', String(i)]);
    assert.equal(store.nodeCount, 3);
    for (let i = 1n; i <= 99n; i++) store.delete(i);
    assert.equal(store.nodeCount, 3, 'a node goes only with its last live entry');
    store.delete(100n);
    assert.equal(store.nodeCount, 2);
    assert.equal(store.trim({ maxlen: 120 }, 0), 30, 'within a node: tombstones');
    assert.equal(store.nodeCount, 2);
    assert.equal(store.trim({ maxlen: 50 }, 0), 70, 'a whole node at once');
    assert.equal(store.nodeCount, 1);
    assert.equal(store.trim({ maxlen: 0 }, 5), 5);
    assert.equal(store.trim({ minid: 260n }, 0), 45);
    assert.equal(store.length, 0);
  });

  it("starts a new node where Redis's listpack would pass 4096 bytes", () => {
    // redis-server 7.0: 40 entries of a 200-byte value make 3 nodes (radix-tree-keys 3).
    const store = new EntryStore();
    for (let i = 1n; i <= 40n; i++) store.append(i << 64n, ['f', 'x'.repeat(200)]);
    assert.equal(store.nodeCount, 3);
  });

  it('drops nodes emptied by deletions anywhere, in time linear in them', { timeout: 10_000 }, () => {
    // Entries over 4 KB get a node each; removing each node from the list at once shifted all
    // those after it (an XDEL of 50k such entries took seconds on Node).
    const N = 300_000;
    const big = 'y'.repeat(4100);
    const rng = new Rng(5);
    const store = new EntryStore();
    for (let i = 1; i <= N; i++) store.append(BigInt(i) << 64n, ['f', big]);
    assert.equal(store.nodeCount, N);
    const live = new Set(Array.from({ length: N }, (_, i) => i + 1));
    const order = [...rng.shuffle([...live].slice(1000, N - 1000)), ...Array.from({ length: 900 }, (_, i) => i + 1), ...Array.from({ length: 900 }, (_, i) => N - i)];
    for (const [k, i] of order.entries()) {
      assert.equal(store.delete(BigInt(i) << 64n), true);
      live.delete(i);
      if (k % 100_000 === 0 || k === order.length - 1) {
        const ids = [...live].sort((a, b) => a - b);
        assert.deepEqual([store.length, store.nodeCount], [ids.length, ids.length]);
        assert.equal(store.first()?.id, BigInt(ids[0]) << 64n);
        assert.equal(store.last()?.id, BigInt(ids[ids.length - 1]) << 64n);
        assert.deepEqual([...store.range(0n, MAX_ID, false)].map((e) => Number(e.id >> 64n)), ids);
        assert.deepEqual([...store.nodeLayout()].map((n) => Number(n.masterId >> 64n)), ids);
      }
    }
    store.append(BigInt(N + 1) << 64n, ['f', big]);
    assert.equal(store.trim({ maxlen: 0 }, 0), 201);
    assert.deepEqual([store.length, store.nodeCount, store.first()], [0, 0, undefined]);
  });

  it('keeps pending ids in order and survives deletion while walking', () => {
    const pel = new IdIndex<string>();
    for (const id of [5n, 1n, 3n, 9n, 7n]) pel.set(id, `v${id}`);
    const seen: bigint[] = [];
    for (const [id] of pel.range(2n, 8n)) {
      seen.push(id);
      pel.delete(id);
    }
    assert.deepEqual(seen, [3n, 5n, 7n]);
    assert.deepEqual([...pel.range(0n, MAX_ID)].map(([id]) => id), [1n, 9n]);
  });

  it('agrees with a sorted map through random additions, deletions and walks that change it', () => {
    // Insertions out of order (XCLAIM of ids in descending order) that split blocks, deletions
    // from the front (XACK in order) and anywhere that empty and merge them, and walks that
    // delete, replace and insert behind themselves as XAUTOCLAIM and XCLAIM do.
    const SPAN = 20_000;
    const rng = new Rng(7);
    const pel = new IdIndex<number>();
    const model = new Map<bigint, number>();
    const sorted = () => [...model.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (let round = 0; round < 400; round++) {
      const op = rng.int(0, 9);
      if (op < 4) {
        for (let k = rng.int(1, 1500); k > 0; k--) {
          const id = BigInt(rng.int(0, SPAN));
          assert.equal(pel.set(id, round), !model.has(id));
          model.set(id, round);
        }
      } else if (op < 7) {
        const ids = sorted();
        for (const id of ids.slice(0, rng.int(0, ids.length >> 2))) assert.equal(pel.delete(id), model.delete(id));
        for (let k = rng.int(0, 1500); k > 0; k--) {
          const id = BigInt(rng.int(0, SPAN));
          assert.equal(pel.delete(id), model.delete(id));
        }
      } else {
        const [lo, hi] = [BigInt(rng.int(0, SPAN)), BigInt(rng.int(0, SPAN))];
        const expected = sorted().filter((id) => id >= lo && id <= hi);
        const seen: bigint[] = [];
        for (const [id, v] of pel.range(lo, hi)) {
          assert.equal(v, model.get(id));
          seen.push(id);
          const act = rng.int(0, 3);
          if (act === 0) assert.equal(pel.delete(id), model.delete(id));
          else if (act === 1 && id > 0n && !model.has(id - 1n)) {
            pel.set(id - 1n, -1); // behind the walk: not seen by it
            model.set(id - 1n, -1);
          }
        }
        assert.deepEqual(seen, expected);
      }
      const ids = sorted();
      assert.equal(pel.size, model.size);
      assert.equal(pel.first(), ids[0]);
      assert.equal(pel.last(), ids[ids.length - 1]);
      for (let k = 0; k < 5; k++) {
        const id = BigInt(rng.int(0, SPAN));
        assert.equal(pel.get(id), model.get(id));
        assert.equal(pel.has(id), model.has(id));
      }
    }
    assert.deepEqual(pel.keys(), sorted());
    // Delivered in order and acknowledged in order: full blocks, each emptied in turn.
    const acked = new IdIndex<number>();
    for (let id = 1n; id <= 3000n; id++) acked.set(id, 0);
    for (let id = 1n; id <= 2999n; id++) assert.equal(acked.delete(id), true);
    assert.deepEqual([acked.size, acked.first(), acked.last(), acked.keys()], [1, 3000n, 3000n, [3000n]]);
  });

  it("reads ids as Redis's string2ull does", () => {
    assert.equal(parseU64('18446744073709551615'), 18446744073709551615n);
    assert.equal(parseU64('18446744073709551616'), undefined);
    assert.equal(parseU64('-1'), undefined);
    assert.equal(parseU64('-0'), 0n);
    assert.equal(parseU64(' +05'), 5n);
    assert.equal(parseU64('5\x00junk'), 5n);
    assert.equal(parseU64(''), undefined);
  });

  it('round-trips through its encoding and decodes any damaged bytes to null', () => {
    const s = new StreamValue();
    for (let i = 1n; i <= 150n; i++) s.append((i << 64n) | 1n, ['f\x00', 'v\xff']);
    s.delete((3n << 64n) | 1n);
    const g = new ConsumerGroup('g', (20n << 64n) | 1n, 20n);
    s.groups.set('g', g);
    const c = g.consumer('alice', 1000);
    const nack = { consumer: c, deliveryTime: 1234, deliveryCount: 2 };
    g.pel.set((5n << 64n) | 1n, nack);
    c.pel.set((5n << 64n) | 1n, nack);
    const bytes = encodeStream(s);
    const back = STREAM_KIND.decode(bytes) as StreamValue;
    assert.equal(encodeStream(back), bytes);
    assert.equal(back.length, 149);
    assert.equal(formatId(back.groups.get('g')!.pel.first()!), '5-1');
    const rng = new Rng(3);
    for (let i = 0; i < 300; i++) {
      const cut = bytes.slice(0, rng.int(0, bytes.length - 1));
      assert.equal(decodeStream(cut, () => new StreamValue()), null);
      const at = rng.int(0, bytes.length - 1);
      const flipped = bytes.slice(0, at) + String.fromCharCode(rng.int(0, 255)) + bytes.slice(at + 1);
      decodeStream(flipped, () => new StreamValue()); // must not throw
    }
  });
});

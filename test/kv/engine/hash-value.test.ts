// The hash value on its own: the expiry heap against a plain reference, the serialized form
// (never thrown on, whatever the bytes), and the scan and expiry walks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFields, encodeFields } from '../../../src/kv/engine/hash/hash-codec.js';
import { HASH_KIND, HashValue } from '../../../src/kv/engine/hash/hash-value.js';
import { Rng } from '../differential/prng.js';

describe('hash value', () => {
  it('keeps the earliest field expiry on top through sets, updates, persists and deletes', () => {
    const rng = new Rng(7);
    const h = new HashValue();
    const reference = new Map<string, number>();
    for (let step = 0; step < 5000; step++) {
      const name = `f${rng.int(0, 60)}`;
      const r = rng.next();
      if (r < 0.3) {
        const keepTtl = rng.chance(0.5);
        h.set(name, 'v', keepTtl);
        if (!reference.has(name) || !keepTtl) reference.set(name, 0);
      } else if (r < 0.7) {
        const f = h.get(name);
        if (f === undefined) continue;
        const exp = rng.chance(0.2) ? 0 : rng.int(1, 1000);
        h.setExpiry(f, exp);
        reference.set(name, exp);
      } else {
        assert.equal(h.delete(name), reference.delete(name));
      }
      const volatile = [...reference.values()].filter((e) => e > 0);
      assert.equal(h.memberExpiry, volatile.length === 0 ? 0 : Math.min(...volatile), `step ${step}`);
      assert.equal(h.size, reference.size);
    }
    const due = h.expireDue(500);
    for (const name of due) assert.ok(reference.get(name)! <= 500 && reference.get(name)! > 0);
    assert.equal(h.size, [...reference.values()].filter((e) => e === 0 || e > 500).length);
    assert.ok(h.memberExpiry === 0 || h.memberExpiry > 500);
  });

  it('answers HDEL for the fields that expire and counts what is left', () => {
    const h = HashValue.of([
      { name: 'a', value: '1', exp: 10 },
      { name: 'b', value: '2', exp: 0 },
      { name: 'c', value: '3', exp: 5 },
    ]);
    assert.deepEqual(HASH_KIND.expireMembers!(h, 'k', 10), { log: ['hdel', 'k', 'c', 'a'], left: 1 });
    assert.equal(h.memberExpiry, 0);
  });

  it('serializes binary fields, values and expiries, and refuses any other bytes', () => {
    const rows = [
      { name: '', value: '\x00\xff', exp: 0 },
      { name: 'f\x00', value: '', exp: 2 ** 46 - 1 },
      { name: 'far', value: '', exp: 2 ** 63 },
      { name: 'far2', value: '', exp: 2 ** 60 + 2 ** 20 },
      { name: 'x'.repeat(300), value: 'y'.repeat(70000), exp: 1 },
    ];
    const bytes = encodeFields(rows, rows.length);
    assert.deepEqual(decodeFields(bytes), rows);
    const h = HASH_KIND.decode(bytes) as HashValue;
    assert.equal(h.encoding, 'hashtable');
    assert.deepEqual(HASH_KIND.decode(HASH_KIND.encode(h)), h);
    for (let cut = 0; cut < bytes.length; cut += 997) assert.equal(decodeFields(bytes.slice(0, cut)), null, `cut at ${cut}`);
    assert.equal(decodeFields(bytes + '\x00'), null);
    const twice = encodeFields([rows[0], rows[0]], 2);
    assert.equal(decodeFields(twice), null);
    const badFlag = encodeFields([rows[0]], 1).slice(0, -1) + '\x07';
    assert.equal(decodeFields(badFlag), null);
    assert.equal(decodeFields('\xff\xff\xff\xff'), null);
    // An empty hash is never stored, so it is no valid payload either.
    assert.equal(HASH_KIND.decode(encodeFields([], 0)), null);
  });

  it('scans every field present throughout exactly once while others come and go', () => {
    const h = new HashValue();
    for (let i = 0; i < 500; i++) h.set(`f${i}`, 'v');
    const seen = new Map<string, number>();
    let cursor = 0;
    let calls = 0;
    do {
      cursor = h.scan(cursor, 7, (f) => seen.set(f.name, (seen.get(f.name) ?? 0) + 1));
      h.delete(`f${499 - calls}`);
      h.set(`new${calls}`, 'v');
      calls++;
    } while (cursor !== 0);
    for (let i = 0; i < 500 - calls; i++) assert.equal(seen.get(`f${i}`), 1, `f${i}`);
  });

  it('clones deeply, keeping the encoding and the expiries', () => {
    const h = HashValue.of([{ name: 'a', value: '1', exp: 99 }]);
    const copy = h.clone();
    copy.set('a', '2');
    assert.equal(h.get('a')!.value, '1');
    assert.equal(h.memberExpiry, 99);
    assert.equal(copy.memberExpiry, 0);
    assert.equal(copy.encoding, 'listpackex');
  });
});

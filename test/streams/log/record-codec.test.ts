// A partition record's bytes (record-codec.ts) against its format written out piece by piece,
// for keys present and absent, text of every width in UTF-8 (and a lone surrogate, which
// UTF-8 replaces), offsets and timestamps past 2^32, and any number of headers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../../src/streams/log/record-codec.js';
import { Rng } from '../../kv/differential/prng.js';

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: number) => Buffer.concat([u32(n % 2 ** 32), u32(Math.floor(n / 2 ** 32))]);
const text = (s: string) => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s)]);

describe('partition record codec', () => {
  it('writes the documented layout, and reads back what it wrote', () => {
    const pieces = ['a', 'é', '€', '😀', '\ud800', '', 'key', ' '];
    const rng = new Rng(9);
    const word = () => rng.some(pieces, rng.int(0, 5)).join('');
    for (let i = 0; i < 2000; i++) {
      const record = {
        timestamp: rng.int(0, 2 ** 45),
        key: rng.chance(1 / 3) ? null : word(),
        value: word(),
        headers: Array.from({ length: rng.int(0, 2) }, () => ({ key: word(), value: word() })),
      };
      const offset = rng.int(0, 2 ** 34) + i;
      const key = record.key === null ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.concat([u32(Buffer.byteLength(record.key)), Buffer.from(record.key)]);
      const expected = Buffer.concat([u64(offset), u64(record.timestamp), key, text(record.value), u32(record.headers.length), ...record.headers.flatMap((h) => [text(h.key), text(h.value)])]);
      const encoded = encodeRecord(record, offset);
      assert.deepEqual(encoded, expected);
      const utf8 = (s: string) => Buffer.from(s).toString();
      assert.deepEqual(decodeRecord(encoded), {
        offset,
        timestamp: record.timestamp,
        key: record.key === null ? null : utf8(record.key),
        value: utf8(record.value),
        headers: record.headers.map((h) => ({ key: utf8(h.key), value: utf8(h.value) })),
      });
    }
  });
});

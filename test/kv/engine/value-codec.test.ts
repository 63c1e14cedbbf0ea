import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeValue, encodeValue, encodeValueAfter } from '../../../src/kv/engine/value-codec.js';
import { HashValue } from '../../../src/kv/engine/hash/hash-value.js';
import { crc32 } from '../../../src/storage/crc32.js';

const ALL_BYTES = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');

describe('value codec', () => {
  it('round-trips strings holding every byte value', () => {
    for (const v of [ALL_BYTES, '', ...Array.from({ length: 256 }, (_, b) => String.fromCharCode(b).repeat(3))]) {
      const encoded = encodeValue(v);
      assert.ok([...encoded].every((c) => c.charCodeAt(0) < 256), 'the encoding is a byte string');
      assert.equal(decodeValue(encoded), v);
    }
  });

  it('writes the same bytes into a Buffer after the room asked for', () => {
    const hash = HashValue.of([{ name: 'f', value: 'v', exp: 0 }]);
    for (const v of [ALL_BYTES, '', 'short', hash]) {
      const out = encodeValueAfter(v, 5);
      assert.deepEqual(out.subarray(5), Buffer.from(encodeValue(v), 'latin1'));
    }
  });

  it('writes into the scratch buffer given when it has room, else into a buffer of its own', () => {
    const hash = HashValue.of([{ name: 'f', value: 'v', exp: 0 }]);
    const scratch = Buffer.alloc(64);
    for (const v of ['short', hash]) {
      const out = encodeValueAfter(v, 5, scratch);
      assert.equal(out.buffer, scratch.buffer, 'a view of the scratch buffer');
      assert.deepEqual(out.subarray(5), Buffer.from(encodeValue(v), 'latin1'));
    }
    const long = 'x'.repeat(100);
    const out = encodeValueAfter(long, 5, scratch);
    assert.notEqual(out.buffer, scratch.buffer);
    assert.deepEqual(out.subarray(5), Buffer.from(encodeValue(long), 'latin1'));
  });

  it('lays a string out as tag, bytes, version, crc32', () => {
    const encoded = Buffer.from(encodeValue('123456789'), 'latin1');
    assert.equal(encoded[0], 0);
    assert.equal(encoded.toString('latin1', 1, 10), '123456789');
    assert.equal(encoded.readUInt16LE(10), 1);
    assert.equal(encoded.length, 16);
  });

  it('rejects every single flipped byte, a cut and an unknown version', () => {
    const encoded = encodeValue('value with a checksum');
    for (let i = 0; i < encoded.length; i++) {
      const bad = encoded.slice(0, i) + String.fromCharCode(encoded.charCodeAt(i) ^ 0x01) + encoded.slice(i + 1);
      assert.equal(decodeValue(bad), null, `byte ${i}`);
    }
    assert.equal(decodeValue(encoded.slice(0, -1)), null);
    assert.equal(decodeValue(''), null);
  });

  it('rejects a checksummed payload of an unknown kind or version', () => {
    const reChecksummed = (at: number, byte: number) => {
      const b = Buffer.from(encodeValue('x'), 'latin1');
      b[at] = byte;
      b.writeUInt32LE(crc32(b, 0, b.length - 4), b.length - 4);
      return b.toString('latin1');
    };
    assert.equal(decodeValue(reChecksummed(0, 0xfe)), null);
    assert.equal(decodeValue(reChecksummed(2, 2)), null);
    assert.equal(decodeValue(reChecksummed(1, 0x79)), 'y');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from '../../src/storage/crc32.js';

// Check values of CRC-32/ISO-HDLC (the zlib, PNG and Ethernet CRC).
const VECTORS: [Uint8Array, number][] = [
  [Buffer.alloc(0), 0x00000000],
  [Buffer.from('a'), 0xe8b7be43],
  [Buffer.from('123456789'), 0xcbf43926],
  [Buffer.from('The quick brown fox jumps over the lazy dog'), 0x414fa339],
  [Buffer.alloc(32, 0x00), 0x190a55ad],
  [Buffer.alloc(32, 0xff), 0xff6cab0b],
  [Uint8Array.from({ length: 256 }, (_, i) => i), 0x29058c73],
];

describe('crc32', () => {
  it('matches the standard check values', () => {
    for (const [data, want] of VECTORS) assert.equal(crc32(data), want, Buffer.from(data).toString('hex'));
  });

  it('checksums a range as if it were its own buffer', () => {
    const data = Buffer.from('xx123456789yy');
    assert.equal(crc32(data, 2, 11), 0xcbf43926);
    assert.equal(crc32(data, 5, 5), 0);
  });

  it('returns an unsigned 32-bit number', () => {
    const c = crc32(Buffer.from('The quick brown fox jumps over the lazy dog.'));
    assert.ok(Number.isInteger(c) && c >= 0 && c <= 0xffffffff);
  });
});

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

  it('continues from the CRC of the bytes before, so a file can be checksummed in pieces', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    for (const cut of [0, 1, 9, 20, data.length]) assert.equal(crc32(data, cut, data.length, crc32(data, 0, cut)), 0x414fa339, `cut at ${cut}`);
    // Long pieces take the runtime's own crc32, short ones the loop: they chain either way.
    const long = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff);
    const whole = crc32(long);
    for (const cut of [0, 100, 255, 256, 257, 2000, 4800, 4999, 5000]) {
      assert.equal(crc32(long, cut, long.length, crc32(long, 0, cut)), whole, `cut at ${cut}`);
    }
  });

  it('agrees with the bitwise definition at every length and offset', () => {
    const bitwise = (data: Uint8Array) => {
      let c = 0xffffffff;
      for (const b of data) {
        c ^= b;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      return (c ^ 0xffffffff) >>> 0;
    };
    // Past 256 bytes the runtime's own crc32 takes over.
    const data = Uint8Array.from({ length: 600 }, (_, i) => (i * 7919 + 13) & 0xff);
    for (let start = 0; start < 9; start++) {
      for (let end = start; end <= data.length; end += 1 + (end % 5)) assert.equal(crc32(data, start, end), bitwise(data.subarray(start, end)), `${start}..${end}`);
    }
  });

  it('returns an unsigned 32-bit number', () => {
    const c = crc32(Buffer.from('The quick brown fox jumps over the lazy dog.'));
    assert.ok(Number.isInteger(c) && c >= 0 && c <= 0xffffffff);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCommands, encodeCommands } from '../../../src/kv/engine/command-codec.js';

const ALL_BYTES = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');

describe('command codec', () => {
  it('round-trips arguments holding every byte value', () => {
    const commands = [
      ['set', ALL_BYTES, ALL_BYTES.split('').reverse().join('')],
      ['del', ''],
      ...Array.from({ length: 256 }, (_, b) => ['set', `k${b}`, String.fromCharCode(b)]),
    ];
    const encoded = encodeCommands(commands);
    assert.deepEqual(decodeCommands(encoded), commands);
  });

  it('lays out count, argc, and length-prefixed arguments', () => {
    const encoded = encodeCommands([['del', 'k\xff']]);
    assert.equal(encoded.toString('hex'), '01000000' + '02000000' + '03000000' + '64656c' + '02000000' + '6bff');
  });

  it('round-trips an empty batch and a large argument', () => {
    assert.deepEqual(decodeCommands(encodeCommands([])), []);
    const big = [['set', 'big', '\x00\xff'.repeat(100_000)]];
    assert.deepEqual(decodeCommands(encodeCommands(big)), big);
  });

  it('throws on a payload that is not exactly one encoding', () => {
    const encoded = encodeCommands([['set', 'k', 'v']]);
    assert.throws(() => decodeCommands(encoded.subarray(0, encoded.length - 1)), /ends inside an argument/);
    assert.throws(() => decodeCommands(encoded.subarray(0, 6)), /ends inside a length/);
    assert.throws(() => decodeCommands(Buffer.concat([encoded, Buffer.from([0])])), /1 bytes after/);
    assert.throws(() => decodeCommands(Buffer.from('0100000000000000', 'hex')), /without a name/);
  });
});

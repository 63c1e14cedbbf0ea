// CRC16 and the hash tag rule, against the values Redis Cluster's specification gives.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commonSlot, crc16, keySlot } from '../../../src/kv/redis/key-slot.js';

describe('key slots', () => {
  it('computes CRC16/XMODEM as Redis does', () => {
    assert.equal(crc16('123456789'), 0x31c3);
    assert.equal(keySlot('foo'), 12182);
    assert.equal(keySlot('bar'), 5061);
    assert.equal(keySlot(''), 0);
  });

  it('hashes only the hash tag when there is a non-empty one', () => {
    assert.equal(keySlot('{user1000}.following'), keySlot('user1000'));
    assert.equal(keySlot('{user1000}.followers'), keySlot('user1000'));
    assert.equal(keySlot('foo{}{bar}'), keySlot('foo{}{bar}'));
    assert.notEqual(keySlot('foo{}{bar}'), keySlot('bar'));
    assert.equal(keySlot('foo{{bar}}zap'), keySlot('{bar'));
    assert.equal(keySlot('foo{bar}{zap}'), keySlot('bar'));
  });

  it('finds the one slot of several keys, or -1', () => {
    assert.equal(commonSlot([]), undefined);
    assert.equal(commonSlot(['{a}1', '{a}2']), keySlot('a'));
    assert.equal(commonSlot(['foo', 'bar']), -1);
  });
});

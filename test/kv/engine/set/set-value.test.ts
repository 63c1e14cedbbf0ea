// The set value on its own: slots and ranks through many removals, the serialized form and
// its refusal of malformed bytes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SET_KIND, SetValue } from '../../../../src/kv/engine/set/set-value.js';

function setOf(...members: string[]): SetValue {
  const set = SetValue.forFirst(members[0]);
  for (const m of members) set.add(m);
  return set;
}

const u32 = (n: number) => String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);

describe('SetValue', () => {
  it('keeps membership, size and draws right through removals and compactions', () => {
    const set = setOf('seed');
    const live = new Set<string>(['seed']);
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 40; i++) {
        const m = `m${(round * 17 + i * 7) % 300}`;
        assert.equal(set.add(m), !live.has(m));
        live.add(m);
      }
      for (let i = 0; i < 30; i++) {
        const m = `m${(round * 13 + i * 11) % 300}`;
        assert.equal(set.delete(m), live.delete(m));
      }
      assert.equal(set.size, live.size);
      for (let i = 0; i < 20; i++) assert.ok(live.has(set.random()));
    }
    assert.deepEqual([...set.members()].sort(), [...live].sort());
    while (set.size > 0) assert.ok(live.delete(set.pop()));
    assert.equal(live.size, 0);
  });

  it('draws every member of a small set', () => {
    const set = setOf('a', 'b', 'c');
    set.delete('b');
    const seen = new Set<string>();
    for (let i = 0; i < 500 && seen.size < 2; i++) seen.add(set.random());
    assert.deepEqual([...seen].sort(), ['a', 'c']);
  });

  it('scans by insertion rank, resuming after members before the cursor are gone', () => {
    const set = setOf(...Array.from({ length: 10 }, (_, i) => `m${i}`));
    const first: string[] = [];
    const cursor = set.scan(0, 4, (m) => first.push(m));
    assert.deepEqual(first, ['m0', 'm1', 'm2', 'm3']);
    for (const m of ['m0', 'm1', 'm2', 'm3', 'm5', 'm6']) set.delete(m);
    const rest: string[] = [];
    assert.equal(set.scan(cursor, 100, (m) => rest.push(m)), 0);
    assert.deepEqual(rest, ['m4', 'm7', 'm8', 'm9']);
  });

  it('lists an intset in ascending order, past 2^53 too', () => {
    const set = setOf('10', '-3', '9007199254740993', '9007199254740992', '-9223372036854775808', '0');
    assert.equal(set.intset, true);
    assert.deepEqual(set.members(), ['-9223372036854775808', '-3', '0', '10', '9007199254740992', '9007199254740993']);
  });

  it('decodes what it encodes, and refuses malformed bytes', () => {
    const set = setOf('a', '', '\u0000\u00ff', '1');
    const bytes = SET_KIND.encode(set);
    const back = SET_KIND.decode(bytes) as SetValue;
    assert.deepEqual([...back.members()].sort(), [...set.members()].sort());
    const member = (m: string) => u32(m.length) + m;
    for (const bad of [
      '',
      u32(0),
      u32(1),
      u32(1) + u32(5) + 'ab',
      u32(2) + member('a') + member('a'),
      u32(1) + member('a') + 'x',
      bytes.slice(0, -1),
      bytes + '\u0000',
    ]) {
      assert.equal(SET_KIND.decode(bad), null, JSON.stringify(bad));
    }
  });
});

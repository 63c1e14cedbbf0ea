// The list kind's serialization: byte-exact round trips, and malformed bytes refused (null),
// never thrown.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindByTag, typeName } from '../../../../src/kv/engine/value.js';
import { LIST, ListValue } from '../../../../src/kv/engine/list/list-value.js';

describe('list value kind', () => {
  it('is registered under tag 2 as TYPE list', () => {
    assert.equal(kindByTag(2), LIST);
    assert.equal(typeName(new ListValue(['a'])), 'list');
    assert.equal(LIST.encoding?.(new ListValue(['a'])), 'quicklist');
  });

  it('round-trips binary elements, empty ones included', () => {
    const items = ['', 'a', '\x00\xff\x80', 'x'.repeat(70000), 'é'];
    const bytes = LIST.encode(new ListValue(items));
    const back = LIST.decode(bytes) as ListValue;
    assert.deepEqual(back.toArray(), items);
  });

  it('clones into an independent list', () => {
    const a = new ListValue(['1', '2']);
    const b = LIST.clone(a) as ListValue;
    b.pushBack('3');
    assert.deepEqual(a.toArray(), ['1', '2']);
    assert.deepEqual(b.toArray(), ['1', '2', '3']);
  });

  it('refuses malformed encodings', () => {
    const good = LIST.encode(new ListValue(['ab', 'c']));
    assert.equal(LIST.decode(''), null);
    assert.equal(LIST.decode('\x00\x00\x00\x00'), null, 'an empty list is never stored');
    assert.equal(LIST.decode(good.slice(0, -1)), null, 'truncated');
    assert.equal(LIST.decode(good + 'x'), null, 'trailing bytes');
    assert.equal(LIST.decode('\xff\xff\xff\xff'), null, 'a count the bytes cannot hold');
    assert.equal(LIST.decode('\x01\x00\x00\x00\xff\xff\xff\xff'), null, 'an element longer than the bytes');
  });
});

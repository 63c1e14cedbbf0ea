// The JSON document model without a server: number text as RedisJSON (serde_json + ryu)
// writes and reads it, parse errors in serde's words, and JSONPath parsing and evaluation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatJson } from '../../../src/kv/engine/json/json-format.js';
import { Rng } from '../differential/prng.js';
import { removalOrder } from '../../../src/kv/engine/json/json-edit.js';
import { parseJson } from '../../../src/kv/engine/json/json-parse.js';
import { evaluate } from '../../../src/kv/engine/json/json-path-eval.js';
import { parsePath, type JsonPath } from '../../../src/kv/engine/json/json-path.js';
import type { JsonValue } from '../../../src/kv/engine/json/json-value.js';

const parse = (text: string): JsonValue => {
  const r = parseJson(text);
  assert.ok(r.ok, text);
  return r.value;
};

describe('JSON numbers', () => {
  it('print floats as ryu does and integers as integers', () => {
    const cases: [string, string][] = [
      ['1.0', '1.0'],
      ['0.1', '0.1'],
      ['-2.5', '-2.5'],
      ['100.0', '100.0'],
      ['1e15', '1000000000000000.0'],
      ['1e16', '1e16'],
      ['123456789012345678.0', '1.2345678901234568e17'],
      ['1e-5', '0.00001'],
      ['1e-6', '1e-6'],
      ['1.5e-7', '1.5e-7'],
      ['5e-324', '5e-324'],
      ['1.7976931348623157e308', '1.7976931348623157e308'],
      ['-0.0', '-0.0'],
      ['0e0', '0.0'],
      ['9007199254740993.0', '9007199254740992.0'],
      ['9223372036854775807', '9223372036854775807'],
      ['-9223372036854775808', '-9223372036854775808'],
      ['18446744073709551615', '18446744073709551615'],
      ['18446744073709551616', '1.8446744073709552e19'],
      ['-9223372036854775809', '-9.223372036854776e18'],
      ['0.30000000000000004', '0.30000000000000004'],
      ['1234567.125', '1234567.125'],
      ['-0.00012', '-0.00012'],
      ['1.5e-5', '0.000015'],
      ['9.999999e-6', '9.999999e-6'],
      ['1000000000000000.5', '1000000000000000.5'],
      ['4.35e1', '43.5'],
      ['999999999999999', '999999999999999'],
      ['-99999999999999', '-99999999999999'],
      ['9007199254740993', '9007199254740993'],
      ['-0', '0'],
    ];
    for (const [input, printed] of cases) assert.equal(formatJson(parse(input)), printed, input);
  });

  it('read back every float they print, as the same float', () => {
    const rng = new Rng(12345);
    for (let i = 0; i < 20000; i++) {
      const f = rng.double();
      if (!Number.isFinite(f)) continue;
      const back = parse(formatJson(f));
      assert.equal(typeof back, 'number');
      assert.ok(Object.is(back, f), `${f} -> ${formatJson(f)}`);
    }
  });
});

describe('JSON text', () => {
  it('round-trips documents, keeping key order and escaping like serde_json', () => {
    const text = '{"b":[1,2.5,"x\\"y\\\\z\\n\\u0001é",true,false,null],"a":{},"__proto__":[]}';
    assert.equal(formatJson(parse(text)), text);
    assert.equal(formatJson(parse(' { "a" : [ 1 , { } ] } ')), '{"a":[1,{}]}');
    assert.equal(formatJson(parse('"\\ud83d\\ude00/\\/"')), '"😀//"');
  });

  it('quote strings as serde_json does: quotes, backslashes and control characters escaped, the rest as it is', () => {
    const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    const quoted = (text: string) => {
      let out = '"';
      for (const c of text) {
        const code = c.charCodeAt(0);
        out += short[c] ?? (code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : c);
      }
      return out + '"';
    };
    // Lone surrogates too: JSON text can escape one, and it prints as it is (UTF-8 then replaces it).
    const alphabet = ['a', 'é', '"', '\\', '/', '\u0000', '\u0001', '\u001f', ' ', '\u007f', '\b', '\n', '\t', '\ud83d', '\ude00', '\u2028', 'u', 'd'];
    const rng = new Rng(7);
    for (let i = 0; i < 5000; i++) {
      const text = rng.some(alphabet, rng.int(0, 11)).join('');
      assert.equal(formatJson(text), quoted(text), JSON.stringify(text));
      assert.equal(formatJson(new Map([[text, text]])), `{${quoted(text)}:${quoted(text)}}`);
    }
  });

  it('refuses bad text with serde_json messages', () => {
    const cases: [string, string][] = [
      ['', 'EOF while parsing a value at line 1 column 0'],
      ['{', 'EOF while parsing an object at line 1 column 1'],
      ['[1,', 'EOF while parsing a value at line 1 column 3'],
      ['[1 2]', 'expected `,` or `]` at line 1 column 4'],
      ['[1', 'EOF while parsing a list at line 1 column 2'],
      ['[1,]', 'trailing comma at line 1 column 4'],
      ['{"a":1,}', 'trailing comma at line 1 column 8'],
      ['{"a":1,', 'EOF while parsing a value at line 1 column 7'],
      ['{"a":1,2}', 'key must be a string at line 1 column 8'],
      ['{"a" 1}', 'expected `:` at line 1 column 6'],
      ['{"a":1 "b"}', 'expected `,` or `}` at line 1 column 8'],
      ['{1:2}', 'key must be a string at line 1 column 2'],
      ['tru', 'EOF while parsing a value at line 1 column 3'],
      ['01', 'invalid number at line 1 column 2'],
      ['1e999', 'number out of range at line 1 column 5'],
      ['"a\nb"', 'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0'],
      ['[1]\n x', 'trailing characters at line 2 column 2'],
      ['"\\q"', 'invalid escape at line 1 column 3'],
      ['["é" x]', 'expected `,` or `]` at line 1 column 7'],
      ['['.repeat(200), 'recursion limit exceeded at line 1 column 129'],
    ];
    for (const [input, message] of cases) assert.deepEqual(parseJson(input), { ok: false, error: message }, JSON.stringify(input));
  });
});

describe('JSONPath', () => {
  const path = (text: string): JsonPath => {
    const p = parsePath(text);
    assert.ok(typeof p !== 'string', `${text}: ${p as string}`);
    return p;
  };

  it('rewrites legacy paths and tells static paths apart', () => {
    assert.deepEqual(
      ['.', '.a', 'a[0]', '$', '$.a', '..a'].map((t) => [path(t).normal, path(t).legacy, path(t).isStatic]),
      [
        ['$', true, true],
        ['$.a', true, true],
        ['$.a[0]', true, true],
        ['$', false, true],
        ['$.a', false, true],
        ['$..a', true, false],
      ],
    );
    assert.equal(path("$['a'].b[1]").isStatic, true);
    assert.equal(path('$[1,2]').isStatic, false);
    assert.equal(path('$.a[?(@.b)]').isStatic, false);
  });

  it('gives each match its location, deeper ones first under ..', () => {
    const doc = parse('{"a":1,"n":{"a":2,"l":[{"a":3}]}}');
    const at = (p: string) => evaluate(path(p).query, doc).map((m) => m.at);
    assert.deepEqual(at('$..a'), [['n', 'l', 0, 'a'], ['n', 'a'], ['a']]);
    assert.deepEqual(at('$.n.l[0]'), [['n', 'l', 0]]);
    assert.deepEqual(at('$.*'), [['a'], ['n']]);
  });

  it('orders removals so none invalidates another', () => {
    assert.deepEqual(removalOrder([['a', 1], ['a', 3], ['a'], ['b', 0, 'x'], ['b', 2], ['b', 2]]), [['a'], ['b', 2], ['b', 0, 'x']]);
    assert.deepEqual(removalOrder([['l', 1], ['l', 10], ['l', 2]]), [['l', 10], ['l', 2], ['l', 1]]);
  });
});

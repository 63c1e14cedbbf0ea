import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globMatch } from '../../src/text/glob.js';

// [pattern, text, matches]: each answer is what Redis 7.0's KEYS gave for a keyspace holding
// only `text` (patterns other than a lone "*", which KEYS special-cases).
const REDIS_ANSWERS: [string, string, boolean][] = [
  ['**', '', false],
  ['', '', true],
  ['?', '', false],
  ['*', 'abc', true],
  ['a*', 'a', true],
  ['a*b', 'ab', true],
  ['a*b', 'axxb', true],
  ['a*b', 'axxbc', false],
  ['*a*b*', 'xxaxxbxx', true],
  ['a?c', 'abc', true],
  ['a?c', 'ac', false],
  ['h[ae]llo', 'hello', true],
  ['h[ae]llo', 'hillo', false],
  ['h[^e]llo', 'hallo', true],
  ['h[^e]llo', 'hello', false],
  ['h[a-b]llo', 'hbllo', true],
  ['h[b-a]llo', 'hbllo', true],
  ['[a-]', '-', false],
  ['[a-]', 'b', false],
  ['[]', ']', false],
  ['[]a]', 'a', false],
  ['[]a]', ']', false],
  ['[\\]]', ']', true],
  ['[\\-]', '-', true],
  ['[a\\-z]', 'b', false],
  ['[a', 'a', true],
  ['[a', 'b', false],
  ['[^', 'x', true],
  ['[^', '', false],
  ['ab[', 'ab', false],
  ['a[', 'ab', false],
  ['\\*', '*', true],
  ['\\*', 'a', false],
  ['\\?', '?', true],
  ['a\\', 'a\\', true],
  ['a\\', 'a', false],
  ['\\', '\\', true],
  ['[\\', '\\', true],
  ['[*]', '*', true],
  ['[*]', 'a', false],
  ['[?]', 'a', false],
  ['*[', 'a[', false],
  ['*\\', 'a\\', true],
  ['[[]', '[', true],
  ['[^]]', 'a', false],
  ['[^]]', ']', false],
  ['[z-a]', 'm', true],
  ['[A-z]', '_', true],
  ['[a-\xe9]', 'b', false],
  ['[a-\xe9]', '0', true],
  ['[\xe9-\xff]', '\xf0', true],
  ['\xe9', '\xe9', true],
  ['?', '\xe9', true],
  ['*?', 'a', true],
  ['*?', '', false],
  ['?*', 'a', true],
  ['a**', 'a', true],
  ['a**b', 'a-b', true],
  ['*b*', 'abc', true],
  ['[abc]*', '', false],
  ['A*', 'abc', false],
];

describe('glob', () => {
  it('answers as Redis KEYS does, case by case', () => {
    for (const [pattern, text, expected] of REDIS_ANSWERS) {
      assert.equal(globMatch(pattern, text), expected, `${JSON.stringify(pattern)} against ${JSON.stringify(text)}`);
    }
  });

  it('refuses the empty string even to a lone star, as stringmatchlen does', () => {
    assert.equal(globMatch('*', ''), false);
  });

  it('folds ASCII case only when asked', () => {
    assert.equal(globMatch('MAXMEMORY*', 'maxmemory-policy', true), true);
    assert.equal(globMatch('[A-C]x', 'bX', true), true);
    assert.equal(globMatch('\xc9', '\xe9', true), false);
    assert.equal(globMatch('Ab', 'ab'), false);
  });

  it('swaps range ends before folding them, so nocase [Z-a] matches nothing', () => {
    assert.equal(globMatch('[Z-a]', '_'), true);
    assert.equal(globMatch('[Z-a]', '_', true), false);
  });

  it('compares an escaped class member exactly, even without case', () => {
    assert.equal(globMatch('[\\A]', 'a', true), false);
    assert.equal(globMatch('[A]', 'a', true), true);
  });

  it('gives up early on many stars that cannot match, instead of trying every split', { timeout: 10_000 }, () => {
    const text = 'a'.repeat(60);
    assert.equal(globMatch('*a*a*a*a*a*a*a*a*a*a*a*a*b', text), false);
  });
});

// The console page's pure parts, run here on Node: the command line's argument splitting and
// completion, and latency percentiles from histogram counts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commonPrefix, completions, splitArgs } from '../../src/console/app/command-words.js';
import { quantile } from '../../src/console/app/percentiles.js';

describe('console command words', () => {
  it('splits arguments as redis-cli does', () => {
    assert.deepEqual(splitArgs('  SET  key value '), ['SET', 'key', 'value']);
    assert.deepEqual(splitArgs(`SET "two words" 'single "quoted"'`), ['SET', 'two words', 'single "quoted"']);
    assert.deepEqual(splitArgs('SET k "a\\nb\\"c"'), ['SET', 'k', 'a\nb"c']);
    assert.deepEqual(splitArgs('SET k ""'), ['SET', 'k', '']);
    assert.deepEqual(splitArgs('ECHO a"b c"d'), ['ECHO', 'ab cd']);
    assert.equal(splitArgs('SET k "open'), 'unbalanced quotes');
    assert.deepEqual(splitArgs(''), []);
  });

  it('completes the first word only', () => {
    const names = ['hget', 'hgetall', 'hset', 'get'];
    assert.deepEqual(completions('hge', names), ['hget', 'hgetall']);
    assert.deepEqual(completions('HGETA', names), ['hgetall']);
    assert.deepEqual(completions('hget key', names), []);
    assert.deepEqual(completions('', names), []);
    assert.equal(commonPrefix(['hget', 'hgetall']), 'hget');
    assert.equal(commonPrefix([]), '');
  });
});

describe('console percentiles', () => {
  const bounds = [0.001, 0.01, 0.1];
  it('interpolates inside the bucket holding the rank', () => {
    assert.equal(quantile(0.5, bounds, [0, 0, 0, 0]), null);
    assert.equal(quantile(0.5, bounds, [10, 0, 0, 0]), 0.0005);
    const near = (got: number | null, want: number) => assert.ok(got !== null && Math.abs(got - want) < 1e-12, `${got} is not ${want}`);
    near(quantile(0.5, bounds, [0, 10, 0, 0]), 0.0055);
    // Rank 9 of 10: the 4th of the 5 in (0.01, 0.1].
    near(quantile(0.9, bounds, [5, 0, 5, 0]), 0.082);
    assert.equal(quantile(0.99, bounds, [1, 0, 0, 99]), 0.1);
  });
});

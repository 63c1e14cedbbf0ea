import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathSegments, percentDecode, queryPairs, queryParam } from '../../src/server/url.js';

describe('server: url scanning', () => {
  it('percent-decodes into bytes and keeps malformed escapes', () => {
    assert.equal(percentDecode('a%2Fb%20c'), 'a/b c');
    assert.equal(percentDecode('%00%ff%FF'), '\x00\xff\xff');
    assert.equal(percentDecode('%C3%A9'), '\xc3\xa9');
    assert.equal(percentDecode('100%'), '100%');
    assert.equal(percentDecode('%4'), '%4');
    assert.equal(percentDecode('%zz%41'), '%zzA');
    assert.equal(percentDecode('a+b'), 'a+b');
    assert.equal(percentDecode('a+b', true), 'a b');
  });

  it('splits a path into its non-empty segments, still encoded', () => {
    assert.deepEqual(pathSegments('/default/set/a%2Fb/c'), ['default', 'set', 'a%2Fb', 'c']);
    assert.deepEqual(pathSegments('//a///b/'), ['a', 'b']);
    assert.deepEqual(pathSegments(''), []);
  });

  it('reads query pairs in order, a bare name without a value', () => {
    assert.deepEqual(queryPairs('EX=100&NX&GET=&a%20b=c+d&&'), [
      ['EX', '100'],
      ['NX', undefined],
      ['GET', ''],
      ['a b', 'c d'],
    ]);
    assert.deepEqual(queryPairs(''), []);
  });

  it('finds one parameter', () => {
    assert.equal(queryParam('a=1&_token=t%2Bk', '_token'), 't+k');
    assert.equal(queryParam('x_token=1', '_token'), undefined);
    assert.equal(queryParam('_token', '_token'), '');
    assert.equal(queryParam('', '_token'), undefined);
  });
});

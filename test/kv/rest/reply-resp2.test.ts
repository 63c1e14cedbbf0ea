import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplyError } from '../../../src/kv/errors.js';
import { NULL_ARRAY, OK } from '../../../src/kv/reply.js';
import { resp2 } from '../../../src/kv/rest/reply-resp2.js';

describe('kv rest: RESP2 replies', () => {
  it('writes every reply type as Redis does', () => {
    assert.equal(resp2(OK), '+OK\r\n');
    assert.equal(resp2('a\r\nb'), '$4\r\na\r\nb\r\n');
    assert.equal(resp2('\xff'), '$1\r\n\xff\r\n', 'lengths count bytes');
    assert.equal(resp2(null), '$-1\r\n');
    assert.equal(resp2(NULL_ARRAY), '*-1\r\n');
    assert.equal(resp2(['k', NULL_ARRAY]), '*2\r\n$1\r\nk\r\n*-1\r\n');
    assert.equal(resp2(7), ':7\r\n');
    assert.equal(resp2(9223372036854775807n), ':9223372036854775807\r\n');
    assert.equal(resp2([1, ['x'], []]), '*3\r\n:1\r\n*1\r\n$1\r\nx\r\n*0\r\n');
    assert.equal(resp2(new ReplyError('ERR boom')), '-ERR boom\r\n');
  });

  it('keeps an error on one line', () => {
    assert.equal(resp2(new ReplyError("ERR unknown command 'a\r\nb'")), "-ERR unknown command 'a  b'\r\n");
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplyError } from '../../../src/kv/errors.js';
import { NULL_ARRAY, OK, PONG, Status } from '../../../src/kv/reply.js';
import { jsonEnvelope, jsonEnvelopes } from '../../../src/kv/rest/reply-json.js';

describe('kv rest: JSON replies', () => {
  it('prints integers as JSON numbers and bigints exactly', () => {
    assert.equal(jsonEnvelope(42, 'text'), '{"result":42}');
    assert.equal(jsonEnvelope(-1, 'base64'), '{"result":-1}');
    assert.equal(jsonEnvelope(9223372036854775807n, 'text'), '{"result":9223372036854775807}');
    assert.equal(jsonEnvelope([-9223372036854775808n, 1, null], 'base64'), '{"result":[-9223372036854775808,1,null]}');
  });

  it('decodes bulk strings as UTF-8, with U+FFFD for invalid bytes', () => {
    assert.equal(jsonEnvelope(Buffer.from('été', 'utf8').toString('latin1'), 'text'), '{"result":"été"}');
    assert.equal(JSON.parse(jsonEnvelope('a\xffb', 'text')).result, 'a\ufffdb');
    assert.equal(JSON.parse(jsonEnvelope('"\n\x00', 'text')).result, '"\n\x00');
  });

  it('base64-encodes every string but the status OK', () => {
    assert.equal(jsonEnvelope(OK, 'base64'), '{"result":"OK"}');
    assert.equal(jsonEnvelope(PONG, 'base64'), '{"result":"UE9ORw=="}');
    assert.equal(jsonEnvelope('\x00\xff', 'base64'), '{"result":"AP8="}');
    assert.equal(jsonEnvelope('OK', 'base64'), '{"result":"T0s="}', 'a bulk string that reads OK is data');
    assert.equal(jsonEnvelope(['a', [new Status('OK'), 'b']], 'base64'), '{"result":["YQ==",["OK","Yg=="]]}');
    assert.equal(jsonEnvelope(null, 'base64'), '{"result":null}');
    assert.equal(jsonEnvelope(NULL_ARRAY, 'text'), '{"result":null}', 'the null array is JSON null');
    assert.equal(jsonEnvelope([NULL_ARRAY, []], 'base64'), '{"result":[null,[]]}');
  });

  it('never encodes errors, and decodes their bytes as UTF-8', () => {
    const quoted = new ReplyError(`ERR unknown command '${Buffer.from('é', 'utf8').toString('latin1')}'`);
    assert.equal(jsonEnvelope(quoted, 'base64'), `{"error":"ERR unknown command 'é'"}`);
    assert.equal(jsonEnvelope([quoted], 'text'), `{"result":["ERR unknown command 'é'"]}`);
  });

  it('writes one envelope per pipeline position', () => {
    assert.equal(jsonEnvelopes([OK, new ReplyError('ERR x'), 3n], 'text'), '[{"result":"OK"},{"error":"ERR x"},{"result":3}]');
  });
});

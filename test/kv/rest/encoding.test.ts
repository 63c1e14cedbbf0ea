// Response encodings (base64, UTF-8 text) and response formats (json, resp2), through real HTTP.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';

const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

describe('kv rest: encodings and response formats', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
    await t.request('/set/bytes', { method: 'POST', body: ALL_BYTES });
    await t.command(['set', 'text', 'héllo ✓']);
    await t.command(['set', 'ok-value', 'OK']);
    await t.request('/set/broken/a%FFb%C3');
  });
  after(() => t.close());

  async function call(path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> {
    const res = await t.request(path, body === undefined ? { headers } : { method: 'POST', headers, body });
    return { status: res.status, body: await res.json() };
  }

  for (const header of ['Upstash-Encoding', 'Service-Encoding']) {
    describe(`${header}: base64`, () => {
      const enc = { [header]: 'base64' };

      it('encodes every string but OK', async () => {
        assert.deepEqual(await call('/set/enc/x', enc), { status: 200, body: { result: 'OK' } });
        assert.deepEqual(await call('/get/text', enc), { status: 200, body: { result: b64('héllo ✓') } });
        assert.deepEqual(await call('/ping', enc), { status: 200, body: { result: b64('PONG') } });
        assert.deepEqual(await call('/get/ok-value', enc), { status: 200, body: { result: b64('OK') } });
      });

      it('leaves numbers and nulls alone', async () => {
        assert.deepEqual(await call('/del/enc-none', enc), { status: 200, body: { result: 0 } });
        assert.deepEqual(await call('/get/enc-none', enc), { status: 200, body: { result: null } });
      });

      it('never encodes errors', async () => {
        assert.deepEqual(await call('/get', enc), { status: 400, body: { error: "ERR wrong number of arguments for 'get' command" } });
      });

      it('encodes inside pipelines and transactions too', async () => {
        const body = '[["get","text"],["set","{text}enc","y"],["get","{text}enc-none"],["get"]]';
        const expected = [
          { result: b64('héllo ✓') },
          { result: 'OK' },
          { result: null },
          { error: "ERR wrong number of arguments for 'get' command" },
        ];
        assert.deepEqual(await call('/pipeline', enc, body), { status: 200, body: expected });
        assert.deepEqual(await call('/multi-exec', enc, '[["get","text"],["set","{text}enc","y"],["get","{text}enc-none"]]'), {
          status: 200,
          body: expected.slice(0, 3),
        });
      });

      it('gives back a binary value byte for byte', async () => {
        const got = await call('/get/bytes', enc);
        assert.deepEqual(Buffer.from(got.body.result, 'base64'), Buffer.from(ALL_BYTES));
      });

      it('accepts the value in any case', async () => {
        assert.deepEqual(await call('/get/text', { [header]: 'BASE64' }), { status: 200, body: { result: b64('héllo ✓') } });
      });
    });
  }

  describe('without an encoding', () => {
    it('answers UTF-8 text as is', async () => {
      assert.deepEqual(await call('/get/text', {}), { status: 200, body: { result: 'héllo ✓' } });
    });

    it('turns invalid UTF-8 into U+FFFD', async () => {
      assert.deepEqual(await call('/get/broken', {}), { status: 200, body: { result: 'a\ufffdb\ufffd' } });
    });
  });

  // INCRBY comes with the string family; the JSON writer itself is covered in reply-json.test.ts.
  it('prints integers beyond 2^53 exactly, as JSON numbers', { skip: !TABLE.has('incrby') && 'needs INCRBY' }, async () => {
    await t.command(['set', 'max', '9223372036854775800']);
    const res = await t.request('', { method: 'POST', body: '["incrby","max",7]' });
    assert.equal(await res.text(), '{"result":9223372036854775807}');
  });

  it('refuses an unknown encoding', async () => {
    assert.deepEqual(await call('/get/text', { 'upstash-encoding': 'hex' }), {
      status: 400,
      body: { error: "ERR unsupported encoding 'hex'; the only encoding is base64" },
    });
  });

  for (const header of ['Upstash-Response-Format', 'Service-Response-Format']) {
    describe(`${header}`, () => {
      async function raw(path: string, format: string, body?: string, extra: Record<string, string> = {}) {
        const headers = { [header]: format, ...extra };
        const res = await t.request(path, body === undefined ? { headers } : { method: 'POST', headers, body });
        return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
      }

      it('resp2 answers raw RESP2 bytes as application/octet-stream', async () => {
        assert.deepEqual(await raw('/get/text', 'resp2'), {
          status: 200,
          type: 'application/octet-stream',
          bytes: Buffer.concat([Buffer.from(`$${Buffer.byteLength('héllo ✓')}\r\n`), Buffer.from('héllo ✓'), Buffer.from('\r\n')]),
        });
        assert.equal((await raw('/set/fmt/1', 'resp2')).bytes.toString(), '+OK\r\n');
        assert.equal((await raw('/get/fmt-none', 'resp2')).bytes.toString(), '$-1\r\n');
        assert.equal((await raw('/del/fmt-none', 'RESP2')).bytes.toString(), ':0\r\n');
        assert.equal((await raw('', 'resp2', '["ping"]')).bytes.toString(), '+PONG\r\n');
      });

      it('resp2 gives back binary values byte for byte', async () => {
        const got = await raw('/get/bytes', 'resp2');
        assert.deepEqual(got.bytes, Buffer.concat([Buffer.from('$256\r\n'), Buffer.from(ALL_BYTES), Buffer.from('\r\n')]));
      });

      it('resp2 answers a failing command with 400 and a RESP2 error', async () => {
        const got = await raw('/get', 'resp2');
        assert.equal(got.status, 400);
        assert.equal(got.bytes.toString(), "-ERR wrong number of arguments for 'get' command\r\n");
      });

      it('resp2 on /pipeline concatenates the replies', async () => {
        const got = await raw('/pipeline', 'resp2', '[["set","fmt","2"],["get","fmt"],["get"],["del","fmt"]]');
        assert.equal(got.status, 200);
        assert.equal(got.bytes.toString(), "+OK\r\n$1\r\n2\r\n-ERR wrong number of arguments for 'get' command\r\n:1\r\n");
      });

      it('resp2 on /multi-exec is refused, and nothing runs', async () => {
        const res = await t.request('/multi-exec', { method: 'POST', headers: { [header]: 'resp2' }, body: '[["set","fmt-tx","1"]]' });
        assert.equal(res.status, 400);
        assert.deepEqual(await res.json(), { error: 'ERR resp2 response format is not supported with multi-exec' });
        assert.deepEqual(await call('/get/fmt-tx', {}), { status: 200, body: { result: null } });
      });

      it('resp2 with base64 is refused', async () => {
        const res = await t.request('/get/text', { headers: { [header]: 'resp2', 'upstash-encoding': 'base64' } });
        assert.equal(res.status, 400);
        assert.deepEqual(await res.json(), { error: 'ERR resp2 response format cannot be combined with base64 encoding' });
      });

      it('json is the default and may be asked for, with base64 too', async () => {
        assert.deepEqual(await call('/get/text', { [header]: 'json' }), { status: 200, body: { result: 'héllo ✓' } });
        assert.deepEqual(await call('/get/text', { [header]: 'JSON', 'upstash-encoding': 'base64' }), {
          status: 200,
          body: { result: b64('héllo ✓') },
        });
      });

      it('refuses any other format', async () => {
        for (const format of ['xml', 'resp3', '']) {
          assert.deepEqual(await call('/get/text', { [header]: format }), {
            status: 400,
            body: { error: `ERR unsupported response format '${format}'; use json or resp2` },
          });
        }
      });
    });
  }
});

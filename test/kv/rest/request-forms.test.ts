// The three single-command forms and the HTTP methods, through real HTTP.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { suiteLarder } from '../../support/larder.js';

const B64 = { 'upstash-encoding': 'base64' };
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('kv rest: command forms', () => {
  const t = suiteLarder();

  async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
    const res = await t.request(path, init);
    return { status: res.status, body: await res.json() };
  }

  describe('1. path segments', () => {
    it('runs a command given as path segments', async () => {
      assert.deepEqual(await call('/set/form1/hello'), { status: 200, body: { result: 'OK' } });
      assert.deepEqual(await call('/get/form1'), { status: 200, body: { result: 'hello' } });
      assert.deepEqual(await call('/get/form1-missing'), { status: 200, body: { result: null } });
    });

    it('percent-decodes each segment, slashes and binary bytes included', async () => {
      assert.deepEqual(await call('/set/a%2Fb%20c/%00%FF%41%25'), { status: 200, body: { result: 'OK' } });
      assert.deepEqual(await call('/get/a%2Fb%20c', { headers: B64 }), {
        status: 200,
        body: { result: Buffer.from([0x00, 0xff, 0x41, 0x25]).toString('base64') },
      });
    });

    it('keeps UTF-8 text, encoded by the client or by hand', async () => {
      await call('/set/clé/été ✓');
      assert.deepEqual(await call('/get/cl%C3%A9'), { status: 200, body: { result: 'été ✓' } });
    });

    it('adds query pairs after the path arguments, and leaves _token out', async () => {
      const res = await t.request(`/echo/hi?_token=${t.token}`, { token: null });
      assert.deepEqual(await res.json(), { result: 'hi' });
      assert.deepEqual(await call('/echo/hi?extra=1'), {
        status: 400,
        body: { error: "ERR wrong number of arguments for 'echo' command" },
      });
    });

    it('takes command names in any case', async () => {
      assert.deepEqual(await call('/SeT/cased/1'), { status: 200, body: { result: 'OK' } });
      assert.deepEqual(await call('/GET/cased'), { status: 200, body: { result: '1' } });
      assert.deepEqual(await t.command(['gEt', 'cased']), { status: 200, body: { result: '1' } });
    });
  });

  describe('2. path plus body value', () => {
    it('appends the body as the last argument, byte for byte', async () => {
      assert.deepEqual(await call('/set/form2-bin', { method: 'POST', body: ALL_BYTES }), { status: 200, body: { result: 'OK' } });
      const got = await call('/get/form2-bin', { headers: B64 });
      assert.deepEqual(Buffer.from(got.body.result, 'base64'), Buffer.from(ALL_BYTES));
    });

    it('takes a JSON body as the value, unparsed', async () => {
      await call('/set/form2-json', { method: 'POST', body: '{"a": [1, 2]}' });
      assert.deepEqual(await call('/get/form2-json'), { status: 200, body: { result: '{"a": [1, 2]}' } });
    });

    it('adds query arguments after the body value', async () => {
      assert.deepEqual(await call('/set/form2-ex?EX=100', { method: 'POST', body: ALL_BYTES }), {
        status: 200,
        body: { result: 'OK' },
      });
      const got = await call('/get/form2-ex', { headers: B64 });
      assert.deepEqual(Buffer.from(got.body.result, 'base64'), Buffer.from(ALL_BYTES));
      if (TABLE.has('pttl')) {
        const ttl = (await call('/pttl/form2-ex')).body.result;
        assert.ok(ttl > 90_000 && ttl <= 100_000, `PTTL ${ttl}`);
      }
      // The order is path, body, then query: ECHO gets exactly one argument only without extras.
      assert.deepEqual(await call('/echo', { method: 'POST', body: 'v' }), { status: 200, body: { result: 'v' } });
      assert.deepEqual(await call('/echo?x', { method: 'POST', body: 'v' }), {
        status: 400,
        body: { error: "ERR wrong number of arguments for 'echo' command" },
      });
    });

    it('adds a query name without "=" as a lone argument', async () => {
      assert.deepEqual(await call('/echo?just-me', { method: 'POST' }), { status: 200, body: { result: 'just-me' } });
      assert.deepEqual(await call('/echo?a%20b=', { method: 'POST' }), {
        status: 400,
        body: { error: "ERR wrong number of arguments for 'echo' command" },
      });
    });

    it('works with PUT as with POST', async () => {
      assert.deepEqual(await call('/set/form2-put', { method: 'PUT', body: 'put' }), { status: 200, body: { result: 'OK' } });
      assert.deepEqual(await call('/get/form2-put', { method: 'PUT' }), { status: 200, body: { result: 'put' } });
    });
  });

  describe('3. JSON array body', () => {
    it('runs a command sent as a JSON array of strings and numbers', async () => {
      assert.deepEqual(await t.command(['SET', 'form3', 42]), { status: 200, body: { result: 'OK' } });
      assert.deepEqual(await t.command(['get', 'form3']), { status: 200, body: { result: '42' } });
      assert.deepEqual(await t.command(['echo', 1.5]), { status: 200, body: { result: '1.5' } });
      assert.deepEqual(await t.command(['echo', 'été']), { status: 200, body: { result: 'été' } });
    });

    it('takes booleans as the strings "true" and "false", in pipelines and transactions too', async () => {
      const post = async (path: string, body: string) => (await t.request(path, { method: 'POST', body })).json();
      assert.deepEqual(await post('', '["set","form3:b",true]'), { result: 'OK' });
      assert.deepEqual(await post('', '["get","form3:b"]'), { result: 'true' });
      assert.deepEqual(await post('/pipeline', '[["set","form3:b", false ],["get","form3:b"]]'), [{ result: 'OK' }, { result: 'false' }]);
      assert.deepEqual(await post('/multi-exec', '[["echo",true],["echo",false]]'), [{ result: 'true' }, { result: 'false' }]);
    });

    it('keeps large integers exact', async () => {
      const res = await t.request('', { method: 'POST', body: '["echo", 9223372036854775807]' });
      assert.deepEqual(await res.json(), { result: '9223372036854775807' });
    });

    it('works with PUT as with POST', async () => {
      const res = await t.request('', { method: 'PUT', body: '["echo","put"]' });
      assert.deepEqual(await res.json(), { result: 'put' });
    });
  });

  describe('methods', () => {
    it('answers HEAD with the headers GET would send, and no body', async () => {
      await call('/set/head/some-value');
      const get = await t.request('/get/head');
      const getBody = await get.text();
      const head = await t.request('/get/head', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
      assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
      assert.equal(head.headers.get('content-type'), 'application/json');
      assert.equal(head.headers.get('upstash-sync-token'), get.headers.get('upstash-sync-token'));
    });

    it('answers HEAD of a failing command with its status and length', async () => {
      const get = await t.request('/get');
      const head = await t.request('/get', { method: 'HEAD' });
      assert.equal(head.status, 400);
      assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
      assert.equal(await head.text(), '');
    });

    for (const method of ['DELETE', 'PATCH', 'PROPFIND']) {
      it(`refuses ${method} with 405 and an Allow header`, async () => {
        const res = await t.request('/get/x', { method });
        assert.equal(res.status, 405);
        assert.equal(res.headers.get('allow'), 'GET, HEAD, POST, PUT');
        assert.deepEqual(await res.json(), { error: `ERR method ${method} is not allowed; use GET, HEAD, POST or PUT` });
      });
    }
  });
});

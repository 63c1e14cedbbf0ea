// Bad input gets a clear error in the envelope and the right status, and the server keeps
// serving after each one.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, afterEach, before, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';

const NOT_A_COMMAND = 'ERR a command must be a non-empty JSON array of strings and numbers';
const NOT_A_BATCH = 'ERR a pipeline or transaction body must be a non-empty JSON array of commands';
const TOO_LARGE = 'ERR request body exceeds the limit of 1024 bytes';

describe('kv rest: bad input', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder({ maxBodyBytes: 1024 });
  });
  after(() => t.close());
  afterEach(async () => {
    // Whatever came before, a normal request still works.
    assert.deepEqual(await t.command(['echo', 'alive']), { status: 200, body: { result: 'alive' } });
  });

  async function send(path: string, init: RequestInit & { token?: string | null } = {}): Promise<{ status: number; body: any }> {
    const res = await t.request(path, init);
    return { status: res.status, body: await res.json() };
  }
  const post = (body: string | Uint8Array) => ({ method: 'POST', body });

  it('malformed JSON', async () => {
    for (const [body, at] of [
      ['', 0],
      ['[', 1],
      ['["set", "k" "v"]', 12],
      ["['set']", 1],
      ['["set","k",]', 11],
      ['["set","k",tru]', 11],
      ['["set","k",falsey]', 16],
    ] as const) {
      assert.deepEqual(await send('', post(body)), { status: 400, body: { error: `ERR failed to parse the request body as JSON at byte ${at}` } }, body);
    }
  });

  it('bodies that are not a command array', async () => {
    for (const body of ['{"cmd":"get"}', '"get k"', '42', 'null', '[]']) {
      assert.deepEqual(await send('', post(body)), { status: 400, body: { error: NOT_A_COMMAND } }, body);
    }
  });

  it('arguments that are not strings or numbers', async () => {
    for (const [arg, kind] of [
      ['null', 'null'],
      ['{"a":1}', 'an object'],
      ['["nested"]', 'an array'],
    ]) {
      assert.deepEqual(await send('', post(`["set","k",${arg}]`)), {
        status: 400,
        body: { error: `ERR command arguments must be strings or numbers, got ${kind}` },
      });
    }
  });

  it('batch bodies that are not arrays of commands', async () => {
    for (const [body, error] of [
      ['[]', NOT_A_BATCH],
      ['{}', NOT_A_BATCH],
      ['["get","k"]', NOT_A_COMMAND],
      ['[["get","k"],[]]', NOT_A_COMMAND],
      ['[["get","k"]', 'ERR failed to parse the request body as JSON at byte 12'],
    ]) {
      for (const path of ['/pipeline', '/multi-exec']) {
        assert.deepEqual(await send(path, post(body)), { status: 400, body: { error } }, `${path} ${body}`);
      }
    }
  });

  it("wrong arity, with Redis' text", async () => {
    assert.deepEqual(await send('/get'), { status: 400, body: { error: "ERR wrong number of arguments for 'get' command" } });
    assert.deepEqual(await send('/GET/a/b'), { status: 400, body: { error: "ERR wrong number of arguments for 'get' command" } });
    assert.deepEqual(await t.command(['set', 'k']), { status: 400, body: { error: "ERR wrong number of arguments for 'set' command" } });
  });

  it("unknown commands, with Redis' text", async () => {
    assert.deepEqual(await send('/nosuch/a/b'), {
      status: 400,
      body: { error: "ERR unknown command 'nosuch', with args beginning with: 'a' 'b' " },
    });
    assert.deepEqual(await t.command(['NoSuch']), { status: 400, body: { error: "ERR unknown command 'NoSuch', with args beginning with: " } });
  });

  it('no command at all', async () => {
    assert.deepEqual(await send(''), { status: 400, body: { error: 'ERR no command: put one in the path, or POST it as a JSON array' } });
  });

  it('malformed percent escapes are taken literally', async () => {
    assert.deepEqual(await send('/echo/100%25%zz%4'), { status: 200, body: { result: '100%%zz%4' } });
  });

  it('oversize bodies, in every form', async () => {
    const big = 'x'.repeat(1025);
    assert.deepEqual(await send('/set/k', post(big)), { status: 413, body: { error: TOO_LARGE } });
    assert.deepEqual(await send('', post(JSON.stringify(['set', 'k', big]))), { status: 413, body: { error: TOO_LARGE } });
    assert.deepEqual(await send('/pipeline', post(JSON.stringify([['set', 'k', big]]))), { status: 413, body: { error: TOO_LARGE } });
    assert.deepEqual(await send('/multi-exec', post(new Uint8Array(5_000_000))), { status: 413, body: { error: TOO_LARGE } });
    assert.deepEqual(await send('/get/k'), { status: 200, body: { result: null } }, 'nothing ran');
  });

  it('an oversize body sent without a length', async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new Uint8Array(200));
        c.close();
      },
    });
    const res = await t.request('/set/k', { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
    assert.deepEqual({ status: res.status, body: await res.json() }, { status: 413, body: { error: TOO_LARGE } });
  });

  it('a body exactly at the limit is read', async () => {
    assert.deepEqual(await send('/set/k', post('y'.repeat(1024))), { status: 200, body: { result: 'OK' } });
  });

  it('an upload the client abandons halfway', async () => {
    const url = new URL(`${t.kvUrl}/set/abandoned`);
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('only part of it', () => setImmediate(() => req.destroy()));
      req.on('close', () => resolve());
    });
    assert.deepEqual(await send('/get/abandoned'), { status: 200, body: { result: null } });
  });

  it('unknown database', async () => {
    const res = await fetch(`${t.url}/redis/nosuch/get/k`, { headers: { authorization: `Bearer ${t.token}` } });
    assert.deepEqual({ status: res.status, body: await res.json() }, { status: 404, body: { error: "ERR database 'nosuch' not found" } });
  });

  it('unknown service path', async () => {
    for (const path of ['/', '/nosuch/get/k', '/redisx/default/get/k']) {
      const res = await fetch(t.url + path, { headers: { authorization: `Bearer ${t.token}` } });
      assert.equal(res.status, 404, path);
      assert.equal(typeof ((await res.json()) as { error: unknown }).error, 'string');
    }
  });

  it('invalid tokens and unsupported methods', async () => {
    assert.deepEqual(await send('/get/k', { token: 'wrong-token' }), { status: 401, body: { error: 'Unauthorized' } });
    assert.equal((await send('/get/k', { method: 'DELETE' })).status, 405);
  });
});

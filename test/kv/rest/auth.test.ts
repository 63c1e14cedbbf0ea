// Tokens: the Authorization header, ?_token=, and what a read-only token may do.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';

const UNAUTHORIZED = { error: 'Unauthorized' };
const NOPERM_SET = /^NOPERM .*'set'/;

describe('kv rest: tokens', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
    await t.command(['set', 'shared', 'v']);
  });
  after(() => t.close());

  async function get(path: string, init: RequestInit & { token?: string | null } = {}): Promise<{ status: number; body: any }> {
    const res = await t.request(path, init);
    return { status: res.status, body: await res.json() };
  }

  it('accepts the token as a Bearer header, in any case of the scheme', async () => {
    assert.deepEqual(await get('/get/shared'), { status: 200, body: { result: 'v' } });
    const lower = await get('/get/shared', { token: null, headers: { authorization: `bearer ${t.token}` } });
    assert.deepEqual(lower, { status: 200, body: { result: 'v' } });
  });

  it('accepts the token as the _token query parameter, on every form', async () => {
    assert.deepEqual(await get(`/get/shared?_token=${t.token}`, { token: null }), { status: 200, body: { result: 'v' } });
    const form3 = await get(`?_token=${encodeURIComponent(t.token)}`, { token: null, method: 'POST', body: '["get","shared"]' });
    assert.deepEqual(form3, { status: 200, body: { result: 'v' } });
    const piped = await get(`/pipeline?_token=${t.token}`, { token: null, method: 'POST', body: '[["get","shared"]]' });
    assert.deepEqual(piped, { status: 200, body: [{ result: 'v' }] });
  });

  it('answers 401 when the token is missing', async () => {
    assert.deepEqual(await get('/get/shared', { token: null }), { status: 401, body: UNAUTHORIZED });
    assert.deepEqual(await get('/pipeline', { token: null, method: 'POST', body: '[["get","shared"]]' }), {
      status: 401,
      body: UNAUTHORIZED,
    });
  });

  it('answers 401 when the token is wrong, wherever it is', async () => {
    assert.deepEqual(await get('/get/shared', { token: 'not-the-token' }), { status: 401, body: UNAUTHORIZED });
    assert.deepEqual(await get('/get/shared?_token=nope', { token: null }), { status: 401, body: UNAUTHORIZED });
    assert.deepEqual(await get('/get/shared', { token: null, headers: { authorization: `Basic ${t.token}` } }), {
      status: 401,
      body: UNAUTHORIZED,
    });
    assert.deepEqual(await get('/get/shared', { token: null, headers: { authorization: 'Bearer ' } }), {
      status: 401,
      body: UNAUTHORIZED,
    });
  });

  it('does not run a command sent with a wrong token', async () => {
    await get('/set/shared/changed', { token: 'not-the-token' });
    assert.deepEqual(await get('/get/shared'), { status: 200, body: { result: 'v' } });
  });

  describe('read-only token', () => {
    it('reads', async () => {
      assert.deepEqual(await get('/get/shared', { token: t.readOnlyToken }), { status: 200, body: { result: 'v' } });
      assert.deepEqual(await get(`/get/shared?_token=${t.readOnlyToken}`, { token: null }), { status: 200, body: { result: 'v' } });
    });

    it('refuses writes with 400 and leaves the data alone', async () => {
      const res = await get('/set/shared/ro', { token: t.readOnlyToken });
      assert.equal(res.status, 400);
      assert.match(res.body.error, NOPERM_SET);
      const form3 = await t.command(['set', 'shared', 'ro'], { token: t.readOnlyToken });
      assert.equal(form3.status, 400);
      assert.match(form3.body.error, NOPERM_SET);
      assert.deepEqual(await get('/get/shared'), { status: 200, body: { result: 'v' } });
    });

    it('refuses a write at its position in a pipeline', async () => {
      const res = await get('/pipeline', { token: t.readOnlyToken, method: 'POST', body: '[["get","shared"],["set","shared","ro"]]' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body[0], { result: 'v' });
      assert.match(res.body[1].error, NOPERM_SET);
    });

    it('has a transaction with a write discarded', async () => {
      const res = await get('/multi-exec', { token: t.readOnlyToken, method: 'POST', body: '[["get","shared"],["set","shared","ro"]]' });
      assert.equal(res.status, 400);
      assert.match(res.body.error, NOPERM_SET);
      assert.deepEqual(await get('/get/shared'), { status: 200, body: { result: 'v' } });
    });

    it('refuses what changes the server without touching keys: scripts, functions, ACL users and tokens', async () => {
      const lib = "#!lua name=rolib\nredis.register_function('rof', function() return 'kept' end)";
      assert.deepEqual((await t.command(['FUNCTION', 'LOAD', 'REPLACE', lib])).body, { result: 'rolib' });
      const sha = (await t.command(['SCRIPT', 'LOAD', 'return 1'])).body.result;
      const refused: [string[], string][] = [
        [['SCRIPT', 'FLUSH'], 'script|flush'],
        [['SCRIPT', 'KILL'], 'script|kill'],
        [['SCRIPT', 'LOAD', 'return 2'], 'script|load'],
        [['FUNCTION', 'LOAD', 'REPLACE', lib], 'function|load'],
        [['FUNCTION', 'DELETE', 'rolib'], 'function|delete'],
        [['FUNCTION', 'FLUSH'], 'function|flush'],
        [['FUNCTION', 'RESTORE', 'payload'], 'function|restore'],
        [['FUNCTION', 'KILL'], 'function|kill'],
        [['ACL', 'SETUSER', 'intruder', 'on', '>pw', '+@all', '~*'], 'acl|setuser'],
        [['ACL', 'DELUSER', 'default'], 'acl|deluser'],
        [['ACL', 'RESTTOKEN', 'default', 'pw'], 'acl|resttoken'],
      ];
      for (const [argv, name] of refused) {
        assert.deepEqual(await t.command(argv, { token: t.readOnlyToken }), {
          status: 400,
          body: { error: `NOPERM this user has no permissions to run the '${name}' command or its subcommand` },
        }, argv.join(' '));
      }
      // Larder has no CONFIG SET for anyone.
      assert.equal((await t.command(['CONFIG', 'SET', 'maxmemory', '1'], { token: t.readOnlyToken })).status, 400);
      assert.deepEqual((await t.command(['SCRIPT', 'EXISTS', sha])).body, { result: [1] });
      assert.deepEqual((await t.command(['FCALL', 'rof', '0'])).body, { result: 'kept' });
      assert.deepEqual((await t.command(['ACL', 'USERS'])).body, { result: ['default'] });
      await t.command(['FUNCTION', 'DELETE', 'rolib']);
    });
  });
});

// Per-database limits from the config: max request size (per command), the daily request
// limit and the largest reply, on single commands, pipelines and transactions.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';

describe('kv rest: request limits', () => {
  let t: TestLarder;
  let dailyUrl: string;
  let dailyToken: string;
  before(async () => {
    t = await startTestLarder({
      kv: { databases: { default: { maxRequestSize: 64 }, daily: { dailyRequestLimit: 6 }, replies: { maxReplyBytes: 1000 } } },
    });
    const daily = t.database('daily');
    dailyUrl = daily.kvUrl;
    dailyToken = daily.token;
  });
  after(() => t.close());

  async function call(base: string, token: string, path: string, body?: string): Promise<{ status: number; body: any }> {
    const res = await fetch(base + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}` },
      body,
    });
    return { status: res.status, body: await res.json() };
  }
  const big = 'v'.repeat(60); // "set" + "big" + 60 bytes = 66 > 64
  const TOO_BIG = 'ERR max request size exceeded. Limit: 64 bytes, Actual: 66 bytes';

  describe('maxRequestSize', () => {
    const kv = (path: string, body?: string) => call(t.kvUrl, t.token, path, body);

    it('refuses a single command over the size, in every form', async () => {
      assert.deepEqual(await kv(`/set/big/${big}`), { status: 400, body: { error: TOO_BIG } });
      assert.deepEqual(await kv('/set/big', big), { status: 400, body: { error: TOO_BIG } });
      assert.deepEqual(await kv('', JSON.stringify(['set', 'big', big])), { status: 400, body: { error: TOO_BIG } });
      assert.deepEqual(await kv('/get/big'), { status: 200, body: { result: null } });
    });

    it('lets a command at the size through', async () => {
      assert.deepEqual(await kv(`/set/big/${big.slice(2)}`), { status: 200, body: { result: 'OK' } });
      await kv('/del/big');
    });

    it('refuses only that command in a pipeline', async () => {
      const res = await kv('/pipeline', JSON.stringify([['set', 'small', '1'], ['set', 'big', big], ['get', 'small']]));
      assert.deepEqual(res, { status: 200, body: [{ result: 'OK' }, { error: TOO_BIG }, { result: '1' }] });
    });

    it('discards a transaction with a command over the size', async () => {
      const res = await kv('/multi-exec', JSON.stringify([['set', 'tx', '1'], ['set', 'big', big]]));
      assert.deepEqual(res, { status: 400, body: { error: TOO_BIG } });
      assert.deepEqual(await kv('/get/tx'), { status: 200, body: { result: null } });
    });
  });

  describe('dailyRequestLimit', () => {
    const daily = (path: string, body?: string) => call(dailyUrl, dailyToken, path, body);
    const OVER = 'ERR max daily request limit exceeded. Limit: 6, Usage: 6';

    it('counts commands, refuses those over the limit, and discards a transaction that would pass it', async () => {
      // 6 a day: 3 in a pipeline, 2 singles, then a 2-command transaction would make 7.
      assert.deepEqual(await daily('/pipeline', '[["set","a","1"],["get","a"],["echo","x"]]'), {
        status: 200,
        body: [{ result: 'OK' }, { result: '1' }, { result: 'x' }],
      });
      assert.deepEqual(await daily('/get/a'), { status: 200, body: { result: '1' } });
      assert.deepEqual(await daily('/get/a'), { status: 200, body: { result: '1' } });
      assert.deepEqual(await daily('/multi-exec', '[["set","a","2"],["get","a"]]'), { status: 400, body: { error: OVER } });
      // The discarded transaction counted nothing: one command is left.
      assert.deepEqual(await daily('/get/a'), { status: 200, body: { result: '1' } });
      assert.deepEqual(await daily('/get/a'), { status: 400, body: { error: OVER } });
      assert.deepEqual(await daily('/pipeline', '[["get","a"],["ping"]]'), {
        status: 200,
        body: [{ error: OVER }, { error: OVER }],
      });
    });

    it('is per database', async () => {
      assert.deepEqual(await call(t.kvUrl, t.token, '/echo/other'), { status: 200, body: { result: 'other' } });
    });
  });

  describe('maxReplyBytes', () => {
    const TOO_LARGE = 'ERR reply too large: its strings hold over 1000 bytes (maxReplyBytes); read it in parts, as GETRANGE, LRANGE or SCAN do';
    const db = () => t.database('replies');
    const kv = (path: string, body?: string, headers: Record<string, string> = {}) =>
      fetch(db().kvUrl + path, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${db().token}`, ...headers }, body });
    const json = async (path: string, body?: string) => {
      const res = await kv(path, body);
      return { status: res.status, body: await res.json() };
    };

    it('answers a reply over the bound with an error, after the command ran', async () => {
      const redis = sdkClient(db());
      assert.equal(await redis.set('big', 'x'.repeat(1200)), 'OK');
      assert.deepEqual(await json('/get/big'), { status: 400, body: { error: TOO_LARGE } });
      await assert.rejects(redis.get('big'), (e: Error) => e.message.includes('ERR reply too large'));
      assert.equal(await redis.strlen('big'), 1200);
      assert.equal((await redis.getrange('big', 0, 899)).length, 900);
      assert.equal(await redis.rpush('list', 'a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)), 3);
      assert.deepEqual(await json('/lrange/list/0/-1'), { status: 400, body: { error: TOO_LARGE } });
      assert.deepEqual(await redis.lrange('list', 0, 1), ['a'.repeat(400), 'b'.repeat(400)]);
      const resp2 = await kv('/get/big', undefined, { 'upstash-response-format': 'resp2' });
      assert.equal(await resp2.text(), `-${TOO_LARGE}\r\n`);
    });

    it('bounds a pipeline and a transaction as a whole: each reply past it is the error, the rest are answered', async () => {
      const commands = JSON.stringify([['set', 'k', 'v'.repeat(600)], ['get', 'k'], ['get', 'k'], ['strlen', 'k']]);
      const expected = [{ result: 'OK' }, { result: 'v'.repeat(600) }, { error: TOO_LARGE }, { result: 600 }];
      assert.deepEqual(await json('/pipeline', commands), { status: 200, body: expected });
      assert.deepEqual(await json('/multi-exec', commands), { status: 200, body: expected });
    });
  });
});

// On a remote backend the default database's replies far past the bound (and past 1 MiB) are
// refused as they arrive from the server (resp2-decoder.ts); the connection goes on serving.
describe('kv rest: maxReplyBytes of the default database', () => {
  const TOO_LARGE = 'ERR reply too large: its strings hold over 1000 bytes (maxReplyBytes); read it in parts, as GETRANGE, LRANGE or SCAN do';
  let t: TestLarder;
  before(async () => (t = await startTestLarder({ kv: { databases: { default: { maxReplyBytes: 1000 } } } })));
  after(() => t.close());

  it('refuses a string, a list and a hash of megabytes, and answers what comes after them', async () => {
    const redis = sdkClient(t);
    await redis.set('huge', 'x'.repeat(3_000_000));
    for (let i = 0; i < 4; i++) await redis.rpush('long', ...Array.from({ length: 50_000 }, (_, j) => `item${i}:${j}`));
    await redis.hset('wide', Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`f${i}`, i])));
    await redis.set('small', 'fine');
    for (const argv of [['get', 'huge'], ['lrange', 'long', '0', '-1'], ['hgetall', 'wide']]) {
      const [big, next] = await Promise.all([t.command(argv), t.command(['get', 'small'])]);
      assert.deepEqual([big.status, big.body], [400, { error: TOO_LARGE }], argv[0]);
      assert.deepEqual(next.body, { result: 'fine' });
    }
    const pipeline = await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['get', 'small'], ['lrange', 'long', '0', '-1'], ['strlen', 'huge'], ['get', 'small']]) });
    assert.deepEqual(await pipeline.json(), [{ result: 'fine' }, { error: TOO_LARGE }, { result: 3_000_000 }, { result: 'fine' }]);
    assert.equal((await redis.getrange('huge', 0, 899)).length, 900);
  });
});

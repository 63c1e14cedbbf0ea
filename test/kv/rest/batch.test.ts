// /pipeline and /multi-exec through real HTTP: order, positions, and what discards a transaction.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { suiteLarder } from '../../support/larder.js';

const UNKNOWN_FOO = "ERR unknown command 'foo', with args beginning with: 'a' ";
const GET_ARITY = "ERR wrong number of arguments for 'get' command";

describe('kv rest: pipeline and multi-exec', () => {
  const t = suiteLarder();

  async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
    const res = await t.request(path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  }

  describe('/pipeline', () => {
    it('runs every command in order, one reply object each', async () => {
      const res = await post('/pipeline', [
        ['set', '{t}p1', 'a'],
        ['GET', '{t}p1'],
        ['set', '{t}p1', 'b'],
        ['get', '{t}p1'],
        ['del', '{t}p1', '{t}p-none'],
        ['get', '{t}p1'],
      ]);
      assert.deepEqual(res, {
        status: 200,
        body: [{ result: 'OK' }, { result: 'a' }, { result: 'OK' }, { result: 'b' }, { result: 1 }, { result: null }],
      });
    });

    it('reports a failure at its position with status 200, and runs the rest', async () => {
      const res = await post('/pipeline', [['set', 'p2', 'x'], ['foo', 'a'], ['get'], ['watch', 'p2'], ['set', 'p2', 'y'], ['get', 'p2']]);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, [
        { result: 'OK' },
        { error: UNKNOWN_FOO },
        { error: GET_ARITY },
        { error: "ERR Command is not available: 'watch'. See https://upstash.com/docs/redis/overall/rediscompatibility for details" },
        { result: 'OK' },
        { result: 'y' },
      ]);
    });

    it('refuses a body that is not a batch of commands as a whole', async () => {
      assert.deepEqual(await post('/pipeline', [['set', 'p3', 'x'], 'get']), {
        status: 400,
        body: { error: 'ERR a command must be a non-empty JSON array of strings and numbers' },
      });
      assert.deepEqual((await post('', ['get', 'p3'])).body, { result: null }, 'nothing ran');
    });
  });

  describe('/multi-exec', () => {
    it('runs the commands atomically, one reply object each', async () => {
      const res = await post('/multi-exec', [
        ['set', 't1', '1'],
        ['get', 't1'],
        ['Del', 't1'],
        ['get', 't1'],
        ['echo', 'done'],
      ]);
      assert.deepEqual(res, {
        status: 200,
        body: [{ result: 'OK' }, { result: '1' }, { result: 1 }, { result: null }, { result: 'done' }],
      });
    });

    const discards: [string, unknown, string][] = [
      ['an unknown command', [['set', 'tx', '1'], ['foo', 'a']], UNKNOWN_FOO],
      ['a command with the wrong number of arguments', [['set', 'tx', '1'], ['get']], GET_ARITY],
      [
        'an unsupported command (WATCH)',
        [['set', 'tx', '1'], ['watch', 'tx']],
        "ERR Command is not available: 'watch'. See https://upstash.com/docs/redis/overall/rediscompatibility for details",
      ],
      [
        'a nested MULTI',
        [['multi'], ['set', 'tx', '1']],
        "ERR Command is not available: 'multi'. See https://upstash.com/docs/redis/overall/rediscompatibility for details",
      ],
      ['a syntax error in the request', '[["set","tx","1"],["get",null]]', 'ERR command arguments must be strings or numbers, got null'],
      ['malformed JSON', '[["set","tx","1"],', 'ERR failed to parse the request body as JSON at byte 18'],
      ['an empty body', '[]', 'ERR a pipeline or transaction body must be a non-empty JSON array of commands'],
      // Stream-only commands run only as /subscribe, /monitor, ...: the `unsupported` rule, on both backends.
      [
        'a stream-only command (SUBSCRIBE)',
        [['set', 'tx', '1'], ['subscribe', 'ch']],
        "ERR Command is not available: 'subscribe'. See https://upstash.com/docs/redis/overall/rediscompatibility for details",
      ],
      [
        'a stream-only command (MONITOR)',
        [['set', 'tx', '1'], ['MONITOR']],
        "ERR Command is not available: 'monitor'. See https://upstash.com/docs/redis/overall/rediscompatibility for details",
      ],
    ];
    for (const [why, body, error] of discards) {
      it(`is discarded as a whole, with one failure object, for ${why}`, async () => {
        assert.deepEqual(await post('/multi-exec', body), { status: 400, body: { error } });
        assert.deepEqual((await post('', ['get', 'tx'])).body, { result: null }, 'nothing ran');
      });
    }

    it('is discarded for a blocking command, which REST cannot serve', async () => {
      const res = await post('/multi-exec', [['set', 'tx', '1'], ['blpop', 'l', '0']]);
      assert.equal(res.status, 400);
      assert.match(res.body.error, /^ERR .*'blpop'/);
      assert.deepEqual((await post('', ['get', 'tx'])).body, { result: null });
    });

    // INCR comes with the string family; until it is in the table nothing fails at run time.
    it('reports a command that fails while running at its position, and runs the others', { skip: !TABLE.has('incr') && 'needs INCR' }, async () => {
      const res = await post('/multi-exec', [['set', '{t}tx-run', 'abc'], ['incr', '{t}tx-run'], ['set', '{t}tx-after', '1'], ['get', '{t}tx-run']]);
      assert.deepEqual(res, {
        status: 200,
        body: [{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }, { result: 'OK' }, { result: 'abc' }],
      });
      assert.deepEqual((await post('', ['get', '{t}tx-after'])).body, { result: '1' });
    });
  });
});

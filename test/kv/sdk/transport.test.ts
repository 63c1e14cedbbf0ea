// The official @upstash/redis client against Larder's REST transport: single commands,
// pipeline(), multi(), auto-pipelining on and off, base64 and plain responses, the
// read-your-writes sync token, and error messages.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { suiteLarder } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient } from '../../support/sdk.js';

const ENCODINGS = ['base64', false] as const;

describe('kv sdk: transport', () => {
  const t = suiteLarder();

  for (const mode of PIPELINE_MODES) {
    for (const encoding of ENCODINGS) {
      describe(`${mode.name}, responseEncoding ${encoding}`, () => {
        const p = `{${mode.name}:${encoding}}:`; // a hash tag: the keys of a suite share a Cluster slot
        const client = (readOnly = false) => sdkClient(t, { autoPipeline: mode.autoPipeline, encoding, readOnly });

        it('round-trips text, numbers and objects', async () => {
          const redis = client();
          const text = 'héllo ✓ 😀 "quoted" \\ \n';
          const sets = await Promise.all([
            redis.set(`${p}text`, text),
            redis.set(`${p}num`, 42),
            redis.set(`${p}obj`, { a: [1, 'two'], b: null }),
            redis.set(`${p}ok`, 'OK'),
            // Reads as base64 itself: comes back as sent only if the encoding is really applied.
            redis.set(`${p}b64`, 'aGVsbG8='),
          ]);
          assert.deepEqual(sets, ['OK', 'OK', 'OK', 'OK', 'OK']);
          const got = await Promise.all([
            redis.get(`${p}text`),
            redis.get(`${p}num`),
            redis.get(`${p}obj`),
            redis.get(`${p}ok`),
            redis.get(`${p}b64`),
            redis.get(`${p}none`),
          ]);
          assert.deepEqual(got, [text, 42, { a: [1, 'two'], b: null }, 'OK', 'aGVsbG8=', null]);
          assert.equal(await redis.echo('é'), 'é');
          assert.equal(await redis.ping(), 'PONG');
          assert.equal(await redis.del(`${p}text`, `${p}num`, `${p}none`), 2);
        });

        it('runs pipeline() in order', async () => {
          const redis = client();
          const results = await redis.pipeline().set(`${p}pl`, 'v1').get(`${p}pl`).set(`${p}pl`, 'v2').get(`${p}pl`).del(`${p}pl`).exec();
          assert.deepEqual(results, ['OK', 'v1', 'OK', 'v2', 1]);
        });

        it('reports a failing command at its position in pipeline()', async () => {
          await client().set(`${p}ro`, 'r');
          const pipe = client(true).pipeline().get(`${p}ro`).set(`${p}ro`, 'w').get(`${p}ro`);
          const results = await pipe.exec({ keepErrors: true });
          assert.deepEqual(results[0], { result: 'r', error: undefined });
          assert.match(String(results[1].error), /^NOPERM .*'set'/);
          assert.deepEqual(results[2], { result: 'r', error: undefined });
          await assert.rejects(client(true).pipeline().get(`${p}ro`).set(`${p}ro`, 'w').exec(), (e: Error) => {
            assert.match(e.message, /^Command 2 \[ set \] failed: NOPERM .*'set'/);
            return true;
          });
        });

        it('runs multi() as one transaction', async () => {
          const results = await client().multi().set(`${p}tx`, 'a').get(`${p}tx`).del(`${p}tx`).get(`${p}tx`).exec();
          assert.deepEqual(results, ['OK', 'a', 1, null]);
        });

        it('gets a discarded multi() as one error, and nothing runs', async () => {
          await assert.rejects(client(true).multi().get(`${p}tx2`).set(`${p}tx2`, 'x').exec(), (e: Error) => {
            assert.match(e.message, /^NOPERM .*'set'.*, command was: /);
            return true;
          });
          assert.equal(await client().get(`${p}tx2`), null);
        });

        it('reports a command that fails inside multi() at its position', { skip: !TABLE.has('incr') && 'needs INCR' }, async () => {
          const redis = client();
          await redis.set(`${p}notnum`, 'abc');
          const results = await redis.multi().incr(`${p}notnum`).set(`${p}after`, 'y').get(`${p}notnum`).exec({ keepErrors: true });
          assert.deepEqual(results[0].error, 'ERR value is not an integer or out of range');
          assert.deepEqual(results.slice(1), [
            { result: 'OK', error: undefined },
            { result: 'abc', error: undefined },
          ]);
        });

        it("carries Redis' exact error text in the SDK's error", async () => {
          await assert.rejects(client().exec(['get']), (e: Error) => {
            assert.equal(e.message, `ERR wrong number of arguments for 'get' command, command was: ["get"]`);
            return true;
          });
          await assert.rejects(client().exec(['nosuch', 'a']), (e: Error) => {
            assert.equal(e.message, `ERR unknown command 'nosuch', with args beginning with: 'a' , command was: ["nosuch","a"]`);
            return true;
          });
          await assert.rejects(client(true).set(`${p}ro`, 'w'), (e: Error) => {
            assert.match(e.message, /NOPERM this user has no permissions to run the 'set' command/);
            return true;
          });
        });

        it('follows the sync token: new after writes, the same after reads', async () => {
          const redis = client();
          await redis.get(`${p}ryw`);
          const first = redis.readYourWritesSyncToken;
          assert.ok(first, 'a token after the first answer');
          await redis.set(`${p}ryw`, '1');
          const second = redis.readYourWritesSyncToken;
          assert.notEqual(second, first);
          assert.equal(await redis.get(`${p}ryw`), 1);
          assert.equal(redis.readYourWritesSyncToken, second);
          await redis.del(`${p}ryw`);
          assert.notEqual(redis.readYourWritesSyncToken, second);
          // A client handed another's token reads what that one wrote.
          const other = client();
          other.readYourWritesSyncToken = redis.readYourWritesSyncToken;
          assert.equal(await other.get(`${p}ryw`), null);
        });
      });
    }

    if (mode.autoPipeline) {
      it('auto-pipelining batches concurrent commands into one request', async () => {
        const redis = sdkClient(t, { autoPipeline: true });
        const counter = () => (redis as unknown as { pipelineCounter: number }).pipelineCounter;
        await redis.set('ap:a', '1');
        const before = counter();
        // Reads and writes go in separate pipelines, sent at once: the write touches another key.
        const results = await Promise.all([redis.get('ap:a'), redis.set('ap:b', '2'), redis.echo('x'), redis.get('ap:none')]);
        assert.deepEqual(results, [1, 'OK', 'x', null]);
        assert.equal(counter() - before, 2, 'one read and one write pipeline');
      });
    }
  }
});

// The official SDK against whichever runtime serves (LARDER_TEST_RUNTIME): npm test runs this
// folder once in-process on Node and once against `larder start` under Bun.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder, TEST_RUNTIME } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient } from '../../support/sdk.js';

describe(`sdk on ${TEST_RUNTIME}`, () => {
  const t = suiteLarder();

  it('is served by the runtime the run asked for', () => {
    assert.equal(t.runtime, TEST_RUNTIME);
  });

  for (const mode of PIPELINE_MODES) {
    it(`round-trips every byte value (${mode.name})`, async () => {
      const redis = sdkClient(t, { autoPipeline: mode.autoPipeline });
      const all = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');
      const text = `héllo ${mode.name} ✓`;
      assert.equal(await redis.set(`text:${mode.name}`, text), 'OK');
      assert.equal(await redis.get(`text:${mode.name}`), text);
      // Every code point below 256 goes up in a JSON body and comes back intact in base64.
      const res = await t.request('', {
        method: 'POST',
        body: Buffer.from(JSON.stringify(['set', `bytes:${mode.name}`, all]), 'utf8'),
      });
      assert.equal(res.status, 200);
      const back = await t.request(`/get/bytes:${mode.name}`, { headers: { 'upstash-encoding': 'base64' } });
      const { result } = (await back.json()) as { result: string };
      assert.equal(Buffer.from(result, 'base64').toString('utf8'), all);
    });
  }

  it('answers a pipeline through the SDK', async () => {
    const redis = sdkClient(t);
    const replies = await redis.pipeline().set('p:1', 'one').get('p:1').del('p:1').get('p:1').exec();
    assert.deepEqual(replies, ['OK', 'one', 1, null]);
  });
});

// The HyperLogLog commands as the official @upstash/redis SDK calls them, with auto-pipelining
// off and on: the typed results it returns, and Redis's estimates.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

const elements = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `el:${from + i}`);

for (const mode of PIPELINE_MODES) {
  describe(`hyperloglog commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('pfadd and pfcount', async () => {
      assert.equal(await redis.pfadd('h', 'a', 'b', 'c'), 1);
      assert.equal(await redis.pfadd('h', 'a'), 0);
      assert.equal(await redis.pfcount('h'), 3);
      assert.equal(await redis.pfcount('none'), 0);
      // Elements are serialized as the SDK serializes values: objects as JSON.
      assert.equal(await redis.pfadd('h', { id: 1 }, 7), 1);
      assert.equal(await redis.pfcount('h'), 5);
    });

    it('estimates as Redis does', async () => {
      assert.equal(await redis.pfadd('big', ...elements(0, 1000)), 1);
      assert.equal(await redis.pfcount('big'), 999);
      assert.equal(await redis.pfadd('big', ...elements(1000, 5000)), 1);
      assert.equal(await redis.pfcount('big'), 4959);
    });

    it('pfcount of several keys and pfmerge', async () => {
      await redis.pfadd('{t}u:a', ...elements(0, 1000));
      await redis.pfadd('{t}u:b', ...elements(3000, 4000));
      assert.equal(await redis.pfcount('{t}u:a', '{t}u:b'), 2004);
      assert.equal(await redis.pfmerge('{t}u:m', '{t}u:a', '{t}u:b'), 'OK');
      assert.equal(await redis.pfcount('{t}u:m'), 2004);
      await redis.set('{t}u:str', 'hello');
      await assert.rejects(redis.pfmerge('{t}u:m', '{t}u:str'), /WRONGTYPE Key is not a valid HyperLogLog string value\./);
    });
  });
}

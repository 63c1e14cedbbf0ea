// @upstash/ratelimit against a Larder over HTTP: every single-region algorithm, with and without
// its ephemeral cache. The limit must hold exactly under concurrent callers, which needs each
// script to run atomically; getRemaining and resetUsedTokens read and reset the same state.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ratelimit } from '@upstash/ratelimit';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

const LIMIT = 10;
const CALLERS = 50;

const ALGORITHMS = [
  ['fixedWindow', () => Ratelimit.fixedWindow(LIMIT, '60 s')],
  ['slidingWindow', () => Ratelimit.slidingWindow(LIMIT, '60 s')],
  ['tokenBucket', () => Ratelimit.tokenBucket(LIMIT, '60 s', LIMIT)],
] as const;

for (const mode of PIPELINE_MODES) {
  describe(`@upstash/ratelimit against Larder (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    for (const [name, limiter] of ALGORITHMS) {
      for (const cached of [false, true]) {
        it(`${name}, ephemeral cache ${cached ? 'on' : 'off'}: exactly ${LIMIT} of ${CALLERS} concurrent calls pass`, async () => {
          const ratelimit = new Ratelimit({
            redis,
            limiter: limiter(),
            prefix: `rl:${name}:${cached}`,
            ephemeralCache: cached ? new Map() : false,
            analytics: false,
          });
          const results = await Promise.all(Array.from({ length: CALLERS }, () => ratelimit.limit('user')));
          assert.equal(results.filter((r) => r.success).length, LIMIT);
          for (const r of results) {
            assert.equal(r.limit, LIMIT);
            assert.ok(r.reset > Date.now() - 1000, 'reset is a future timestamp');
          }
          const remaining = await ratelimit.getRemaining('user');
          assert.equal(remaining.remaining, 0);
          assert.equal(remaining.limit, LIMIT);
          // Another identifier has its own budget.
          assert.equal((await ratelimit.limit('other')).remaining, LIMIT - 1);
          assert.equal((await ratelimit.getRemaining('other')).remaining, LIMIT - 1);

          await ratelimit.resetUsedTokens('other');
          assert.equal((await ratelimit.getRemaining('other')).remaining, LIMIT);
          await ratelimit.resetUsedTokens('user');
          assert.equal((await ratelimit.getRemaining('user')).remaining, LIMIT);
          if (!cached) {
            // The ephemeral cache keeps blocking a reset identifier in this process until the window ends.
            const again = await ratelimit.limit('user');
            assert.equal(again.success, true);
            assert.equal(again.remaining, LIMIT - 1);
          }
        });
      }
    }

  });
}

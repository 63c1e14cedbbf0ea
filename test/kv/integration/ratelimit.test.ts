// @upstash/ratelimit against a Larder over HTTP: every single-region algorithm, with and without
// its ephemeral cache, and cachedFixedWindow. The limit must hold exactly under concurrent
// callers, which needs each script to run atomically; getRemaining and resetUsedTokens read and
// reset the same state. The multi-region limiter runs over two databases of one Larder, as
// over two regions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MultiRegionRatelimit, Ratelimit } from '@upstash/ratelimit';
import { notOnCluster, suiteLarder } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient, suiteSdk } from '../../support/sdk.js';

const LIMIT = 10;
const CALLERS = 50;
/** The limiters' windows start at multiples of their length since the epoch. */
const WINDOW = '1 h';
const WINDOW_MS = 3_600_000;

/**
 * A test whose calls straddle a window's start sees its counts move to the previous window
 * (slidingWindow then weighs them, fixedWindow forgets them): begin with a minute left at least.
 */
async function clearOfWindowEnd(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 10));
}

/** tokenBucket keeps one key, its reset pattern; the others do not fit a Cluster. */
const ON_ONE_NODE = notOnCluster(
  "@upstash/ratelimit's resetUsedTokens SCANs in a script, which sees one node; slidingWindow's two windows are keys of different slots",
);

const ALGORITHMS = [
  ['fixedWindow', () => Ratelimit.fixedWindow(LIMIT, WINDOW)],
  ['slidingWindow', () => Ratelimit.slidingWindow(LIMIT, WINDOW)],
  ['tokenBucket', () => Ratelimit.tokenBucket(LIMIT, WINDOW, LIMIT)],
] as const;

for (const mode of PIPELINE_MODES) {
  describe(`@upstash/ratelimit against Larder (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    for (const [name, limiter] of ALGORITHMS) {
      for (const cached of [false, true]) {
        (name === 'tokenBucket' ? it : ON_ONE_NODE)(`${name}, ephemeral cache ${cached ? 'on' : 'off'}: exactly ${LIMIT} of ${CALLERS} concurrent calls pass`, async () => {
          await clearOfWindowEnd();
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

describe('@upstash/ratelimit cachedFixedWindow against Larder', () => {
  const { redis } = suiteSdk(PIPELINE_MODES[0]);

  it(`lets exactly ${LIMIT} of ${CALLERS} concurrent calls pass, then blocks from the cache`, async () => {
    await clearOfWindowEnd();
    const cache = new Map<string, number>();
    const ratelimit = new Ratelimit({ redis, limiter: Ratelimit.cachedFixedWindow(LIMIT, WINDOW), ephemeralCache: cache, analytics: false });
    // The cache answers at once and updates the database in the background: settle each call.
    let passed = 0;
    for (let i = 0; i < CALLERS; i++) {
      const r = await ratelimit.limit('user');
      await r.pending;
      if (r.success) passed++;
    }
    assert.equal(passed, LIMIT);
    const [key] = await redis.keys('@upstash/ratelimit:user:*');
    assert.ok(key !== undefined, 'the window counter is stored');
    // Once the cache knows the window is spent it answers alone: the database counted the passes.
    assert.equal(Number(await redis.get(key)), LIMIT);
  });
});

describe('@upstash/ratelimit MultiRegionRatelimit over two databases', () => {
  const t = suiteLarder({ kv: { databases: { east: {}, west: {} } } });

  for (const [name, limiter] of [
    ['fixedWindow', () => MultiRegionRatelimit.fixedWindow(LIMIT, WINDOW)],
    ['slidingWindow', () => MultiRegionRatelimit.slidingWindow(LIMIT, WINDOW)],
  ] as const) {
    it(`${name}: the regions together let exactly ${LIMIT} calls pass`, async () => {
      await clearOfWindowEnd();
      const regions = ['east', 'west'].map((db) => sdkClient(t.database(db)));
      // Its types reach @upstash/redis through another module resolution; the class is the same.
      const redis = regions as unknown as ConstructorParameters<typeof MultiRegionRatelimit>[0]['redis'];
      const ratelimit = new MultiRegionRatelimit({ redis, limiter: limiter(), prefix: `mr:${name}`, analytics: false });
      let passed = 0;
      for (let i = 0; i < 2 * LIMIT; i++) {
        const r = await ratelimit.limit('user');
        // A call answers from the first region and brings the others up to date afterwards.
        await r.pending;
        if (r.success) passed++;
      }
      assert.equal(passed, LIMIT);
      for (const region of regions) assert.ok((await region.keys(`mr:${name}:user:*`)).length > 0, 'each region holds the window');
    });
  }
});

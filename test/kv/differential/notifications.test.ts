// Keyspace notifications against redis-server: with `notify-keyspace-events KEAnm` on both
// sides (every class, key misses included), the seeded command sequences of the differential
// runs must publish the same events, in the same order, on the same `__keyspace@0__` and
// `__keyevent@0__` channels (keyspace-tap.ts reads them up to a marker after each step), besides
// answering the same replies. Upstash's "Listen Keyspace Notifications" page describes the
// feature; Redis 7.0 is the oracle for the event of each command. LARDER_DIFF_SEED and
// LARDER_DIFF_STEPS apply as in differential.test.ts.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { Times } from './alphabet.js';
import { BITMAP_GENS } from './bitmap-steps.js';
import { EXCLUSIONS } from './exclusions.js';
import { GENERIC_GENS, SEED_GENS } from './generic-steps.js';
import { GEO_GENS } from './geo-steps.js';
import { HASH_GENS } from './hash-steps.js';
import { describeMismatches, runSequence, type CommandGen } from './harness.js';
import { HLL_GENS } from './hll-steps.js';
import { KeyspaceTap } from './keyspace-tap.js';
import { larderCall } from './larder-resp2.js';
import { LIST_GENS } from './list-steps.js';
import { Rng } from './prng.js';
import { findRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { SCRIPTING_GENS } from './scripting-steps.js';
import { SET_GENS } from './set-steps.js';
import { SORT_GENS, weighsInHashOrder } from './sort-steps.js';
import { STREAM_GENS } from './stream-steps.js';
import { STRING_GENS } from './string-steps.js';
import { SMALL, ZSET_COMPANION_GENS, zsetGens } from './zset-steps.js';

const SEEDS = (process.env.LARDER_DIFF_SEED ?? '11,12,13').split(',').map(Number);
const STEPS = Number(process.env.LARDER_DIFF_STEPS ?? 300);

const RUNS: readonly { label: string; gens: readonly CommandGen[]; setup?: readonly string[][] }[] = [
  { label: 'string family', gens: STRING_GENS },
  { label: 'generic family', gens: [...GENERIC_GENS, ...SEED_GENS] },
  { label: 'list family', gens: [...LIST_GENS, ...SEED_GENS] },
  { label: 'set family', gens: [...SET_GENS, ...SEED_GENS] },
  { label: 'hash family', gens: [...HASH_GENS, ...SEED_GENS] },
  { label: 'sorted-set family', gens: [...zsetGens(SMALL), ...ZSET_COMPANION_GENS] },
  { label: 'stream family', gens: STREAM_GENS },
  { label: 'bitmap family', gens: [...BITMAP_GENS, ...SEED_GENS] },
  { label: 'hyperloglog family', gens: HLL_GENS },
  { label: 'geo family', gens: GEO_GENS },
  { label: 'sort', gens: SORT_GENS },
  { label: 'scripting', gens: SCRIPTING_GENS, setup: [['SCRIPT', 'FLUSH'], ['FUNCTION', 'FLUSH']] },
];

const redisBin = findRedisServer();

describe('differential: keyspace notifications', { skip: redisBin === undefined ? 'redis-server is not on PATH' : false }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  let tap: KeyspaceTap;
  before(async () => {
    [redis, t] = await Promise.all([startRedisServer(redisBin!), startTestLarder()]);
    for (const argv of [['CONFIG', 'SET', 'notify-keyspace-events', 'KEAnm']]) {
      await redis.client.call(argv);
      assert.equal((await larderCall(t, argv)).raw, '+OK\r\n');
    }
    tap = await KeyspaceTap.open(redis.client, redis.port, t);
  });
  after(async () => {
    tap?.close();
    await Promise.all([redis?.stop(), t?.close()]);
    if (t !== undefined) rmSync(t.dataDir, { recursive: true, force: true });
  });

  for (const seed of SEEDS) {
    for (const run of RUNS) {
      it(`${run.label}, seed ${seed}`, async (ctx) => {
        ctx.diagnostic(`seed ${seed} (LARDER_DIFF_SEED=${seed}), ${STEPS} steps`);
        for (const argv of [['FLUSHDB'], ...(run.setup ?? [])]) {
          await redis.client.call(argv);
          await larderCall(t, argv);
        }
        await tap.drain();
        const result = await runSequence(
          { redis: redis.client, larder: t },
          {
            steps: STEPS,
            gens: run.gens,
            exclusions: EXCLUSIONS,
            times: new Times(),
            rng: new Rng(seed),
            errorRate: 0.05,
            alsoCompare: async (argv) => {
              const events = await tap.drain();
              // A set's or sorted set's SORT BY looks keys up in Redis's hash-table order: compared as multisets.
              if (weighsInHashOrder(argv)) for (const list of [events.redis, events.larder]) list.sort();
              const [a, b] = [events.redis.join(' | '), events.larder.join(' | ')];
              return a === b ? undefined : { why: 'keyspace events differ', redis: a, larder: b };
            },
          },
        );
        assert.equal(result.mismatches.length, 0, describeMismatches(run.label, seed, STEPS, result));
      });
    }
  }
});

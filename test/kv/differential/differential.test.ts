// Differential tests: the same seeded random command sequences run against a real
// redis-server (the oracle) and a Larder over HTTP with `Upstash-Response-Format: resp2`, and
// every reply must match byte for byte, except where listed below.
//
// Seeds: fixed ones by default, so CI is repeatable; LARDER_DIFF_SEED=<n>[,<n>...] replays
// others and LARDER_DIFF_STEPS=<n> changes the length. Every run prints its seed.
// Without redis-server on PATH the suite is skipped, or fails when CI is set.
//
// Not compared, or compared loosely, and why:
// - Cases in EXCLUSIONS below: Larder follows Upstash there (each is a `deviates` entry of
//   the command table, and a test checks the two lists agree).
// - SCAN cursors are opaque and differ: a full iteration runs on each side and the sets of
//   keys seen must match. Upstash's SCAN WITHTYPE is not in Redis and is not generated.
// - KEYS order differs: the arrays compare as multisets.
// - RANDOMKEY is random: both nil or both a key.
// - HRANDFIELD is random: both nil or both a field; with a count, arrays of the same length.
// - TTL, PTTL, EXPIRETIME, PEXPIRETIME: the two sides receive a command a few milliseconds
//   apart, so relative expiries differ by that much. Equal, or both non-negative and within
//   2 s / 2000 ms. Relative expiries never meet GT/LT (see generic-steps.ts).
// - Not generated at all: DUMP/RESTORE (Larder's payload format is its own), TIME and INFO
//   (different by nature), FLUSHALL (the same as FLUSHDB with one database), relative expiries
//   short enough to run out during a run.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INT64_MAX } from '../../../src/kv/commands/args.js';
import { MAX_RANDOM_PICKS } from '../../../src/kv/commands/hash/random.js';
import { TABLE } from '../../../src/kv/commands/table.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { Times } from './alphabet.js';
import { GENERIC_GENS, SEED_GENS } from './generic-steps.js';
import { HASH_GENS } from './hash-steps.js';
import { describeMismatches, runSequence, type CommandGen, type Exclusion } from './harness.js';
import { Rng } from './prng.js';
import { findRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { STRING_GENS } from './string-steps.js';

const EXCLUSIONS: readonly Exclusion[] = [
  {
    command: 'copy',
    reason: 'COPY with the same source and destination returns 0 (Upstash), where Redis errors',
    applies: (argv) => argv[1] === argv[2],
  },
  {
    command: 'hrandfield',
    reason: `HRANDFIELD with a negative count beyond ${MAX_RANDOM_PICKS} is refused, where Redis builds a reply of any size`,
    applies: (argv) => {
      const withValues = argv.length === 4 && argv[3].toLowerCase() === 'withvalues';
      if ((argv.length !== 3 && !withValues) || !/^-\d+$/.test(argv[2])) return false;
      const n = BigInt(argv[2]);
      // Past these bounds Redis refuses the count itself, as Larder does.
      const bound = withValues ? INT64_MAX / 2n : INT64_MAX;
      return n < -BigInt(MAX_RANDOM_PICKS) && n >= -bound;
    },
  },
];

const SEEDS = process.env.LARDER_DIFF_SEED?.split(',').map(Number) ?? [1, 2, 3, 20240601];
const STEPS = Number(process.env.LARDER_DIFF_STEPS ?? 300);
const ERROR_RATE = 0.05;

const RUNS: readonly { label: string; gens: readonly CommandGen[] }[] = [
  { label: 'string family', gens: STRING_GENS },
  { label: 'generic family', gens: [...GENERIC_GENS, ...SEED_GENS] },
  { label: 'both families', gens: [...STRING_GENS, ...GENERIC_GENS] },
  { label: 'hash family', gens: HASH_GENS },
  // Without SCAN: from a cursor other than 0 Redis walks buckets in an order seeded per process,
  // which the walk comparison cannot follow; the generic runs keep it.
  { label: 'hash and generic families', gens: [...HASH_GENS, ...GENERIC_GENS.filter((g) => g.name !== 'scan')] },
];

const redisBin = findRedisServer();
const missing = 'redis-server is not on PATH (apt-get install -y redis-server)';
if (redisBin === undefined && process.env.CI !== undefined) {
  describe('differential: Larder against redis-server', () => {
    it('needs redis-server', () => assert.fail(`${missing}; it is required when CI is set`));
  });
}

describe('differential: Larder against redis-server', { skip: redisBin === undefined ? missing : false }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  before(async () => {
    [redis, t] = await Promise.all([startRedisServer(redisBin!), startTestLarder()]);
  });
  after(async () => {
    await Promise.all([redis?.stop(), t?.close()]);
  });

  it('documents every Upstash deviation of the command table as an exclusion', () => {
    const deviating = [...TABLE.values()].filter((c) => c.deviates !== undefined).map((c) => c.name).sort();
    assert.deepEqual([...new Set(EXCLUSIONS.map((e) => e.command))].sort(), deviating);
  });

  for (const seed of SEEDS) {
    for (const run of RUNS) {
      it(`${run.label}, seed ${seed}`, async (ctx) => {
        ctx.diagnostic(`seed ${seed} (LARDER_DIFF_SEED=${seed}), ${STEPS} steps`);
        await redis.client.call(['FLUSHDB']);
        await t.command(['FLUSHDB']);
        const rng = new Rng(seed);
        const result = await runSequence(
          { redis: redis.client, larder: t },
          { steps: STEPS, gens: run.gens, exclusions: EXCLUSIONS, times: new Times(), rng, errorRate: ERROR_RATE },
        );
        assert.equal(result.mismatches.length, 0, describeMismatches(run.label, seed, STEPS, result));
      });
    }
  }
});

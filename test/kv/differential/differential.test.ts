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
// - ZRANDMEMBER is random: the same shape on both sides, and every pick one of the key's
//   members (with its score), all different for a positive count.
// - ZRANK/ZREVRANK with a fourth argument: Larder takes Redis 7.2's WITHSCORE (an exclusion).
// - Sorted sets past Redis's listpack limits: ZSCAN and lex ranges are not generated for them
//   (see zset-steps.ts), as their order follows Redis's hash table and random skip-list levels.
// - TTL, PTTL, EXPIRETIME, PEXPIRETIME: the two sides receive a command a few milliseconds
//   apart, so relative expiries differ by that much. Equal, or both non-negative and within
//   2 s / 2000 ms. Relative expiries never meet GT/LT (see generic-steps.ts).
// - Not generated at all: DUMP/RESTORE (Larder's payload format is its own), TIME and INFO
//   (different by nature), FLUSHALL (the same as FLUSHDB with one database), relative expiries
//   short enough to run out during a run.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { Times } from './alphabet.js';
import { GENERIC_GENS, SEED_GENS } from './generic-steps.js';
import { describeMismatches, runSequence, type CommandGen, type Exclusion, type RunOptions } from './harness.js';
import { Rng } from './prng.js';
import { findRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { STRING_GENS } from './string-steps.js';
import { LARGE, SMALL, ZSET_COMPANION_GENS, ZSET_FINAL_READS, ZSET_SET_GENS, zsetGens } from './zset-steps.js';

/** ZRANGE-style options after the range arguments (from argv[at] on) hold LIMIT but no BYSCORE/BYLEX. */
const limitWithIndexRange = (at: number) => (argv: readonly string[]) => {
  const opts = argv.slice(at).map((a) => a.toLowerCase());
  return opts.includes('limit') && !opts.includes('byscore') && !opts.includes('bylex');
};

const EXCLUSIONS: readonly Exclusion[] = [
  {
    command: 'copy',
    reason: 'COPY with the same source and destination returns 0 (Upstash), where Redis errors',
    applies: (argv) => argv[1] === argv[2],
  },
  { command: 'zrange', reason: 'ZRANGE pages an index range with LIMIT (Upstash)', applies: limitWithIndexRange(4) },
  { command: 'zrangestore', reason: 'ZRANGESTORE pages an index range with LIMIT (Upstash)', applies: limitWithIndexRange(5) },
  { command: 'zrank', reason: 'ZRANK takes WITHSCORE (Redis 7.2)', applies: (argv) => argv.length > 3 },
  { command: 'zrevrank', reason: 'ZREVRANK takes WITHSCORE (Redis 7.2)', applies: (argv) => argv.length > 3 },
];

const SEEDS = process.env.LARDER_DIFF_SEED?.split(',').map(Number) ?? [1, 2, 3, 20240601];
const STEPS = Number(process.env.LARDER_DIFF_STEPS ?? 300);
const ERROR_RATE = 0.05;

interface Run {
  readonly label: string;
  readonly gens: readonly CommandGen[];
  readonly finalReads?: RunOptions['finalReads'];
  /** Steps per run as a multiple of STEPS: a family with many commands runs longer. */
  readonly scale?: number;
}

const RUNS: readonly Run[] = [
  { label: 'string family', gens: STRING_GENS },
  { label: 'generic family', gens: [...GENERIC_GENS, ...SEED_GENS] },
  { label: 'both families', gens: [...STRING_GENS, ...GENERIC_GENS] },
  {
    label: 'sorted-set family',
    // Plain sets join as ZUNION/ZINTER/ZDIFF inputs once the set family is in the table.
    gens: [...zsetGens(SMALL), ...ZSET_COMPANION_GENS, ...(TABLE.has('sadd') ? ZSET_SET_GENS : [])],
    finalReads: ZSET_FINAL_READS,
    scale: 4,
  },
  {
    label: 'sorted-set family, large sets',
    gens: [...zsetGens(LARGE), ...ZSET_COMPANION_GENS],
    finalReads: ZSET_FINAL_READS,
    scale: 3,
  },
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
        const steps = Math.round(STEPS * (run.scale ?? 1));
        ctx.diagnostic(`seed ${seed} (LARDER_DIFF_SEED=${seed}), ${steps} steps`);
        await redis.client.call(['FLUSHDB']);
        await t.command(['FLUSHDB']);
        const rng = new Rng(seed);
        const result = await runSequence(
          { redis: redis.client, larder: t },
          { steps, gens: run.gens, exclusions: EXCLUSIONS, times: new Times(), rng, errorRate: ERROR_RATE, finalReads: run.finalReads },
        );
        assert.equal(result.mismatches.length, 0, describeMismatches(run.label, seed, steps, result));
      });
    }
  }
});

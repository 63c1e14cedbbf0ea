// Differential tests: the same seeded random command sequences run against a real
// redis-server (the oracle) and a Larder over HTTP with `Upstash-Response-Format: resp2`, and
// every reply must match byte for byte, except where listed below.
//
// Seeds: fixed ones by default, so CI is repeatable (8 seeds, over 100,000 commands in all); LARDER_DIFF_SEED=<n>[,<n>...] replays
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
// - Sets: member lists compare as multisets, SSCAN as a full walk, and SRANDMEMBER and SPOP
//   by what they may draw (see set-steps.ts and draw-check.ts).
// - ZRANDMEMBER is random: the same shape on both sides, and every pick one of the key's
//   members (with its score), all different for a positive count.
// - ZRANK/ZREVRANK with a fourth argument: Larder takes Redis 7.2's WITHSCORE (an exclusion).
// - Sorted sets past Redis's listpack limits: ZSCAN and lex ranges are not generated for them
//   (see zset-steps.ts), as their order follows Redis's hash table and its random skip-list levels.
// - HRANDFIELD is random: both nil or both a field; with a count, arrays of the same length.
// - TTL, PTTL, EXPIRETIME, PEXPIRETIME: the two sides receive a command a few milliseconds
//   apart, so relative expiries differ by that much. Equal, or both non-negative and within
//   2 s / 2000 ms. Relative expiries never meet GT/LT (see generic-steps.ts).
// - DUMP: Larder's payload format is its own, so both nil or both a string; RESTORE is not
//   generated.
// - Scripting: scripts whose output Lua 5.3 prints differently from Redis's 5.1, tables that
//   cjson/cmsgpack encode as objects (key order), libraries of several functions in FUNCTION
//   LIST, FUNCTION DUMP payloads and the time limit are not generated (see scripting-steps.ts);
//   each scripting run starts with SCRIPT FLUSH and FUNCTION FLUSH on both sides, as the
//   restart that ends a seed forgets scripts that EVAL alone cached.
// - Each run has a database of its own, an index of its own on the oracle: there FLUSHALL
//   goes as FLUSHDB and COPY's DB 0 names that index (harness.ts oracleForm).
// - Not generated at all: OBJECT ENCODING (but in the set family's run, whose strings all
//   come from SET, so Redis's encodings are known), REFCOUNT and IDLETIME (Redis's internal
//   representation and clock; MEMORY USAGE is compared, within bounds, in
//   commands/memory.test.ts), TIME, INFO, COMMAND and CONFIG (different by nature), SCAN from
//   a cursor other than 0 (cursors are opaque), relative expiries short enough to run out
//   during a run, and SET-like commands with an absolute time in the past (Redis keeps such a
//   key, logically expired, until its active expiry runs, and DBSIZE counts it until then).

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { Times } from './alphabet.js';
import { BITMAP_GENS } from './bitmap-steps.js';
import { GENERIC_GENS, SEED_GENS } from './generic-steps.js';
import { GEO_FINAL_READS, GEO_GENS } from './geo-steps.js';
import { HASH_GENS } from './hash-steps.js';
import { HLL_GENS } from './hll-steps.js';
import { compareState, describeMismatches, FINAL_READS, runSequence, type CommandGen, type FinalRead, type Sides } from './harness.js';
import { LIST_GENS } from './list-steps.js';
import { Rng } from './prng.js';
import { findRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { SCRIPTING_GENS } from './scripting-steps.js';
import { EXCLUSIONS } from './exclusions.js';
import { SET_ENCODING_GENS, SET_GENS } from './set-steps.js';
import { SORT_GENS } from './sort-steps.js';
import { STREAM_FINAL_READS, STREAM_GENS, STREAM_LONG_GENS } from './stream-steps.js';
import { STRING_GENS } from './string-steps.js';
import { LARGE, SMALL, ZSET_COMPANION_GENS, ZSET_FINAL_READS, ZSET_SET_GENS, zsetGens } from './zset-steps.js';

/** Strings and keyspace commands, now and then, among the set family's: WRONGTYPE, copies, renames, expiries. */
const SET_MIX: readonly CommandGen[] = [...SEED_GENS, ...GENERIC_GENS]
  .filter((g) => ['set', 'del', 'type', 'copy', 'rename', 'renamenx', 'expire', 'pexpireat', 'persist', 'exists'].includes(g.name))
  .map((g) => ({ ...g, weight: g.weight / 4 }));

function integers(name: string, fallback: string): number[] {
  const values = (process.env[name] ?? fallback).split(',').map(Number);
  if (!values.every((n) => Number.isSafeInteger(n) && n >= 0)) throw new Error(`${name} must be non-negative integers, comma-separated`);
  return values;
}
const SEEDS = integers('LARDER_DIFF_SEED', '1,2,3,20240601,4,5,6,7');
const [STEPS] = integers('LARDER_DIFF_STEPS', '600');
/** A default run (what CI runs) compares at least this many commands across the families. */
const CI_FLOOR = 100_000;
const ERROR_RATE = 0.05;

interface Run {
  readonly label: string;
  readonly gens: readonly CommandGen[];
  readonly finalReads?: readonly FinalRead[];
  /** Steps per run as a multiple of STEPS: a family with many commands runs longer. */
  readonly scale?: number;
  /** Commands both sides run first (beyond FLUSHDB), unchecked. */
  readonly setup?: readonly (readonly string[])[];
}

const RUNS: readonly Run[] = [
  { label: 'string family', gens: STRING_GENS },
  { label: 'generic family', gens: [...GENERIC_GENS, ...SEED_GENS] },
  { label: 'both families', gens: [...STRING_GENS, ...GENERIC_GENS] },
  { label: 'list family', gens: LIST_GENS },
  { label: 'list and generic families', gens: [...LIST_GENS, ...GENERIC_GENS] },
  {
    label: 'set family',
    gens: [...SET_GENS, ...SET_ENCODING_GENS, ...SET_MIX],
    finalReads: [...FINAL_READS, [['OBJECT', 'ENCODING'], 'exact']],
  },
  { label: 'bitmap family', gens: [...BITMAP_GENS, ...SEED_GENS] },
  { label: 'hyperloglog family', gens: HLL_GENS },
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
  { label: 'hash family', gens: HASH_GENS },
  { label: 'sort', gens: SORT_GENS, finalReads: [...FINAL_READS, [['LRANGE'], 'exact', ['0', '-1']]] },
  { label: 'geo family', gens: GEO_GENS, finalReads: GEO_FINAL_READS, scale: 3 },
  // Without SCAN: from a cursor other than 0 Redis walks buckets in an order seeded per process,
  // which the walk comparison cannot follow; the generic runs keep it.
  // Scripts EVAL cached are not kept across the restart that ends a seed (SCRIPT LOAD's are):
  // each run starts from empty script caches on both sides.
  { label: 'scripting', gens: SCRIPTING_GENS, setup: [['SCRIPT', 'FLUSH'], ['FUNCTION', 'FLUSH']], finalReads: [...FINAL_READS, [['LRANGE'], 'exact', ['0', '-1']], [['HGETALL'], 'exact']] },
  { label: 'hash and generic families', gens: [...HASH_GENS, ...GENERIC_GENS.filter((g) => g.name !== 'scan')] },
  { label: 'stream family', gens: STREAM_GENS, finalReads: STREAM_FINAL_READS, scale: 2 },
  { label: 'stream family, long streams', gens: STREAM_LONG_GENS, finalReads: STREAM_FINAL_READS, scale: 2 },
];

const redisBin = findRedisServer();
const missing = 'redis-server is not on PATH (apt-get install -y redis-server)';
if (redisBin === undefined && process.env.CI !== undefined) {
  describe('differential: Larder against redis-server', () => {
    it('needs redis-server', () => assert.fail(`${missing}; it is required when CI is set`));
  });
}

// Each run keeps its data in a database of its own (an index of the oracle's), so that one
// restart per seed checks what the log brings back of every run.
const databaseOf = (run: number) => `run${run}`;
const LARDER_CONFIG = { kv: { databases: Object.fromEntries([['default', {}], ...RUNS.map((_, i) => [databaseOf(i), {}])]) } };

describe('differential: Larder against redis-server', { skip: redisBin === undefined ? missing : false }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  before(async () => {
    [redis, t] = await Promise.all([startRedisServer(redisBin!, { args: ['--databases', String(RUNS.length + 1)] }), startTestLarder(LARDER_CONFIG)]);
  });
  /** Run `i`'s two sides: the oracle's index i + 1 (selected on its one connection) and Larder's database. */
  const sidesOf = async (i: number): Promise<Sides> => {
    await redis.client.call(['SELECT', String(i + 1)]);
    return { redis: redis.client, larder: t.database(databaseOf(i)), index: i + 1 };
  };
  after(async () => {
    await Promise.all([redis?.stop(), t?.close()]);
    if (t !== undefined) rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('documents every Upstash deviation of the command table as an exclusion', () => {
    const deviating = [...TABLE.values()].filter((c) => c.deviates !== undefined).map((c) => c.name).sort();
    assert.deepEqual([...new Set(EXCLUSIONS.map((e) => e.command))].sort(), deviating);
  });

  let compared = 0;
  const stepsOf = (run: Run) => Math.round(STEPS * (run.scale ?? 1));
  for (const seed of SEEDS) {
    RUNS.forEach((run, i) => {
      it(`${run.label}, seed ${seed}`, async (ctx) => {
        const steps = stepsOf(run);
        ctx.diagnostic(`seed ${seed} (LARDER_DIFF_SEED=${seed}), ${steps} steps`);
        const sides = await sidesOf(i);
        for (const argv of [['FLUSHDB'], ...(run.setup ?? [])]) {
          await redis.client.call(argv);
          await sides.larder.command([...argv]);
        }
        const rng = new Rng(seed);
        const result = await runSequence(sides, {
          steps,
          gens: run.gens,
          exclusions: EXCLUSIONS,
          times: new Times(),
          rng,
          errorRate: ERROR_RATE,
          finalReads: run.finalReads,
        });
        for (const n of result.counts.values()) compared += n;
        const ran = [...result.counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name} ${n}`);
        ctx.diagnostic(`ran ${ran.join(', ')}; ${result.skipped} excluded`);
        assert.equal(result.mismatches.length, 0, describeMismatches(run.label, seed, steps, result));
      });
    });
    // What the log replays must be what Redis holds: relative times and floats are logged in a
    // deterministic form. Scripts EVAL cached are forgotten (each scripting run flushes them).
    it(`keeps every run's data across a restart, seed ${seed}`, async () => {
      const dataDir = t.dataDir;
      await t.close(true);
      t = await startTestLarder(LARDER_CONFIG, dataDir);
      const failures: string[] = [];
      for (const [i, run] of RUNS.entries()) {
        const restarted = await compareState(await sidesOf(i), stepsOf(run), 'after a restart', run.finalReads);
        if (restarted.length > 0) failures.push(describeMismatches(run.label, seed, stepsOf(run), { mismatches: restarted, skipped: 0, counts: new Map() }));
      }
      assert.equal(failures.length, 0, failures.join('\n'));
    });
  }

  it(`compares at least ${CI_FLOOR} commands in a default run`, (ctx) => {
    ctx.diagnostic(`${compared} commands compared`);
    const defaults = process.env.LARDER_DIFF_SEED === undefined && process.env.LARDER_DIFF_STEPS === undefined;
    if (defaults) assert.ok(compared >= CI_FLOOR, `${compared} < ${CI_FLOOR}`);
  });
});

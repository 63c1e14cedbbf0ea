// Random commands of the sorted-set family (Redis t_zset.c): every option, sometimes wrongly
// combined, with scores and bounds chosen for edge cases (infinities, -0, 17-digit prints,
// hex floats, bounds strtod reads oddly), so error replies and printed scores compare too.
//
// Two profiles. In the small one members stay few and short, so every sorted set stays small
// enough for Redis to keep it as a listpack: then ZSCAN answers in one call and lex ranges walk
// in order on both sides, and replies compare byte for byte. The large one grows sets past
// 128 members and adds members past 64 bytes, so Redis converts them to skip lists (OBJECT
// ENCODING and -0 scores tell); it leaves out ZSCAN, whose order then follows Redis's hash
// table, and lex ranges, which over mixed scores follow Redis's random skip-list levels.
// Random picks (ZRANDMEMBER) compare by membership.

import { anyCase, KEYS, type Times } from './alphabet.js';
import { FINAL_READS, type CommandGen, type FinalRead, type Sample, type Step } from './harness.js';
import type { Rng } from './prng.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const SMALL_MEMBERS: readonly string[] = ['a', 'b', 'c', 'd', 'e', 'aa', 'ab', 'b\x00', '', '1', '10', '-1', utf8('é'), '\xff'];
const LARGE_MEMBERS: readonly string[] = [
  ...SMALL_MEMBERS,
  ...Array.from({ length: 150 }, (_, i) => `m${String(i).padStart(3, '0')}`),
  'x'.repeat(64),
  'y'.repeat(65),
  'z'.repeat(100),
];

export interface ZsetProfile {
  readonly members: readonly string[];
  /** Most score-member pairs in one ZADD. */
  readonly maxPairs: number;
  /** Whether every set stays a listpack, so ZSCAN and lex ranges compare exactly. */
  readonly listpackOnly: boolean;
  /** Weight of ZADDs of 100 to 150 members at once, which grow a set past 128. */
  readonly bulk: number;
}

export const SMALL: ZsetProfile = { members: SMALL_MEMBERS, maxPairs: 4, listpackOnly: true, bulk: 0 };
export const LARGE: ZsetProfile = { members: LARGE_MEMBERS, maxPairs: 20, listpackOnly: false, bulk: 1.5 };

const SCORES: readonly string[] = [
  '0', '1', '-1', '2', '3', '2.5', '1.5', '-0', '0.1', '0.2', '0.3', '10', '100', '1e20', '1e-7', '-2.5e-3',
  'inf', '-inf', '+inf', '9007199254740993', '1.7976931348623157e308', '123456789.123456789', '0x10', '0x1p-3',
];
const BAD_SCORES: readonly string[] = ['nan', 'abc', '', ' 1', '1 ', '1e400', '1e-400', '(1', 'inf1'];

const SCORE_BOUNDS: readonly string[] = [
  '-inf', '+inf', 'inf', '0', '1', '2', '3', '-1', '(0', '(1', '(2', '(2.5', '(-inf', '(+inf', '0.1', '(0.3', '100',
];
const BAD_OR_ODD_SCORE_BOUNDS: readonly string[] = ['', '(', 'x', 'nan', '(nan', ' 1', '1 ', '1e400', '(0x10', '1\x00zz', '-'];

const LEX_BOUNDS: readonly string[] = ['-', '+', '[a', '(a', '[b', '(b', '[', '(', '[aa', '(c', '[e', '(ab', '[\xff', '[b\x00'];
const BAD_LEX_BOUNDS: readonly string[] = ['a', '+x', '--', '', '-\x00', '+\x00x'];

const INDEXES: readonly string[] = ['0', '1', '2', '-1', '-2', '3', '5', '-5', '10', '-10', '100', '9223372036854775807', '-9223372036854775808'];
const BAD_INTEGERS: readonly string[] = ['x', '1.5', '', '+1', '9223372036854775808'];

const key = (rng: Rng) => rng.pick(KEYS);
const score = (rng: Rng) => (rng.chance(0.05) ? rng.pick(BAD_SCORES) : rng.pick(SCORES));
const index = (rng: Rng) => (rng.chance(0.04) ? rng.pick(BAD_INTEGERS) : rng.pick(INDEXES));
const scoreBound = (rng: Rng) => (rng.chance(0.1) ? rng.pick(BAD_OR_ODD_SCORE_BOUNDS) : rng.pick(SCORE_BOUNDS));
const lexBound = (rng: Rng) => (rng.chance(0.06) ? rng.pick(BAD_LEX_BOUNDS) : rng.pick(LEX_BOUNDS));
const step = (...argv: string[]): Step => ({ argv });
const limit = (rng: Rng): string[] => [
  anyCase(rng, 'LIMIT'),
  rng.pick(['0', '1', '2', '5', '-1', '0', '10']),
  rng.chance(0.05) ? rng.pick(BAD_INTEGERS) : rng.pick(['1', '2', '3', '-1', '0', '10', '-5']),
];

// ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]
const zadd = (p: ZsetProfile) => (rng: Rng): Step => {
  const opts: string[] = [];
  for (const o of ['NX', 'XX', 'GT', 'LT', 'CH', 'INCR']) if (rng.chance(0.12)) opts.push(anyCase(rng, o));
  const pairs = opts.some((o) => o.toLowerCase() === 'incr') && rng.chance(0.9) ? 1 : rng.int(1, p.maxPairs);
  const args = Array.from({ length: pairs }, () => [score(rng), rng.pick(p.members)]).flat();
  if (rng.chance(0.03)) args.push(score(rng)); // an odd number: syntax error
  return step('ZADD', key(rng), ...rng.shuffle(opts), ...args);
};

// ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
// and ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]
function zrange(store: boolean, lex: boolean) {
  return (rng: Rng): Step => {
    const by = rng.pick(lex ? ['', '', 'BYSCORE', 'BYLEX'] : ['', 'BYSCORE']);
    const [min, max] = by === 'BYSCORE' ? [scoreBound(rng), scoreBound(rng)] : by === 'BYLEX' ? [lexBound(rng), lexBound(rng)] : [index(rng), index(rng)];
    const groups: string[][] = [];
    if (by !== '') groups.push([anyCase(rng, by)]);
    if (rng.chance(0.3)) groups.push([anyCase(rng, 'REV')]);
    if (by !== '' ? rng.chance(0.3) : rng.chance(0.05)) groups.push(limit(rng));
    if (!store && rng.chance(by === 'BYLEX' ? 0.05 : 0.4)) groups.push([anyCase(rng, 'WITHSCORES')]);
    if (rng.chance(0.03)) groups.push([rng.pick(['BYSCORE', 'BYLEX', 'REV', 'FOO', 'WITHSCORES'])]);
    const head = store ? ['ZRANGESTORE', key(rng), key(rng)] : ['ZRANGE', key(rng)];
    return step(...head, min, max, ...rng.shuffle(groups).flat());
  };
}

/** ZRANGEBYSCORE and friends: fixed type and direction, [WITHSCORES] [LIMIT offset count]. */
function olderRange(name: string, bound: (rng: Rng) => string, scores: boolean) {
  return (rng: Rng): Step => {
    const groups: string[][] = [];
    if (rng.chance(scores ? 0.4 : 0.04)) groups.push([anyCase(rng, 'WITHSCORES')]);
    if (rng.chance(0.35)) groups.push(limit(rng));
    if (rng.chance(0.03)) groups.push([rng.pick(['REV', 'BYSCORE', 'FOO'])]);
    return step(name, key(rng), bound(rng), bound(rng), ...rng.shuffle(groups).flat());
  };
}

/** numkeys and keys; numkeys now and then wrong (0, too many, not a number). */
function keyList(rng: Rng): { numkeys: string; keys: string[] } {
  const keys = rng.some(KEYS, rng.int(1, 3));
  const numkeys = rng.chance(0.05) ? rng.pick(['0', '-1', 'x', String(keys.length + 1)]) : String(keys.length);
  return { numkeys, keys };
}

// ZUNION / ZINTER numkeys key ... [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES], ZDIFF, and STORE forms
function combine(name: string, store: boolean, weights: boolean) {
  return (rng: Rng): Step => {
    const { numkeys, keys } = keyList(rng);
    const groups: string[][] = [];
    if (weights && rng.chance(0.35)) {
      const n = rng.chance(0.9) ? keys.length : rng.int(0, keys.length + 1);
      groups.push([anyCase(rng, 'WEIGHTS'), ...Array.from({ length: n }, () => rng.pick(['1', '2', '0', '-1', '0.5', 'inf', '-inf', '0.1', 'x']))]);
    }
    if (weights && rng.chance(0.35)) groups.push([anyCase(rng, 'AGGREGATE'), anyCase(rng, rng.pick(['SUM', 'MIN', 'MAX', 'AVG']))]);
    if (!store && rng.chance(0.4)) groups.push([anyCase(rng, 'WITHSCORES')]);
    if (rng.chance(0.03)) groups.push([rng.pick(['FOO', 'WEIGHTS', 'AGGREGATE', 'WITHSCORES'])]);
    const head = store ? [name, key(rng)] : [name];
    return step(...head, numkeys, ...keys, ...rng.shuffle(groups).flat());
  };
}

// ZRANDMEMBER key [count [WITHSCORES]]: picks compared by membership.
function zrandmember(rng: Rng): Step {
  const argv = ['ZRANDMEMBER', key(rng)];
  if (rng.chance(0.75)) {
    argv.push(rng.pick(['1', '2', '3', '5', '20', '-1', '-3', '-20', '0', 'x', '-9223372036854775808', '4611686018427387904']));
    if (rng.chance(0.5)) argv.push(anyCase(rng, 'WITHSCORES'));
    if (rng.chance(0.03)) argv.push('FOO');
  }
  return { argv, check: 'sample', sample: randomPicks };
}

/** What a ZRANDMEMBER draws from: the members with their scores. */
function randomPicks(argv: readonly string[]): Sample {
  return {
    population: ['ZRANGE', argv[1], '0', '-1', 'WITHSCORES'],
    entryWidth: 2,
    pickWidth: argv.length === 4 && argv[3].toLowerCase() === 'withscores' ? 2 : 1,
    distinct: argv.length >= 3 && !argv[2].startsWith('-'),
  };
}

// ZMPOP numkeys key ... MIN | MAX [COUNT count]
function zmpop(rng: Rng): Step {
  const { numkeys, keys } = keyList(rng);
  const args = [anyCase(rng, rng.pick(['MIN', 'MAX', 'MIN', 'MAX', 'MID']))];
  if (rng.chance(0.5)) args.push(anyCase(rng, 'COUNT'), rng.pick(['1', '2', '5', '0', '-1', 'x']));
  return step('ZMPOP', numkeys, ...keys, ...args);
}

// ZSCAN key cursor [MATCH pattern] [COUNT count]
function zscan(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'MATCH'), rng.pick(['*', 'a*', '?', '[ab]', '*b*', '', '\xff', 'b\x00'])]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'COUNT'), rng.pick(['1', '2', '10', '0', '-1', 'x'])]);
  if (rng.chance(0.03)) groups.push([rng.pick(['TYPE', 'FOO', 'NOVALUES'])]);
  return step('ZSCAN', key(rng), rng.chance(0.9) ? '0' : rng.pick(['1', '5', 'x', '-1']), ...rng.shuffle(groups).flat());
}

const pop = (name: string) => (rng: Rng) =>
  step(name, key(rng), ...(rng.chance(0.5) ? [rng.pick(['1', '2', '3', '0', '10', '-1', 'x'])] : []));

/** The whole set, scores included: the reads that see most of the state. */
const wholeSet = (rng: Rng) => step('ZRANGE', key(rng), '0', '-1', 'WITHSCORES');

/** The family's commands for a profile. */
export function zsetGens(p: ZsetProfile): CommandGen[] {
  const member = (rng: Rng) => rng.pick(p.members);
  const members = (rng: Rng) => rng.some(p.members, rng.int(1, 3));
  const gens: CommandGen[] = [
    { name: 'zadd', weight: 16, make: zadd(p) },
    {
      name: 'zadd',
      weight: p.bulk,
      make: (rng) => step('ZADD', key(rng), ...Array.from({ length: rng.int(100, 150) }, () => [rng.pick(SCORES), member(rng)]).flat()),
    },
    { name: 'zincrby', weight: 4, make: (rng) => step('ZINCRBY', key(rng), score(rng), member(rng)) },
    { name: 'zrem', weight: 4, make: (rng) => step('ZREM', key(rng), ...members(rng)) },
    { name: 'zcard', weight: 2, make: (rng) => step('ZCARD', key(rng)) },
    { name: 'zcount', weight: 3, make: (rng) => step('ZCOUNT', key(rng), scoreBound(rng), scoreBound(rng)) },
    { name: 'zlexcount', weight: 3, make: (rng) => step('ZLEXCOUNT', key(rng), lexBound(rng), lexBound(rng)) },
    { name: 'zscore', weight: 3, make: (rng) => step('ZSCORE', key(rng), member(rng)) },
    { name: 'zmscore', weight: 2, make: (rng) => step('ZMSCORE', key(rng), ...members(rng)) },
    { name: 'zrank', weight: 2, make: (rng) => step('ZRANK', key(rng), member(rng)) },
    { name: 'zrevrank', weight: 2, make: (rng) => step('ZREVRANK', key(rng), member(rng)) },
    { name: 'zrange', weight: 8, make: zrange(false, p.listpackOnly) },
    { name: 'zrange', weight: 6, make: wholeSet },
    { name: 'zrangestore', weight: 3, make: zrange(true, p.listpackOnly) },
    { name: 'zrangebyscore', weight: 3, make: olderRange('ZRANGEBYSCORE', scoreBound, true) },
    { name: 'zrevrangebyscore', weight: 3, make: olderRange('ZREVRANGEBYSCORE', scoreBound, true) },
    { name: 'zrangebylex', weight: 3, make: olderRange('ZRANGEBYLEX', lexBound, false) },
    { name: 'zrevrangebylex', weight: 3, make: olderRange('ZREVRANGEBYLEX', lexBound, false) },
    {
      name: 'zrevrange',
      weight: 2,
      make: (rng) => step('ZREVRANGE', key(rng), index(rng), index(rng), ...(rng.chance(0.4) ? [anyCase(rng, 'WITHSCORES')] : [])),
    },
    { name: 'zunion', weight: 3, make: combine('ZUNION', false, true) },
    { name: 'zinter', weight: 3, make: combine('ZINTER', false, true) },
    { name: 'zdiff', weight: 2, make: combine('ZDIFF', false, false) },
    { name: 'zunionstore', weight: 2, make: combine('ZUNIONSTORE', true, true) },
    { name: 'zinterstore', weight: 2, make: combine('ZINTERSTORE', true, true) },
    { name: 'zdiffstore', weight: 2, make: combine('ZDIFFSTORE', true, false) },
    {
      name: 'zintercard',
      weight: 2,
      make: (rng) => {
        const { numkeys, keys } = keyList(rng);
        const opts = rng.chance(0.4) ? [anyCase(rng, 'LIMIT'), rng.pick(['0', '1', '2', '-1', 'x'])] : [];
        return step('ZINTERCARD', numkeys, ...keys, ...opts);
      },
    },
    { name: 'zrandmember', weight: 3, make: zrandmember },
    { name: 'zmpop', weight: 2, make: zmpop },
    { name: 'zpopmin', weight: 2, make: pop('ZPOPMIN') },
    { name: 'zpopmax', weight: 2, make: pop('ZPOPMAX') },
    { name: 'zremrangebyrank', weight: 2, make: (rng) => step('ZREMRANGEBYRANK', key(rng), index(rng), index(rng)) },
    { name: 'zremrangebyscore', weight: 2, make: (rng) => step('ZREMRANGEBYSCORE', key(rng), scoreBound(rng), scoreBound(rng)) },
    { name: 'zremrangebylex', weight: 2, make: (rng) => step('ZREMRANGEBYLEX', key(rng), lexBound(rng), lexBound(rng)) },
    { name: 'zscan', weight: 2, make: zscan },
  ];
  // Lex ranges and ZSCAN only where every set is a listpack (see the head comment).
  const exact = new Set(['zlexcount', 'zrangebylex', 'zrevrangebylex', 'zremrangebylex', 'zscan']);
  return p.listpackOnly ? gens : gens.filter((g) => !exact.has(g.name));
}

/** Keys of other kinds and whole-key operations, so WRONGTYPE, copies and renames happen. */
export const ZSET_COMPANION_GENS: readonly CommandGen[] = [
  { name: 'set', weight: 1, make: (rng) => step('SET', key(rng), rng.pick(['v', '1'])) },
  { name: 'del', weight: 1.5, make: (rng) => step('DEL', key(rng)) },
  { name: 'type', weight: 1, make: (rng) => step('TYPE', key(rng)) },
  { name: 'copy', weight: 1, make: (rng) => step('COPY', key(rng), key(rng), ...(rng.chance(0.5) ? ['REPLACE'] : [])) },
  { name: 'rename', weight: 1, make: (rng) => step('RENAME', key(rng), key(rng)) },
  { name: 'object', weight: 1, make: (rng) => step('OBJECT', 'ENCODING', key(rng)) },
  { name: 'expireat', weight: 0.5, make: (rng, times: Times) => step('EXPIREAT', key(rng), times.absSeconds(rng, true)) },
];

/** Plain sets as ZUNION/ZINTER/ZDIFF inputs: only once the set family is in the table. */
export const ZSET_SET_GENS: readonly CommandGen[] = [
  { name: 'sadd', weight: 3, make: (rng) => step('SADD', key(rng), ...rng.some(SMALL_MEMBERS, rng.int(1, 3))) },
  { name: 'srem', weight: 1, make: (rng) => step('SREM', key(rng), rng.pick(SMALL_MEMBERS)) },
];

/** The whole of each key as the sorted-set family sees it, compared at the end of a run. */
export const ZSET_FINAL_READS: readonly FinalRead[] = [
  ...FINAL_READS,
  [['ZRANGE'], 'exact', ['0', '-1', 'WITHSCORES']],
  [['OBJECT', 'ENCODING'], 'exact'],
];

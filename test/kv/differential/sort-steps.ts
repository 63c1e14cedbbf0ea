// Random SORT and SORT_RO steps (Redis sort.c) over a list, a set and a sorted set of numeric
// and other members, weighed through string keys (w_<member>) and hash fields (h_<member> f),
// with GET lookups, LIMIT, ALPHA, DESC and STORE (into a source key too).
//
// Not generated, because Redis's order is not defined there: ALPHA BY with STORE or LIMIT on a
// set or sorted set (equal weights keep Redis's hash-table order; with LIMIT its partial
// quicksort is not stable), and ALPHA BY with LIMIT on a list (the same partial sort). Such
// replies without LIMIT, and a set's BY nosort without STORE, compare as multisets. Weights
// never overflow a double: glibc leaves errno set after ERANGE and Redis never clears it, so
// every later numeric SORT of the process would fail too (the HTTP tests cover the error).

import { anyCase } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const LIST = 'a';
const SET = 'b';
const ZSET = 'k:1';
const STRING = 'k:2';
const DESTS = ['{t}x', '{t}x', LIST, SET, STRING];

const NUMERIC = ['1', '2', '3', '10', '-5', '2.5', '0', '1e2', '007', '-0'];
const TEXT = ['a', 'b', 'B', 'ab', 'hello', '\xff', 'é'];
const WEIGHTS = [...NUMERIC, ...TEXT, '', ' 3', '0x10', 'inf', '-inf', 'nan', '3 ', 'a\x00b', '4\x00x'];
const PATTERNS = ['w_*', 'h_*->f', 'h_*->g', '#', 'nosort', 'w_', 'h_*->', '*', 'w_*\x00x'];

const step = (...argv: string[]): Step => ({ argv });

function members(rng: Rng): string[] {
  const pool = rng.chance(0.6) ? NUMERIC : [...NUMERIC, ...TEXT];
  return rng.some(pool, rng.int(1, 6));
}

// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC | DESC] [ALPHA] [STORE destination]
function sort(rng: Rng, readOnly: boolean): Step {
  const key = rng.pick([LIST, LIST, SET, ZSET, ZSET, STRING, 'c[1]\\']);
  const listish = key === LIST;
  const by = rng.chance(0.5) ? rng.pick(PATTERNS) : null;
  const nosort = by !== null && !by.includes('*');
  const alpha = rng.chance(0.4);
  let limit = rng.chance(0.3);
  let store = !readOnly && rng.chance(0.3);
  let unordered = false;
  if (alpha && by !== null && !nosort) {
    limit = false;
    if (!listish) {
      store = false;
      unordered = true;
    }
  }
  if (key === SET && nosort && !store) {
    limit = false;
    unordered = true;
  }
  const opts: string[][] = [];
  if (by !== null) opts.push([anyCase(rng, 'BY'), by]);
  if (limit) opts.push([anyCase(rng, 'LIMIT'), rng.pick(['0', '1', '2', '-1', '5', '100']), rng.pick(['0', '1', '2', '3', '-1', '100'])]);
  for (let n = rng.int(0, 2); n > 0; n--) opts.push([anyCase(rng, 'GET'), rng.pick(PATTERNS)]);
  if (rng.chance(0.4)) opts.push([anyCase(rng, rng.pick(['ASC', 'DESC']))]);
  if (alpha) opts.push([anyCase(rng, 'ALPHA')]);
  if (store) opts.push([anyCase(rng, 'STORE'), rng.pick(DESTS)]);
  const argv = [readOnly ? 'SORT_RO' : 'SORT', key, ...rng.shuffle(opts).flat()];
  // Last, so that no option word is taken for a pattern.
  if (rng.chance(0.05)) argv.push(...rng.pick([['LIMIT', '1'], ['LIMIT', 'x', '1'], ['FOO'], ['BY'], ['STORE']]));
  return unordered ? { argv, check: 'unordered' } : { argv };
}

/**
 * Whether a step sorts the set or the sorted set BY weight keys. Redis loads their members in
 * its hash table's order, which a seed drawn at each start decides, and looks the weight keys up
 * in that order: the keyspace events of those lookups (a keymiss for each missing key) come in
 * no order a run can foresee.
 */
export function weighsInHashOrder(argv: readonly string[]): boolean {
  const command = argv[0].toLowerCase();
  if (command !== 'sort' && command !== 'sort_ro') return false;
  return (argv[1] === SET || argv[1] === ZSET) && argv.some((a, i) => i > 1 && a.toLowerCase() === 'by');
}

export const SORT_GENS: readonly CommandGen[] = [
  { name: 'sort', weight: 6, make: (rng) => sort(rng, false) },
  { name: 'sort_ro', weight: 3, make: (rng) => sort(rng, true) },
  { name: 'rpush', weight: 2, make: (rng) => step('RPUSH', LIST, ...members(rng)) },
  { name: 'sadd', weight: 2, make: (rng) => step('SADD', SET, ...members(rng)) },
  {
    name: 'zadd',
    weight: 2,
    make: (rng) => step('ZADD', ZSET, ...members(rng).flatMap((m) => [rng.pick(['1', '2', '-1', '0', '5']), m])),
  },
  { name: 'set', weight: 3, make: (rng) => step('SET', `w_${rng.pick([...NUMERIC, ...TEXT])}`, rng.pick(WEIGHTS)) },
  {
    name: 'hset',
    weight: 3,
    make: (rng) => step('HSET', `h_${rng.pick([...NUMERIC, ...TEXT])}`, rng.pick(['f', 'f', 'g']), rng.pick(WEIGHTS)),
  },
  { name: 'del', weight: 1, make: (rng) => step('DEL', rng.pick([LIST, SET, ZSET, '{t}x', `w_${rng.pick(NUMERIC)}`])) },
  { name: 'setstring', weight: 1, make: () => step('SET', STRING, 'v') },
];

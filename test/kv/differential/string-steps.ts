// Random commands of the string family (Redis t_string.c): every option, sometimes wrongly
// combined or with invalid numbers, so error replies are compared too.

import { anyCase, FLOATS, INTEGERS, KEYS, randomValue as value, type Times } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const key = (rng: Rng) => rng.pick(KEYS);
const step = (...argv: string[]): Step => ({ argv });

/** Key-value pairs for MSET and MSETNX; keys may repeat. */
function pairs(rng: Rng): string[] {
  return Array.from({ length: rng.int(1, 3) }, () => [key(rng), value(rng)]).flat();
}

/** An expiry option of SET or GETEX: relative, absolute (in the past if `past`), or invalid. */
function expiry(rng: Rng, times: Times, past: boolean): string[] {
  if (rng.chance(0.1)) return [anyCase(rng, rng.pick(['EX', 'PX', 'EXAT', 'PXAT'])), times.badTime(rng)];
  switch (rng.int(0, 3)) {
    case 0:
      return [anyCase(rng, 'EX'), times.relSeconds(rng)];
    case 1:
      return [anyCase(rng, 'PX'), times.relMillis(rng)];
    case 2:
      return [anyCase(rng, 'EXAT'), times.absSeconds(rng, past)];
    default:
      return [anyCase(rng, 'PXAT'), times.absMillis(rng, past)];
  }
}

// SET key value [NX | XX] [GET] [EX s | PX ms | EXAT t | PXAT t | KEEPTTL]
function set(rng: Rng, times: Times): Step {
  const groups: string[][] = [];
  if (rng.chance(0.35)) groups.push([anyCase(rng, rng.pick(['NX', 'XX']))]);
  if (rng.chance(0.25)) groups.push([anyCase(rng, 'GET')]);
  if (rng.chance(0.4)) groups.push(rng.chance(0.25) ? [anyCase(rng, 'KEEPTTL')] : expiry(rng, times, false));
  // Now and then a conflicting or unknown option: a syntax error.
  if (rng.chance(0.08)) groups.push(rng.pick([['NX'], ['XX'], ['KEEPTTL'], ['EX', '10000'], ['PX', '7000000'], ['GET'], ['FOO']]));
  return step('SET', key(rng), value(rng), ...rng.shuffle(groups).flat());
}

// GETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST]
function getex(rng: Rng, times: Times): Step {
  const r = rng.next();
  const opts = r < 0.3 ? [] : r < 0.5 ? [anyCase(rng, 'PERSIST')] : expiry(rng, times, true);
  if (rng.chance(0.08)) opts.push(...rng.pick([['PERSIST'], ['EX', '100'], ['KEEPTTL'], ['NX']]));
  return step('GETEX', key(rng), ...opts);
}

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]
function lcs(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'LEN')]);
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'IDX')]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'MINMATCHLEN'), rng.pick(['0', '1', '2', '3', '-1', 'x'])]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'WITHMATCHLEN')]);
  if (rng.chance(0.05)) groups.push(['FOO']);
  return step('LCS', key(rng), key(rng), ...rng.shuffle(groups).flat());
}

const RANGE_ENDS = ['0', '1', '2', '-1', '-2', '-3', '3', '5', '100', '-100', '9223372036854775807', '-9223372036854775808', 'x'];
// 1030 and 2000: past the 1 KiB from which Larder edits a string in place.
const OFFSETS = ['0', '1', '2', '3', '5', '10', '64', '1030', '2000', '-1', 'x', '536870912'];

export const STRING_GENS: readonly CommandGen[] = [
  { name: 'get', weight: 8, make: (rng) => step('GET', key(rng)) },
  { name: 'set', weight: 12, make: set },
  { name: 'setnx', weight: 2, make: (rng) => step('SETNX', key(rng), value(rng)) },
  {
    name: 'setex',
    weight: 2,
    make: (rng, times) => step('SETEX', key(rng), rng.chance(0.8) ? times.relSeconds(rng) : times.badTime(rng), value(rng)),
  },
  {
    name: 'psetex',
    weight: 2,
    make: (rng, times) => step('PSETEX', key(rng), rng.chance(0.8) ? times.relMillis(rng) : times.badTime(rng), value(rng)),
  },
  { name: 'getset', weight: 2, make: (rng) => step('GETSET', key(rng), value(rng)) },
  { name: 'getdel', weight: 2, make: (rng) => step('GETDEL', key(rng)) },
  { name: 'getex', weight: 3, make: getex },
  { name: 'mget', weight: 3, make: (rng) => step('MGET', ...rng.some(KEYS, rng.int(1, 4))) },
  { name: 'mset', weight: 3, make: (rng) => step('MSET', ...pairs(rng)) },
  { name: 'msetnx', weight: 2, make: (rng) => step('MSETNX', ...pairs(rng)) },
  { name: 'incr', weight: 3, make: (rng) => step('INCR', key(rng)) },
  { name: 'decr', weight: 2, make: (rng) => step('DECR', key(rng)) },
  { name: 'incrby', weight: 3, make: (rng) => step('INCRBY', key(rng), rng.pick(INTEGERS)) },
  { name: 'decrby', weight: 2, make: (rng) => step('DECRBY', key(rng), rng.pick(INTEGERS)) },
  { name: 'incrbyfloat', weight: 3, make: (rng) => step('INCRBYFLOAT', key(rng), rng.pick(FLOATS)) },
  { name: 'append', weight: 3, make: (rng) => step('APPEND', key(rng), value(rng)) },
  { name: 'strlen', weight: 2, make: (rng) => step('STRLEN', key(rng)) },
  { name: 'getrange', weight: 3, make: (rng) => step('GETRANGE', key(rng), rng.pick(RANGE_ENDS), rng.pick(RANGE_ENDS)) },
  { name: 'substr', weight: 1, make: (rng) => step('SUBSTR', key(rng), rng.pick(RANGE_ENDS), rng.pick(RANGE_ENDS)) },
  { name: 'setrange', weight: 3, make: (rng) => step('SETRANGE', key(rng), rng.pick(OFFSETS), value(rng)) },
  { name: 'lcs', weight: 3, make: lcs },
];

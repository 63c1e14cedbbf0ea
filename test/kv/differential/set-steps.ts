// Random commands of the set family (Redis t_set.c). Members come from a small alphabet of
// integers (which Redis keeps in an intset) and other byte strings (a hashtable), so sets
// collide, change encoding and meet WRONGTYPE; now and then a set grows past the intset limit.
//
// Compared loosely, and why: SMEMBERS, SINTER, SUNION and SDIFF list members in an order
// Redis does not define (unordered); SSCAN cursors differ (a full walk on each side, from
// cursor 0 only, as Redis's hash-table cursors mean nothing to Larder); SRANDMEMBER and SPOP
// draw at random ('draw', see draw-check.ts, which also brings the sides back together after
// SPOP).

import { anyCase, KEYS, PATTERNS } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const INT_MEMBERS: readonly string[] = ['0', '1', '2', '3', '-1', '10', '42', '-100', '9223372036854775807', '-9223372036854775808'];
const OTHER_MEMBERS: readonly string[] = [
  'a', 'b', 'c', 'hello', '', '007', '+1', '-0', ' 1', '1.5', '9223372036854775808', utf8('é'), 'x\x00y', '\xff',
];
const COUNTS = ['0', '1', '2', '3', '5', '10', '100', '9223372036854775807', '-1', 'x', '1.5', '', '9223372036854775808'];
// Never a large negative count: Redis would answer with that many members.
const RANDOM_COUNTS = [...COUNTS, '-2', '-5', '-30', '-9223372036854775808'];
const SCAN_PATTERNS = [...PATTERNS, '*1*', '[0-9]*', '-*', 'a*', '?', '*\xff'];

const key = (rng: Rng) => rng.pick(KEYS);
const step = (...argv: string[]): Step => ({ argv });

/** 1 to `max` members, all integers half of the time so sets stay intsets. */
function members(rng: Rng, max: number): string[] {
  const pool = rng.chance(0.5) ? INT_MEMBERS : rng.chance(0.5) ? OTHER_MEMBERS : [...INT_MEMBERS, ...OTHER_MEMBERS];
  return rng.some(pool, rng.int(1, max));
}

const member = (rng: Rng) => members(rng, 1)[0];
const keys = (rng: Rng, max: number) => rng.some(KEYS, rng.int(1, max));

/** Consecutive integers around Redis's intset limit of 512 entries. */
function manyIntegers(rng: Rng): Step {
  const n = rng.pick([511, 512, 513]);
  const from = rng.pick([0, 1000, -256]);
  return step('SADD', key(rng), ...Array.from({ length: n }, (_, i) => String(from + i)));
}

// SINTERCARD numkeys key [key ...] [LIMIT limit]
function sintercard(rng: Rng): Step {
  const ks = keys(rng, 3);
  const r = rng.next();
  const numkeys = r < 0.85 ? String(ks.length) : rng.pick(['0', '-1', 'x', String(ks.length + 1), '9223372036854775808']);
  const opts: string[] = [];
  if (rng.chance(0.4)) opts.push(anyCase(rng, 'LIMIT'), rng.pick(['0', '1', '2', '3', '100', '-1', 'x']));
  if (rng.chance(0.1)) opts.push(...rng.pick([['LIMIT'], ['FOO'], ['LIMIT', '1']]));
  return step('SINTERCARD', numkeys, ...ks, ...opts);
}

// SSCAN key cursor [MATCH pattern] [COUNT count]
function sscan(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.5)) groups.push([anyCase(rng, 'MATCH'), rng.pick(SCAN_PATTERNS)]);
  if (rng.chance(0.5)) groups.push([anyCase(rng, 'COUNT'), rng.chance(0.9) ? rng.pick(['1', '2', '3', '5', '10', '1000']) : rng.pick(['0', '-1', 'x'])]);
  if (rng.chance(0.05)) groups.push(rng.pick([['TYPE', 'set'], ['FOO'], ['COUNT'], ['MATCH']]));
  const cursor = rng.chance(0.95) ? '0' : rng.pick(['x', '18446744073709551616', ' 0']);
  return { argv: ['SSCAN', key(rng), cursor, ...rng.shuffle(groups).flat()], check: 'keyscan' };
}

const unordered = (...argv: string[]): Step => ({ argv, check: 'unordered' });
const draw = (...argv: string[]): Step => ({ argv, check: 'draw' });

export const SET_GENS: readonly CommandGen[] = [
  { name: 'sadd', weight: 12, make: (rng) => step('SADD', key(rng), ...members(rng, 4)) },
  { name: 'sadd', weight: 1, make: manyIntegers },
  { name: 'srem', weight: 6, make: (rng) => step('SREM', key(rng), ...members(rng, 3)) },
  { name: 'smembers', weight: 4, make: (rng) => unordered('SMEMBERS', key(rng)) },
  { name: 'sismember', weight: 3, make: (rng) => step('SISMEMBER', key(rng), member(rng)) },
  { name: 'smismember', weight: 3, make: (rng) => step('SMISMEMBER', key(rng), ...members(rng, 4)) },
  { name: 'scard', weight: 3, make: (rng) => step('SCARD', key(rng)) },
  {
    name: 'spop',
    weight: 4,
    make: (rng) => (rng.chance(0.4) ? draw('SPOP', key(rng)) : draw('SPOP', key(rng), rng.pick(COUNTS))),
  },
  {
    name: 'srandmember',
    weight: 4,
    make: (rng) => (rng.chance(0.3) ? draw('SRANDMEMBER', key(rng)) : draw('SRANDMEMBER', key(rng), rng.pick(RANDOM_COUNTS))),
  },
  { name: 'smove', weight: 4, make: (rng) => step('SMOVE', key(rng), key(rng), member(rng)) },
  { name: 'sinter', weight: 3, make: (rng) => unordered('SINTER', ...keys(rng, 3)) },
  { name: 'sintercard', weight: 3, make: sintercard },
  { name: 'sinterstore', weight: 3, make: (rng) => step('SINTERSTORE', key(rng), ...keys(rng, 3)) },
  { name: 'sunion', weight: 3, make: (rng) => unordered('SUNION', ...keys(rng, 3)) },
  { name: 'sunionstore', weight: 3, make: (rng) => step('SUNIONSTORE', key(rng), ...keys(rng, 3)) },
  { name: 'sdiff', weight: 3, make: (rng) => unordered('SDIFF', ...keys(rng, 3)) },
  { name: 'sdiffstore', weight: 3, make: (rng) => step('SDIFFSTORE', key(rng), ...keys(rng, 3)) },
  { name: 'sscan', weight: 3, make: sscan },
];

/**
 * OBJECT ENCODING of any key. Only for runs whose strings are all made by SET: Larder cannot
 * tell a string Redis grew in place (APPEND, SETRANGE), which Redis calls raw.
 */
export const SET_ENCODING_GENS: readonly CommandGen[] = [
  { name: 'object', weight: 4, make: (rng) => step('OBJECT', anyCase(rng, 'ENCODING'), key(rng)) },
];

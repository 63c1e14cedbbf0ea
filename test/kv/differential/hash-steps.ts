// Random commands of the hash family as Redis 7.0 has them (t_hash.c): every option, with
// invalid numbers and wrong counts now and then, so error replies are compared too. The
// field TTL commands (7.4) and HGETDEL/HGETEX/HSETEX (8.0) are newer than the oracle and
// have doc-derived tests instead (test/kv/commands/hash-expiry.test.ts).
//
// Hashes stay listpack-sized here (few fields, short values: increments that would print a
// 309-digit number are left out), because only then does Redis answer HGETALL and HSCAN in
// insertion order, which Larder keeps. Larger hashes are covered by the HTTP tests.

import { anyCase, FLOATS, INTEGERS, KEYS, PATTERNS, VALUES } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const FIELDS: readonly string[] = ['f', 'g', 'h', 'field:1', '', '1', '-7', utf8('ké'), 'b\x00\xff'];
const FIELD_PATTERNS: readonly string[] = [...PATTERNS, 'f*', '?', 'field:?', '[fg]', '*1'];
const HASH_FLOATS = FLOATS.filter((f) => !/e308/.test(f));
// Negative counts past Larder's limit are answered only by Redis and never sent (see the
// exclusion in differential.test.ts); with WITHVALUES the largest are errors on both sides.
const COUNTS = ['0', '1', '2', '3', '5', '10', '100', '-1', '-2', '-5', '-10', '9223372036854775807', '-9223372036854775807'];
const BAD_COUNTS = ['x', '', '1.5', '-9223372036854775808', '9223372036854775808', '4611686018427387904', '-4611686018427387904'];

const key = (rng: Rng) => rng.pick(KEYS);
const field = (rng: Rng) => rng.pick(FIELDS);
const fields = (rng: Rng, max: number) => rng.some(FIELDS, rng.int(1, max));
const step = (...argv: string[]): Step => ({ argv });

/** Field-value pairs; fields may repeat (the last value wins). */
function pairs(rng: Rng): string[] {
  return Array.from({ length: rng.int(1, 3) }, () => [field(rng), rng.pick(VALUES)]).flat();
}

// HRANDFIELD key [count [WITHVALUES]]
function hrandfield(rng: Rng): Step {
  const r = rng.next();
  // 'sameLength' also for the form without a count, which a mutation may give one.
  if (r < 0.2) return { argv: ['HRANDFIELD', key(rng)], check: 'sameLength' };
  const count = rng.chance(0.9) ? rng.pick(COUNTS) : rng.pick(BAD_COUNTS);
  const extra = r < 0.6 ? [] : rng.chance(0.95) ? [anyCase(rng, 'WITHVALUES')] : ['FOO'];
  if (extra.length === 1 && rng.chance(0.05)) extra.push('WITHVALUES');
  return { argv: ['HRANDFIELD', key(rng), count, ...extra], check: 'sameLength' };
}

// HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES is 7.4]
function hscan(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.5)) groups.push([anyCase(rng, 'MATCH'), rng.pick(FIELD_PATTERNS)]);
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'COUNT'), rng.chance(0.9) ? rng.pick(['1', '2', '10']) : rng.pick(['0', '-1', 'x'])]);
  if (rng.chance(0.04)) groups.push(['FOO']);
  const cursor = rng.chance(0.9) ? '0' : rng.pick(['3', '-1', 'x', '18446744073709551616']);
  return step('HSCAN', key(rng), cursor, ...rng.shuffle(groups).flat());
}

export const HASH_GENS: readonly CommandGen[] = [
  { name: 'hset', weight: 12, make: (rng) => step('HSET', key(rng), ...pairs(rng)) },
  { name: 'hmset', weight: 3, make: (rng) => step('HMSET', key(rng), ...pairs(rng)) },
  { name: 'hsetnx', weight: 3, make: (rng) => step('HSETNX', key(rng), field(rng), rng.pick(VALUES)) },
  { name: 'hget', weight: 6, make: (rng) => step('HGET', key(rng), field(rng)) },
  { name: 'hmget', weight: 4, make: (rng) => step('HMGET', key(rng), ...fields(rng, 4)) },
  { name: 'hgetall', weight: 6, make: (rng) => step('HGETALL', key(rng)) },
  { name: 'hkeys', weight: 2, make: (rng) => step('HKEYS', key(rng)) },
  { name: 'hvals', weight: 2, make: (rng) => step('HVALS', key(rng)) },
  { name: 'hdel', weight: 5, make: (rng) => step('HDEL', key(rng), ...fields(rng, 3)) },
  { name: 'hexists', weight: 3, make: (rng) => step('HEXISTS', key(rng), field(rng)) },
  { name: 'hlen', weight: 3, make: (rng) => step('HLEN', key(rng)) },
  { name: 'hstrlen', weight: 3, make: (rng) => step('HSTRLEN', key(rng), field(rng)) },
  { name: 'hincrby', weight: 5, make: (rng) => step('HINCRBY', key(rng), field(rng), rng.pick(INTEGERS)) },
  { name: 'hincrbyfloat', weight: 5, make: (rng) => step('HINCRBYFLOAT', key(rng), field(rng), rng.pick(HASH_FLOATS)) },
  { name: 'hrandfield', weight: 4, make: hrandfield },
  { name: 'hscan', weight: 3, make: hscan },
  { name: 'object', weight: 1, make: (rng) => step('OBJECT', 'ENCODING', key(rng)) },
  { name: 'type', weight: 1, make: (rng) => step('TYPE', key(rng)) },
  {
    name: 'scan',
    weight: 1,
    make: (rng) => ({ argv: ['SCAN', '0', 'TYPE', rng.pick(['hash', 'HASH', 'string'])], check: 'scan' }),
  },
  // Other types on the same keys, for WRONGTYPE both ways, and deletions to start over.
  { name: 'set', weight: 1.5, make: (rng) => step('SET', key(rng), rng.pick(VALUES)) },
  { name: 'get', weight: 1, make: (rng) => step('GET', key(rng)) },
  { name: 'del', weight: 1.5, make: (rng) => step('DEL', key(rng)) },
];

// Random commands of the list family (Redis t_list.c): every option, sometimes wrongly
// combined or with invalid numbers, so error replies are compared too. Elements come from a
// small alphabet so LPOS, LREM and LINSERT find their pivots and duplicates; a few string
// writes and deletes make WRONGTYPE and absent keys common. The blocking forms are refused by
// Larder and block in Redis, so they are not generated (their refusal is tested over HTTP).

import { anyCase, KEYS, VALUES } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Few distinct elements, so searches hit; now and then any value of the shared alphabet. */
const ELEMENTS: readonly string[] = ['a', 'b', 'c', 'a', 'b', '1', '', 'ab\x00', utf8('é'), '\xff'];
const INDEXES: readonly string[] = [
  '0', '1', '2', '3', '-1', '-2', '-3', '5', '-5', '10', '-100', '100',
  '9223372036854775807', '-9223372036854775808', '9223372036854775808', 'x', '1.5', '', '+1', '01',
];
const POP_COUNTS: readonly string[] = ['0', '1', '2', '3', '10', '-1', 'x', '', '9223372036854775807', '-9223372036854775808'];
const LREM_COUNTS: readonly string[] = ['0', '1', '2', '-1', '-2', '5', '-5', 'x', '9223372036854775807', '-9223372036854775808'];
const RANKS: readonly string[] = [
  '1', '2', '3', '-1', '-2', '-3', '0', 'x', '9223372036854775807', '-9223372036854775807', '-9223372036854775808', '9223372036854775808',
];
const MATCH_COUNTS: readonly string[] = ['0', '1', '2', '5', '-1', 'x'];
const MAXLENS: readonly string[] = ['0', '1', '2', '3', '10', '-1', 'x'];

const key = (rng: Rng) => rng.pick(KEYS);
const element = (rng: Rng) => (rng.chance(0.9) ? rng.pick(ELEMENTS) : rng.pick(VALUES));
const elements = (rng: Rng) => Array.from({ length: rng.int(1, 4) }, () => element(rng));
const end = (rng: Rng) => (rng.chance(0.95) ? anyCase(rng, rng.pick(['LEFT', 'RIGHT'])) : rng.pick(['UP', 'leftx', '']));
const step = (...argv: string[]): Step => ({ argv });

// LPOP key [count]   (and RPOP)
const pop = (name: string) => (rng: Rng) =>
  rng.chance(0.5) ? step(name, key(rng)) : step(name, key(rng), rng.pick(POP_COUNTS));

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
function lpos(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'RANK'), rng.pick(RANKS)]);
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'COUNT'), rng.pick(MATCH_COUNTS)]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'MAXLEN'), rng.pick(MAXLENS)]);
  if (rng.chance(0.05)) groups.push(rng.pick([['RANK'], ['FOO', '1'], ['COUNT', '1']]));
  return step('LPOS', key(rng), element(rng), ...rng.shuffle(groups).flat());
}

// LMPOP numkeys key [key ...] LEFT | RIGHT [COUNT count]
function lmpop(rng: Rng): Step {
  const keys = rng.some(KEYS, rng.int(1, 3));
  const numkeys = rng.chance(0.9) ? String(keys.length) : rng.pick(['0', '-1', 'x', '5', '9223372036854775807']);
  const tail: string[] = [];
  if (rng.chance(0.5)) tail.push(anyCase(rng, 'COUNT'), rng.pick(['1', '2', '3', '10', '0', '-1', 'x']));
  if (rng.chance(0.05)) tail.push(rng.pick(['COUNT', 'FOO']));
  return step('LMPOP', numkeys, ...keys, end(rng), ...tail);
}

// LINSERT key BEFORE | AFTER pivot element
function linsert(rng: Rng): Step {
  const where = rng.chance(0.95) ? anyCase(rng, rng.pick(['BEFORE', 'AFTER'])) : 'MIDDLE';
  return step('LINSERT', key(rng), where, element(rng), element(rng));
}

export const LIST_GENS: readonly CommandGen[] = [
  { name: 'lpush', weight: 8, make: (rng) => step('LPUSH', key(rng), ...elements(rng)) },
  { name: 'rpush', weight: 8, make: (rng) => step('RPUSH', key(rng), ...elements(rng)) },
  { name: 'lpushx', weight: 2, make: (rng) => step('LPUSHX', key(rng), ...elements(rng)) },
  { name: 'rpushx', weight: 2, make: (rng) => step('RPUSHX', key(rng), ...elements(rng)) },
  { name: 'lpop', weight: 4, make: pop('LPOP') },
  { name: 'rpop', weight: 4, make: pop('RPOP') },
  { name: 'llen', weight: 3, make: (rng) => step('LLEN', key(rng)) },
  // Often the whole list, so the contents are compared even where no read happened to look.
  { name: 'lrange', weight: 4, make: (rng) => step('LRANGE', key(rng), '0', '-1') },
  { name: 'lrange', weight: 4, make: (rng) => step('LRANGE', key(rng), rng.pick(INDEXES), rng.pick(INDEXES)) },
  { name: 'lindex', weight: 3, make: (rng) => step('LINDEX', key(rng), rng.pick(INDEXES)) },
  { name: 'lset', weight: 3, make: (rng) => step('LSET', key(rng), rng.pick(INDEXES), element(rng)) },
  { name: 'lrem', weight: 3, make: (rng) => step('LREM', key(rng), rng.pick(LREM_COUNTS), element(rng)) },
  { name: 'ltrim', weight: 2, make: (rng) => step('LTRIM', key(rng), rng.pick(INDEXES), rng.pick(INDEXES)) },
  { name: 'linsert', weight: 3, make: linsert },
  { name: 'lpos', weight: 4, make: lpos },
  { name: 'lmove', weight: 3, make: (rng) => step('LMOVE', key(rng), key(rng), end(rng), end(rng)) },
  { name: 'rpoplpush', weight: 2, make: (rng) => step('RPOPLPUSH', key(rng), key(rng)) },
  { name: 'lmpop', weight: 3, make: lmpop },
  // Other types and absent keys.
  { name: 'set', weight: 1, make: (rng) => step('SET', key(rng), rng.pick(VALUES)) },
  { name: 'del', weight: 1, make: (rng) => step('DEL', key(rng)) },
  { name: 'type', weight: 1, make: (rng) => step('TYPE', key(rng)) },
  { name: 'object', weight: 0.5, make: (rng) => step('OBJECT', 'ENCODING', key(rng)) },
];

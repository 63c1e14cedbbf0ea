// Random commands of the generic (keyspace) family (Redis db.c, expire.c), plus the server and
// connection commands the issue lists with it (PING, ECHO, DBSIZE, FLUSHDB).
//
// Expiry times never race: relative times (EXPIRE, PEXPIRE) only take NX/XX, which compare
// nothing; GT/LT come with absolute times (or relative ones in the past), chosen far apart
// (see Times). TTL-like reads compare with a small slack.

import { anyCase, KEYS, PATTERNS, VALUES, type Times } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const key = (rng: Rng) => rng.pick(KEYS);
const keys = (rng: Rng, max: number) => rng.some(KEYS, rng.int(1, max));
const step = (...argv: string[]): Step => ({ argv });

/** NX/XX/GT/LT as EXPIRE takes them; `ordered` allows GT and LT. Sometimes two: an error. */
function expireFlags(rng: Rng, ordered: boolean): string[] {
  const words = ordered ? ['NX', 'XX', 'GT', 'LT'] : ['NX', 'XX'];
  const flags: string[] = [];
  if (rng.chance(0.5)) flags.push(anyCase(rng, rng.pick(words)));
  if (rng.chance(0.08)) flags.push(rng.pick(['NX', 'XX', 'GT', 'LT', 'FOO']));
  return flags;
}

// EXPIRE key seconds [NX | XX | GT | LT]   (and PEXPIRE in milliseconds)
function expireRelative(name: 'EXPIRE' | 'PEXPIRE') {
  return (rng: Rng, times: Times): Step => {
    const r = rng.next();
    if (r < 0.15) return step(name, key(rng), rng.pick(['0', '-1', '-100']), ...expireFlags(rng, true));
    if (r < 0.25) return step(name, key(rng), times.badTime(rng), ...expireFlags(rng, false));
    const amount = name === 'EXPIRE' ? times.relSeconds(rng) : times.relMillis(rng);
    return step(name, key(rng), amount, ...expireFlags(rng, false));
  };
}

// EXPIREAT key unix-time-seconds [NX | XX | GT | LT]   (and PEXPIREAT in milliseconds)
function expireAbsolute(name: 'EXPIREAT' | 'PEXPIREAT') {
  return (rng: Rng, times: Times): Step => {
    const at = rng.chance(0.1) ? times.badTime(rng) : name === 'EXPIREAT' ? times.absSeconds(rng) : times.absMillis(rng);
    return step(name, key(rng), at, ...expireFlags(rng, true));
  };
}

// COPY source destination [DB destination-db] [REPLACE]
function copy(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'REPLACE')]);
  if (rng.chance(0.1)) groups.push([anyCase(rng, 'DB'), rng.pick(['0', 'x', '-1'])]);
  if (rng.chance(0.04)) groups.push(['FOO']);
  return step('COPY', key(rng), key(rng), ...rng.shuffle(groups).flat());
}

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
function scan(rng: Rng): Step {
  const groups: string[][] = [];
  if (rng.chance(0.5)) groups.push([anyCase(rng, 'MATCH'), rng.pick(PATTERNS)]);
  if (rng.chance(0.4)) groups.push([anyCase(rng, 'COUNT'), rng.chance(0.9) ? rng.pick(['1', '2', '3', '10', '1000']) : rng.pick(['0', '-1', 'x'])]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, 'TYPE'), rng.pick(['string', 'STRING', 'hash', 'none', 'nosuchtype'])]);
  if (rng.chance(0.04)) groups.push(['FOO']);
  const cursor = rng.chance(0.95) ? '0' : rng.pick(['x', '-1', '18446744073709551616']);
  return { argv: ['SCAN', cursor, ...rng.shuffle(groups).flat()], check: 'scan' };
}

const timeRead = (name: string) => (rng: Rng): Step => ({ argv: [name, key(rng)], check: 'time' });

/** Plain writes, so a run of the generic family alone has keys to work on. */
export const SEED_GENS: readonly CommandGen[] = [
  { name: 'set', weight: 8, make: (rng) => step('SET', key(rng), rng.pick(VALUES)) },
  { name: 'set', weight: 3, make: (rng, times) => step('SET', key(rng), rng.pick(VALUES), 'PXAT', times.absMillis(rng)) },
];

export const GENERIC_GENS: readonly CommandGen[] = [
  { name: 'del', weight: 4, make: (rng) => step('DEL', ...keys(rng, 3)) },
  { name: 'unlink', weight: 2, make: (rng) => step('UNLINK', ...keys(rng, 3)) },
  { name: 'exists', weight: 4, make: (rng) => step('EXISTS', ...keys(rng, 4)) },
  { name: 'touch', weight: 2, make: (rng) => step('TOUCH', ...keys(rng, 3)) },
  { name: 'expire', weight: 3, make: expireRelative('EXPIRE') },
  { name: 'pexpire', weight: 3, make: expireRelative('PEXPIRE') },
  { name: 'expireat', weight: 4, make: expireAbsolute('EXPIREAT') },
  { name: 'pexpireat', weight: 4, make: expireAbsolute('PEXPIREAT') },
  { name: 'ttl', weight: 3, make: timeRead('TTL') },
  { name: 'pttl', weight: 3, make: timeRead('PTTL') },
  { name: 'expiretime', weight: 3, make: timeRead('EXPIRETIME') },
  { name: 'pexpiretime', weight: 3, make: timeRead('PEXPIRETIME') },
  { name: 'persist', weight: 3, make: (rng) => step('PERSIST', key(rng)) },
  { name: 'type', weight: 3, make: (rng) => step('TYPE', key(rng)) },
  { name: 'rename', weight: 3, make: (rng) => step('RENAME', key(rng), key(rng)) },
  { name: 'renamenx', weight: 3, make: (rng) => step('RENAMENX', key(rng), key(rng)) },
  { name: 'copy', weight: 4, make: copy },
  { name: 'keys', weight: 3, make: (rng) => ({ argv: ['KEYS', rng.pick(PATTERNS)], check: 'unordered' }) },
  { name: 'scan', weight: 3, make: scan },
  { name: 'randomkey', weight: 1, make: () => ({ argv: ['RANDOMKEY'], check: 'nilness' }) },
  { name: 'dbsize', weight: 2, make: () => step('DBSIZE') },
  { name: 'flushdb', weight: 0.3, make: (rng) => step('FLUSHDB', ...rng.some(['ASYNC', 'SYNC', 'async'], rng.int(0, 1))) },
  { name: 'echo', weight: 1, make: (rng) => step('ECHO', rng.pick(VALUES)) },
  { name: 'ping', weight: 1, make: (rng) => step('PING', ...rng.some(VALUES, rng.int(0, 1))) },
];

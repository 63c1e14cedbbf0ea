// Random commands of the stream family as Redis 7.0 has them (t_stream.c): explicit and
// partial ("<ms>-*") ids so replies are deterministic ('*' would take each side's clock),
// small id, group and consumer alphabets so groups, pending entries and claims collide, and
// malformed ids and counts now and then for the error replies.
// Not generated: '*' ids (clock), BLOCK (timing), the extended XPENDING form and XINFO
// CONSUMERS (idle times), XINFO STREAM (Redis's radix-tree-nodes counts its own tree), and
// XCLAIM/XAUTOCLAIM with a min-idle-time above 0 (timing). XDELEX and XACKDEL are newer than
// the oracle (HTTP tests instead).

import { anyCase, KEYS } from './alphabet.js';
import type { CommandGen, FinalRead, Step } from './harness.js';
import type { Rng } from './prng.js';

const GROUPS = ['g1', 'g2', 'g3'];
const CONSUMERS = ['alice', 'bob', 'c'];
const FIELDS = ['f', 'g', 'name', '', 'b\x00\xff'];
const VALUES = ['1', 'v', '', 'hello world', '\xff'];
const BAD_IDS = ['x', '1-x', '-1', '1-2-3', '', '(', '18446744073709551616', '1--0', ' 5', '+5', '05-1'];
const COUNTS = ['0', '1', '2', '3', '10', '-1'];
const BAD_COUNTS = ['x', '1.5', '', '9223372036854775808'];

const key = (rng: Rng) => rng.pick(KEYS.slice(0, 4));
const group = (rng: Rng) => rng.pick(GROUPS);
const consumer = (rng: Rng) => rng.pick(CONSUMERS);
const step = (...argv: string[]): Step => ({ argv });

/** An id near the small range the runs use. */
function id(rng: Rng): string {
  if (rng.chance(0.05)) return rng.pick(BAD_IDS);
  const ms = rng.int(0, 12);
  if (rng.chance(0.25)) return String(ms);
  return `${ms}-${rng.int(0, 3)}`;
}

/** A range bound: '-', '+', an id, or an exclusive one. */
function bound(rng: Rng, end: boolean): string {
  const r = rng.next();
  if (r < 0.3) return end ? '+' : '-';
  if (r < 0.4) return '(' + id(rng);
  if (r < 0.42) return rng.pick(['(-', '(+', '(18446744073709551615-18446744073709551615', '(0-0']);
  return id(rng);
}

function fields(rng: Rng): string[] {
  return Array.from({ length: rng.int(1, 2) }, () => [rng.pick(FIELDS), rng.pick(VALUES)]).flat();
}

function count(rng: Rng): string[] {
  if (!rng.chance(0.5)) return [];
  return [anyCase(rng, 'COUNT'), rng.chance(0.9) ? rng.pick(COUNTS) : rng.pick(BAD_COUNTS)];
}

/** MAXLEN/MINID [=|~] threshold [LIMIT n] */
function trimArgs(rng: Rng): string[] {
  const minid = rng.chance(0.4);
  const out = [anyCase(rng, minid ? 'MINID' : 'MAXLEN')];
  const mode = rng.pick(['', '=', '~']);
  if (mode !== '') out.push(mode);
  out.push(minid ? id(rng) : rng.chance(0.9) ? String(rng.int(0, 6)) : rng.pick(['-1', 'x']));
  if (rng.chance(0.2)) out.push(anyCase(rng, 'LIMIT'), rng.pick(['0', '1', '5', '-1', 'x']));
  return out;
}

// XADD key [NOMKSTREAM] [trim] <id | ms-*> field value ...
function xadd(rng: Rng): Step {
  const argv = ['XADD', key(rng)];
  if (rng.chance(0.1)) argv.push(anyCase(rng, 'NOMKSTREAM'));
  if (rng.chance(0.25)) argv.push(...trimArgs(rng));
  const r = rng.next();
  argv.push(r < 0.2 ? `${rng.int(0, 14)}-*` : r < 0.25 ? rng.pick(['0-0', '0', '18446744073709551615-18446744073709551615']) : id(rng));
  return { argv: [...argv, ...fields(rng)] };
}

// XREAD [COUNT n] STREAMS key... id...
function xread(rng: Rng): Step {
  const keys = rng.some(KEYS.slice(0, 4), rng.int(1, 2));
  const ids = keys.map(() => (rng.chance(0.2) ? '$' : id(rng)));
  return step('XREAD', ...count(rng), anyCase(rng, 'STREAMS'), ...keys, ...ids);
}

// XREADGROUP GROUP g c [COUNT n] [NOACK] STREAMS key... id...
function xreadgroup(rng: Rng): Step {
  const keys = rng.some(KEYS.slice(0, 4), rng.chance(0.8) ? 1 : 2);
  const ids = keys.map(() => (rng.chance(0.7) ? '>' : rng.chance(0.9) ? id(rng) : '$'));
  const noack = rng.chance(0.15) ? [anyCase(rng, 'NOACK')] : [];
  return step('XREADGROUP', anyCase(rng, 'GROUP'), group(rng), consumer(rng), ...count(rng), ...noack, anyCase(rng, 'STREAMS'), ...keys, ...ids);
}

function xgroup(rng: Rng): Step {
  const r = rng.next();
  if (r < 0.45) {
    const opts: string[] = [];
    if (rng.chance(0.5)) opts.push(anyCase(rng, 'MKSTREAM'));
    if (rng.chance(0.2)) opts.push(anyCase(rng, 'ENTRIESREAD'), rng.pick(['0', '1', '3', '-1', '-2', 'x']));
    return step('XGROUP', 'CREATE', key(rng), group(rng), rng.chance(0.4) ? '$' : id(rng), ...opts);
  }
  if (r < 0.6) {
    const opts = rng.chance(0.3) ? [anyCase(rng, 'ENTRIESREAD'), rng.pick(['0', '2', '-1', '-5'])] : [];
    return step('XGROUP', 'SETID', key(rng), group(rng), rng.chance(0.3) ? '$' : id(rng), ...opts);
  }
  if (r < 0.7) return step('XGROUP', 'DESTROY', key(rng), group(rng));
  if (r < 0.85) return step('XGROUP', 'CREATECONSUMER', key(rng), group(rng), consumer(rng));
  return step('XGROUP', 'DELCONSUMER', key(rng), group(rng), consumer(rng));
}

function ids(rng: Rng, max: number): string[] {
  return Array.from({ length: rng.int(1, max) }, () => id(rng));
}

// XCLAIM key group consumer 0 id... [options]
function xclaim(rng: Rng): Step {
  const opts: string[][] = [];
  if (rng.chance(0.3)) opts.push([anyCase(rng, 'JUSTID')]);
  if (rng.chance(0.2)) opts.push([anyCase(rng, 'FORCE')]);
  if (rng.chance(0.2)) opts.push([anyCase(rng, 'RETRYCOUNT'), rng.pick(['0', '3', 'x'])]);
  if (rng.chance(0.15)) opts.push([anyCase(rng, 'LASTID'), id(rng)]);
  if (rng.chance(0.1)) opts.push([anyCase(rng, 'IDLE'), rng.pick(['1000', 'x'])]);
  if (rng.chance(0.05)) opts.push(['BOGUS']);
  return step('XCLAIM', key(rng), group(rng), consumer(rng), rng.pick(['0', '0', '-5', 'x']), ...ids(rng, 3), ...rng.shuffle(opts).flat());
}

// XAUTOCLAIM key group consumer 0 start [COUNT n] [JUSTID]
function xautoclaim(rng: Rng): Step {
  const opts: string[] = [];
  if (rng.chance(0.5)) opts.push(anyCase(rng, 'COUNT'), rng.pick(['1', '2', '5', '0', '-1', 'x']));
  if (rng.chance(0.3)) opts.push(anyCase(rng, 'JUSTID'));
  return step('XAUTOCLAIM', key(rng), group(rng), consumer(rng), rng.pick(['0', '0', 'x']), bound(rng, false), ...opts);
}

// XSETID key id [ENTRIESADDED n] [MAXDELETEDID id]
function xsetid(rng: Rng): Step {
  const opts: string[] = [];
  if (rng.chance(0.3)) opts.push(anyCase(rng, 'ENTRIESADDED'), rng.pick(['0', '3', '10', '100', '-1']));
  if (rng.chance(0.3)) opts.push(anyCase(rng, 'MAXDELETEDID'), id(rng));
  return step('XSETID', key(rng), rng.chance(0.5) ? `${rng.int(8, 20)}-0` : id(rng), ...opts);
}

export const STREAM_GENS: readonly CommandGen[] = [
  { name: 'xadd', weight: 20, make: xadd },
  { name: 'xrange', weight: 5, make: (rng) => step('XRANGE', key(rng), bound(rng, false), bound(rng, true), ...count(rng)) },
  { name: 'xrevrange', weight: 4, make: (rng) => step('XREVRANGE', key(rng), bound(rng, true), bound(rng, false), ...count(rng)) },
  { name: 'xlen', weight: 2, make: (rng) => step('XLEN', key(rng)) },
  { name: 'xdel', weight: 5, make: (rng) => step('XDEL', key(rng), ...ids(rng, 3)) },
  { name: 'xtrim', weight: 4, make: (rng) => step('XTRIM', key(rng), ...trimArgs(rng)) },
  { name: 'xread', weight: 5, make: xread },
  { name: 'xgroup', weight: 8, make: xgroup },
  { name: 'xreadgroup', weight: 10, make: xreadgroup },
  { name: 'xack', weight: 5, make: (rng) => step('XACK', key(rng), group(rng), ...ids(rng, 3)) },
  { name: 'xpending', weight: 4, make: (rng) => step('XPENDING', key(rng), group(rng)) },
  { name: 'xclaim', weight: 5, make: xclaim },
  { name: 'xautoclaim', weight: 4, make: xautoclaim },
  { name: 'xinfo', weight: 3, make: (rng) => step('XINFO', 'GROUPS', key(rng)) },
  { name: 'xsetid', weight: 3, make: xsetid },
  // Other types on the same keys, for WRONGTYPE, and deletions to start over.
  { name: 'set', weight: 1, make: (rng) => step('SET', key(rng), 'x') },
  { name: 'del', weight: 1.5, make: (rng) => step('DEL', key(rng)) },
  { name: 'type', weight: 1, make: (rng) => step('TYPE', key(rng)) },
];

/** What the final comparison (and the one after a restart) reads of every key. */
export const STREAM_FINAL_READS: readonly FinalRead[] = [
  [['TYPE'], 'exact'],
  [['XRANGE'], 'exact', ['-', '+']],
  [['XINFO', 'GROUPS'], 'exact'],
  ...GROUPS.map((g): FinalRead => [['XPENDING'], 'exact', [g]]),
];

/**
 * Long streams on two keys: appends of "<ms>-*" to the same few milliseconds, so streams
 * grow past Redis's 100-entry nodes, with values of every listpack size class (small and
 * large integers, strings up to a few hundred bytes) so nodes also end at its 4096-byte limit,
 * and exact trims, which remove whole nodes and leave tombstones in the first one left.
 */
function longFields(rng: Rng): string[] {
  const value = () => rng.pick(['1', '-70000', '9000000000', 'v', 'x'.repeat(rng.int(0, 300))]);
  return rng.chance(0.8) ? ['f', value()] : ['f', value(), rng.pick(['g', 'f']), value()];
}

export const STREAM_LONG_GENS: readonly CommandGen[] = [
  {
    name: 'xadd',
    weight: 30,
    make: (rng) => step('XADD', rng.pick(KEYS.slice(0, 2)), `${rng.pick([12, 13])}-*`, ...longFields(rng)),
  },
  {
    name: 'xtrim',
    weight: 2,
    make: (rng) => {
      const minid = rng.chance(0.4);
      const threshold = minid ? `12-${rng.int(0, 300)}` : String(rng.int(0, 250));
      const limit = rng.chance(0.3) ? [anyCase(rng, 'LIMIT'), rng.pick(['0', '50', '100', '150', '1000'])] : [];
      return step('XTRIM', rng.pick(KEYS.slice(0, 2)), minid ? 'MINID' : 'MAXLEN', rng.pick(['~', '=', '=']), threshold, ...limit);
    },
  },
  {
    name: 'xadd',
    weight: 2,
    make: (rng) => step('XADD', rng.pick(KEYS.slice(0, 2)), 'MAXLEN', '=', String(rng.int(50, 250)), '13-*', 'f', 'v'),
  },
  { name: 'xdel', weight: 3, make: (rng) => step('XDEL', rng.pick(KEYS.slice(0, 2)), `12-${rng.int(0, 300)}`, `13-${rng.int(0, 300)}`) },
  { name: 'xlen', weight: 2, make: (rng) => step('XLEN', rng.pick(KEYS.slice(0, 2))) },
  { name: 'xrange', weight: 2, make: (rng) => step('XRANGE', rng.pick(KEYS.slice(0, 2)), '-', '+', 'COUNT', '3') },
];

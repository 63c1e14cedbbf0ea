// Hash commands (Redis t_hash.c, with Redis 7.4's field TTLs and Redis 8's HGETDEL, HGETEX
// and HSETEX): the family's declarations. Handlers live in hash/; the value, and its
// registration as a container kind, in engine/hash/.

import { hincrbyCommand, hincrbyfloatCommand } from './hash/counter.js';
import { hexpireGeneric, hpersistCommand, httlGeneric } from './hash/field-expiry.js';
import { hgetdelCommand, hgetexCommand, hsetexCommand } from './hash/get-set-ex.js';
import {
  hdelCommand,
  hexistsCommand,
  hgetallCommand,
  hgetCommand,
  hkeysCommand,
  hlenCommand,
  hmgetCommand,
  hmsetCommand,
  hsetCommand,
  hsetnxCommand,
  hstrlenCommand,
  hvalsCommand,
} from './hash/get-set.js';
import { hrandfieldCommand } from './hash/random.js';
import { hscanCommand } from './hash/scan.js';
import { admitsPicks, MAX_RANDOM_PICKS } from './random-picks.js';
import { family, ONE_KEY, type CommandSpec, type Flag } from './spec.js';

const WRITE_FAST: readonly Flag[] = ['write', 'fast'];
const READ_FAST: readonly Flag[] = ['readonly', 'fast'];

/** Upstash takes field times as far ahead as EXPIREAT takes a key's (see readFieldTime). */
const FAR_FIELD_TIMES = "takes field expiry times up to EXPIREAT's int64 ms (Upstash), where Redis 7.4 refuses times past 2^46 ms";

/** One of the four commands that set field expiries. */
function hexpire(name: string, unit: 1 | 1000, relative: boolean): CommandSpec {
  return {
    name,
    arity: -6,
    flags: WRITE_FAST,
    keys: ONE_KEY,
    deviates: FAR_FIELD_TIMES,
    run: (ctx, argv) => hexpireGeneric(ctx, argv, name, unit, relative),
  };
}

/** One of the four commands that read field expiries. */
function httl(name: string, ms: boolean, absolute: boolean): CommandSpec {
  return { name, arity: -5, flags: READ_FAST, keys: ONE_KEY, run: (ctx, argv) => httlGeneric(ctx, argv, name, ms, absolute) };
}

export default family('hash', 'hash', [
  { name: 'hset', arity: -4, flags: WRITE_FAST, keys: ONE_KEY, run: hsetCommand },
  { name: 'hmset', arity: -4, flags: WRITE_FAST, keys: ONE_KEY, run: hmsetCommand },
  { name: 'hsetnx', arity: 4, flags: WRITE_FAST, keys: ONE_KEY, run: hsetnxCommand },
  { name: 'hget', arity: 3, flags: READ_FAST, keys: ONE_KEY, run: hgetCommand },
  { name: 'hmget', arity: -3, flags: READ_FAST, keys: ONE_KEY, run: hmgetCommand },
  { name: 'hgetall', arity: 2, flags: ['readonly'], keys: ONE_KEY, run: hgetallCommand },
  { name: 'hkeys', arity: 2, flags: ['readonly'], keys: ONE_KEY, run: hkeysCommand },
  { name: 'hvals', arity: 2, flags: ['readonly'], keys: ONE_KEY, run: hvalsCommand },
  { name: 'hdel', arity: -3, flags: WRITE_FAST, keys: ONE_KEY, run: hdelCommand },
  { name: 'hexists', arity: 3, flags: READ_FAST, keys: ONE_KEY, run: hexistsCommand },
  { name: 'hlen', arity: 2, flags: READ_FAST, keys: ONE_KEY, run: hlenCommand },
  { name: 'hstrlen', arity: 3, flags: READ_FAST, keys: ONE_KEY, run: hstrlenCommand },
  { name: 'hincrby', arity: 4, flags: WRITE_FAST, keys: ONE_KEY, run: hincrbyCommand },
  { name: 'hincrbyfloat', arity: 4, flags: WRITE_FAST, keys: ONE_KEY, run: hincrbyfloatCommand },
  {
    name: 'hrandfield',
    arity: -2,
    flags: ['readonly'],
    keys: ONE_KEY,
    deviates: `a negative count beyond ${MAX_RANDOM_PICKS} is refused before the key is read, where Redis builds a reply of any size`,
    admits: admitsPicks,
    run: hrandfieldCommand,
  },
  { name: 'hscan', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: hscanCommand },
  // Field TTLs (Redis 7.4).
  hexpire('hexpire', 1000, true),
  hexpire('hpexpire', 1, true),
  hexpire('hexpireat', 1000, false),
  hexpire('hpexpireat', 1, false),
  httl('httl', false, false),
  httl('hpttl', true, false),
  httl('hexpiretime', false, true),
  httl('hpexpiretime', true, true),
  { name: 'hpersist', arity: -5, flags: WRITE_FAST, keys: ONE_KEY, run: hpersistCommand },
  // Redis 8.
  { name: 'hgetdel', arity: -5, flags: WRITE_FAST, keys: ONE_KEY, run: hgetdelCommand },
  { name: 'hgetex', arity: -5, flags: WRITE_FAST, keys: ONE_KEY, deviates: FAR_FIELD_TIMES, run: hgetexCommand },
  { name: 'hsetex', arity: -6, flags: WRITE_FAST, keys: ONE_KEY, deviates: FAR_FIELD_TIMES, run: hsetexCommand },
]);

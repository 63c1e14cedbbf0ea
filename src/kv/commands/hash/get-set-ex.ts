// Redis 8's combined commands (t_hash.c): HGETDEL, HGETEX and HSETEX. Logged as Redis
// propagates them: HGETDEL as HDEL, HGETEX as HPEXPIREAT or HPERSIST, HSETEX with PXAT; a
// time already past deletes the fields, which is logged as HDEL. They publish Redis 8's
// events: HGETDEL hdel; HGETEX hexpire, hpersist or hdel; HSETEX hset, then hexpire or hdel.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import {
  HSETEX_EXPIRY_TWICE,
  HSETEX_FNX_AND_FXX,
  INVALID_NUMFIELDS,
  isError,
  MISSING_EXPIRE_TIME,
  NUMFIELDS_NOT_POSITIVE,
  unknownArgument,
  wrongArity,
  type ReplyError,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom } from '../typed.js';
import { EXPIRY_SET, FIELD_DELETED, readFieldsBlock, readTimedOption, setFieldExpiry } from './field-args.js';
import { logExpiries, notifyExpiries } from './field-expiry.js';
import { readHash, writeHash } from './lookup.js';

type TimedWord = 'ex' | 'px' | 'exat' | 'pxat';
const TIMED: readonly string[] = ['ex', 'px', 'exat', 'pxat'];
const INT_MAX = 2 ** 31 - 1;

// HGETDEL key FIELDS numfields field [field ...]
export function hgetdelCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const h = readHash(ctx, key);
  if (isError(h)) return h;
  const fields = readFieldsBlock(argv, 2, NUMFIELDS_NOT_POSITIVE, 'hgetdel');
  if (isError(fields)) return fields;
  const out: (string | null)[] = [];
  const deleted: string[] = [];
  for (const field of fields) {
    const value = h?.get(field)?.value ?? null;
    out.push(value);
    if (value === null) continue;
    h!.delete(field);
    deleted.push(field);
  }
  if (deleted.length === 0) return unchanged(ctx, out);
  removedFrom(ctx, KeyEvent.hash, 'hdel', key, h!.size);
  ctx.rewrite([['hdel', key, ...deleted]]);
  return out;
}

// HGETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST]
//   FIELDS numfields field [field ...]
export function hgetexCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const h = readHash(ctx, key);
  if (isError(h)) return h;
  const word = argv[2].toLowerCase();
  const timed = TIMED.includes(word);
  const persist = word === 'persist';
  let at = 0;
  if (timed) {
    const t = readTimedOption(word as TimedWord, argv[3], ctx.ks.now(), 'hgetex');
    if (isError(t)) return t;
    at = t;
  }
  const fields = readFieldsBlock(argv, timed ? 4 : persist ? 3 : 2, NUMFIELDS_NOT_POSITIVE, 'hgetex');
  if (isError(fields)) return fields;
  const out: (string | null)[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  for (const field of fields) {
    const f = h?.get(field);
    out.push(f?.value ?? null);
    if (f === undefined) continue;
    if (persist) {
      if (f.exp === 0) continue;
      h!.setExpiry(f, 0);
      updated.push(field);
    } else if (timed) {
      const code = setFieldExpiry(ctx.ks, h!, field, at, null);
      if (code === EXPIRY_SET) updated.push(field);
      else if (code === FIELD_DELETED) deleted.push(field);
    }
  }
  if (updated.length === 0 && deleted.length === 0) return unchanged(ctx, out);
  if (persist) {
    ctx.events.notify(KeyEvent.hash, 'hpersist', key);
    ctx.rewrite([['hpersist', key, 'FIELDS', String(updated.length), ...updated]]);
  } else {
    notifyExpiries(ctx, key, h!.size, updated.length, deleted.length);
    if (updated.length > 0) ctx.ks.noteMemberExpiry(key);
    logExpiries(ctx, key, at, updated, deleted);
  }
  return out;
}

/** HSETEX's options, as hsetexParseArgs reads them. */
interface HsetexArgs {
  readonly cond: 'fnx' | 'fxx' | null;
  /** The absolute expiry EX/PX/EXAT/PXAT gave; 0 for none. */
  readonly at: number;
  readonly keepTtl: boolean;
  /** Where the field-value pairs start. */
  readonly pairsAt: number;
}

// HSETEX key [FNX | FXX] [EX seconds | PX milliseconds | EXAT unix-time-seconds |
//   PXAT unix-time-milliseconds | KEEPTTL] FIELDS numfields field value [field value ...]
export function hsetexCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const args = readHsetexArgs(ctx, argv);
  if (isError(args)) return args;
  const found = readHash(ctx, key);
  if (isError(found)) return found;
  if (args.cond !== null) {
    let present = 0;
    for (let i = args.pairsAt; i < argv.length; i += 2) if (found?.get(argv[i]) !== undefined) present++;
    const wanted = args.cond === 'fnx' ? 0 : (argv.length - args.pairsAt) / 2;
    if (present !== wanted) return unchanged(ctx, 0);
  }
  const h = found ?? writeHash(ctx, key);
  if (isError(h)) return h;
  const timed = args.at !== 0;
  const updated: string[] = [];
  const deleted: string[] = [];
  for (let i = args.pairsAt; i < argv.length; i += 2) {
    h.set(argv[i], argv[i + 1], timed || args.keepTtl);
    if (!timed) continue;
    const code = setFieldExpiry(ctx.ks, h, argv[i], args.at, null);
    if (code === EXPIRY_SET) updated.push(argv[i]);
    else if (code === FIELD_DELETED) deleted.push(argv[i]);
  }
  ctx.events.notify(KeyEvent.hash, 'hset', key);
  notifyExpiries(ctx, key, h.size, updated.length, deleted.length);
  if (deleted.length > 0) ctx.rewrite([['hdel', key, ...deleted]]);
  else if (timed) {
    ctx.ks.noteMemberExpiry(key);
    ctx.rewrite([['hsetex', key, 'PXAT', String(args.at), ...argv.slice(args.pairsAt - 2)]]);
  }
  return 1;
}

/** HSETEX's options before FIELDS, in any order, and the FIELDS block; Redis's errors in its order. */
function readHsetexArgs(ctx: Ctx, argv: Args): HsetexArgs | ReplyError {
  let cond: HsetexArgs['cond'] = null;
  let at = 0;
  let keepTtl = false;
  for (let i = 2; i < argv.length; i++) {
    const w = argv[i].toLowerCase();
    if (w === 'fields') {
      if (i >= argv.length - 3) return wrongArity('hsetex');
      const n = parseInteger(argv[i + 1]);
      if (n === undefined || n < 1 || n > INT_MAX) return INVALID_NUMFIELDS;
      const pairs = argv.length - i - 2;
      if (pairs % 2 !== 0 || n !== pairs / 2) return wrongArity('hsetex');
      return { cond, at, keepTtl, pairsAt: i + 2 };
    } else if (TIMED.includes(w) || w === 'keepttl') {
      if (at !== 0 || keepTtl) return HSETEX_EXPIRY_TWICE;
      if (w === 'keepttl') {
        keepTtl = true;
        continue;
      }
      if (i >= argv.length - 1) return MISSING_EXPIRE_TIME;
      const t = readTimedOption(w as TimedWord, argv[++i], ctx.ks.now(), 'hsetex');
      if (isError(t)) return t;
      // A time of 0 (PXAT 0) is as past as any other; 1 keeps "no time" and "past" apart.
      at = Math.max(t, 1);
    } else if (w === 'fnx' || w === 'fxx') {
      if (cond !== null) return HSETEX_FNX_AND_FXX;
      cond = w;
    } else {
      return unknownArgument(argv[i]);
    }
  }
  // Unreachable with HSETEX's arity: four arguments after the key cannot all be options.
  return wrongArity('hsetex');
}

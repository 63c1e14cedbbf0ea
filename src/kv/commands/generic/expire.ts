// Setting, reading and removing a key's expiry (Redis expire.c): the EXPIRE family, the TTL
// family and PERSIST.

import {
  EXPIRE_GT_AND_LT,
  EXPIRE_NX_AND_OTHERS,
  invalidExpireTime,
  NOT_INTEGER,
  unsupportedOption,
  type ReplyError,
} from '../../errors.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

const NX = 1;
const XX = 2;
const GT = 4;
const LT = 8;

/** The NX | XX | GT | LT words after the time, as Redis's parseExtendedExpireArgumentsOrReply. */
function readExpireFlags(argv: Args): number | ReplyError {
  let flags = 0;
  for (let i = 3; i < argv.length; i++) {
    const w = argv[i].toLowerCase();
    if (w === 'nx') flags |= NX;
    else if (w === 'xx') flags |= XX;
    else if (w === 'gt') flags |= GT;
    else if (w === 'lt') flags |= LT;
    else return unsupportedOption(argv[i]);
  }
  if (flags & NX && flags & (XX | GT | LT)) return EXPIRE_NX_AND_OTHERS;
  if (flags & GT && flags & LT) return EXPIRE_GT_AND_LT;
  return flags;
}

/**
 * EXPIRE key seconds [NX | XX | GT | LT]        (unit 1000, relative)
 * PEXPIRE key milliseconds [NX | XX | GT | LT]  (unit 1, relative)
 * EXPIREAT key unix-time-seconds [...]          (unit 1000, absolute)
 * PEXPIREAT key unix-time-milliseconds [...]    (unit 1, absolute)
 * Logged as PEXPIREAT with the absolute time, or as DEL when the time has already passed.
 */
export function expireGeneric(ctx: Ctx, argv: Args, name: string, unit: 1 | 1000, relative: boolean): Reply {
  const flags = readExpireFlags(argv);
  if (typeof flags !== 'number') return flags;
  const given = parseInt64(argv[2]);
  if (given === undefined) return NOT_INTEGER;
  // Redis checks for int64 overflow in the unit conversion and the addition, nothing else.
  let when = given;
  if (unit === 1000) {
    if (when > INT64_MAX / 1000n || when < INT64_MIN / 1000n) return invalidExpireTime(name);
    when *= 1000n;
  }
  const ks = ctx.ks;
  const now = ks.now();
  const base = relative ? BigInt(now) : 0n;
  if (when > INT64_MAX - base) return invalidExpireTime(name);
  when += base;

  const key = argv[1];
  const s = ks.lookup(key);
  if (s === undefined) return unchanged(ctx, 0);
  const at = Number(when);
  if (flags !== 0) {
    const current = ks.expiryAt(s) || -1;
    if (flags & NX && current !== -1) return unchanged(ctx, 0);
    if (flags & XX && current === -1) return unchanged(ctx, 0);
    // No expiry counts as an infinite one: never lower than GT's time, never higher than LT's.
    if (flags & GT && (current === -1 || at <= current)) return unchanged(ctx, 0);
    if (flags & LT && current !== -1 && at >= current) return unchanged(ctx, 0);
  }
  // While loading, a past time is set rather than applied: later logged commands may still
  // have found the key, and the log's own DEL says when it went.
  if (at <= now && !ks.loading) {
    ks.delete(key);
    ctx.events.notify(KeyEvent.generic, 'del', key);
    ctx.rewrite([['del', key]]);
  } else {
    ks.setExpiry(s, at);
    ctx.events.notify(KeyEvent.generic, 'expire', key);
    ctx.rewrite([['pexpireat', key, when.toString()]]);
  }
  return 1;
}

/**
 * TTL key (seconds, rounded), PTTL key (ms), EXPIRETIME key (unix seconds), PEXPIRETIME key
 * (unix ms): -2 when the key is missing, -1 when it has no expiry.
 */
export function ttlGeneric(ctx: Ctx, key: string, ms: boolean, absolute: boolean): Reply {
  const s = ctx.ks.peek(key);
  if (s === undefined) return -2;
  const exp = ctx.ks.expiryAt(s);
  if (exp === 0) return -1;
  const ttl = Math.max(0, absolute ? exp : exp - ctx.ks.now());
  return ms ? ttl : Math.floor((ttl + 500) / 1000);
}

// PERSIST key
export function persistCommand(ctx: Ctx, argv: Args): Reply {
  const s = ctx.ks.lookup(argv[1]);
  if (s === undefined || ctx.ks.expiryAt(s) === 0) return unchanged(ctx, 0);
  ctx.ks.setExpiry(s, 0);
  ctx.events.notify(KeyEvent.generic, 'persist', argv[1]);
  return 1;
}

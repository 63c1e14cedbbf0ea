// What the field-expiry commands share (Redis 7.4 and 8 t_hash.c): the FIELDS block, the
// expiry times, and setting one field's expiry under a condition (hashTypeSetEx).

import type { HashValue } from '../../engine/hash/hash-value.js';
import type { Keyspace } from '../../engine/keyspace.js';
import {
  FIELDS_MISSING,
  invalidExpireTime,
  NEGATIVE_EXPIRE_TIME,
  NOT_INTEGER,
  NUMFIELDS_MISMATCH,
  wrongArity,
  type ReplyError,
} from '../../errors.js';
import { INT64_MAX, parseInt64, parseInteger } from '../args.js';
import type { Args } from '../spec.js';

/** The per-field replies of the commands that set expiries. */
export const NO_FIELD = -2;
export const CONDITION_NOT_MET = 0;
export const EXPIRY_SET = 1;
export const FIELD_DELETED = 2;

/** HEXPIRE's NX | XX | GT | LT, which compare with the field's current expiry. */
export type ExpiryCondition = 'nx' | 'xx' | 'gt' | 'lt';
export const EXPIRY_CONDITIONS: readonly string[] = ['nx', 'xx', 'gt', 'lt'];

/**
 * FIELDS numfields field [field ...] at argv[at], running to the end of argv: the fields, or
 * Redis's errors in Redis's order. `badCount` is the command's own text for a numfields that
 * is not a positive integer.
 */
export function readFieldsBlock(argv: Args, at: number, badCount: ReplyError, name: string): Args | ReplyError {
  if (at >= argv.length || argv[at].toLowerCase() !== 'fields') return FIELDS_MISSING;
  // FIELDS as the last argument: Redis would read its count past the end of argv.
  if (at + 1 >= argv.length) return wrongArity(name);
  const n = parseInteger(argv[at + 1]);
  if (n === undefined || n < 1) return badCount;
  if (n !== argv.length - at - 2) return NUMFIELDS_MISMATCH;
  return argv.slice(at + 2);
}

/**
 * An expiry argument made absolute (Redis's parseExpireTime): seconds (unit 1000) or ms
 * after `base`, which is now for relative times and 0 for Unix times. Negative times are
 * refused with Redis's text; beyond that, the only limit is EXPIREAT's for a key (int64 ms, in
 * the unit conversion and the addition), as Upstash takes it, not Redis 7.4's 2^46 ms: the
 * SDK's own tests pass milliseconds to HEXPIREAT. Past 2^53 the time is kept as its nearest
 * double, as a key's is.
 */
export function readFieldTime(arg: string, unit: 1 | 1000, base: number, name: string): number | ReplyError {
  const n = parseInt64(arg);
  if (n === undefined) return NOT_INTEGER;
  if (n < 0n) return NEGATIVE_EXPIRE_TIME;
  const at = n * BigInt(unit) + BigInt(base);
  return at > INT64_MAX ? invalidExpireTime(name) : Number(at);
}

/** EX, PX, EXAT or PXAT's time, absolute, as HGETEX and HSETEX read it. */
export function readTimedOption(word: 'ex' | 'px' | 'exat' | 'pxat', arg: string, now: number, name: string): number | ReplyError {
  const seconds = word === 'ex' || word === 'exat';
  const relative = word === 'ex' || word === 'px';
  return readFieldTime(arg, seconds ? 1000 : 1, relative ? now : 0, name);
}

/**
 * Gives field `name` the absolute expiry `at` when `cond` allows (Redis's hashTypeSetEx); a
 * field without an expiry counts as never expiring, so GT and XX skip it and LT takes it.
 * A time already past deletes the field, except while the log is replayed, where the log's
 * own HDEL says when it went. Returns the field's reply code.
 */
export function setFieldExpiry(ks: Keyspace, h: HashValue, name: string, at: number, cond: ExpiryCondition | null): number {
  const f = h.get(name);
  if (f === undefined) return NO_FIELD;
  if (f.exp === 0) {
    if (cond === 'xx' || cond === 'gt') return CONDITION_NOT_MET;
  } else if (cond === 'nx' || (cond === 'gt' && f.exp >= at) || (cond === 'lt' && f.exp <= at)) {
    return CONDITION_NOT_MET;
  }
  if (at <= ks.now() && !ks.loading) {
    h.delete(name);
    return FIELD_DELETED;
  }
  h.setExpiry(f, at);
  return EXPIRY_SET;
}

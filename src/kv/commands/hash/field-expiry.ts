// Field TTLs (Redis 7.4 t_hash.c): the HEXPIRE family, the HTTL family and HPERSIST. Each
// answers one code per field. Logged as Redis propagates them: HPEXPIREAT with the absolute
// time and only the fields it changed, HDEL for fields whose time had already passed. Their
// keyspace events are Redis 8's (t_hash.c), as Redis 7.0 has no field TTLs: hexpire, hdel for
// fields a past time deleted, hpersist.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { isError, NUMFIELDS_NOT_ABOVE_ZERO, NUMFIELDS_NOT_POSITIVE } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MAX } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { dropIfEmpty } from '../typed.js';
import {
  EXPIRY_CONDITIONS,
  EXPIRY_SET,
  FIELD_DELETED,
  NO_FIELD,
  readFieldsBlock,
  readFieldTime,
  setFieldExpiry,
  type ExpiryCondition,
} from './field-args.js';
import { readHash } from './lookup.js';

/** HPERSIST's code for a field that has no TTL; HTTL's for one that never expires. */
const NO_TTL = -1;

/**
 * HEXPIRE key seconds [NX | XX | GT | LT] FIELDS numfields field [field ...]  (unit 1000, relative)
 * HPEXPIRE key milliseconds [...]                                             (unit 1, relative)
 * HEXPIREAT key unix-time-seconds [...]                                       (unit 1000, absolute)
 * HPEXPIREAT key unix-time-milliseconds [...]                                 (unit 1, absolute)
 */
export function hexpireGeneric(ctx: Ctx, argv: Args, name: string, unit: 1 | 1000, relative: boolean): Reply {
  const key = argv[1];
  const h = readHash(ctx, key);
  if (isError(h)) return h;
  const at = readFieldTime(argv[2], unit, relative ? ctx.ks.now() : 0, name);
  if (isError(at)) return at;
  const word = argv[3].toLowerCase();
  const cond = EXPIRY_CONDITIONS.includes(word) ? (word as ExpiryCondition) : null;
  const fields = readFieldsBlock(argv, cond === null ? 3 : 4, NUMFIELDS_NOT_ABOVE_ZERO, name);
  if (isError(fields)) return fields;
  if (h === undefined) return unchanged(ctx, fields.map(() => NO_FIELD));
  const codes: number[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  for (const field of fields) {
    const code = setFieldExpiry(ctx.ks, h, field, at, cond);
    codes.push(code);
    if (code === EXPIRY_SET) updated.push(field);
    else if (code === FIELD_DELETED) deleted.push(field);
  }
  notifyExpiries(ctx, key, h.size, updated.length, deleted.length);
  if (updated.length > 0) ctx.ks.noteMemberExpiry(key);
  logExpiries(ctx, key, at, updated, deleted);
  return codes;
}

/**
 * The events of a command that set field expiries (Redis 8's hexpireGenericCommand, HGETEX,
 * HSETEX): hdel when a time already past deleted fields, else hexpire when it gave some a
 * time; then del when that left the hash empty (`size` fields).
 */
export function notifyExpiries(ctx: Ctx, key: string, size: number, updated: number, deleted: number): void {
  if (deleted > 0) ctx.events.notify(KeyEvent.hash, 'hdel', key);
  else if (updated > 0) ctx.events.notify(KeyEvent.hash, 'hexpire', key);
  dropIfEmpty(ctx, key, size);
}

/**
 * What a command that set field expiries logs: HDEL for the fields it deleted, HPEXPIREAT
 * for those it gave a time; nothing when it changed nothing.
 */
export function logExpiries(ctx: Ctx, key: string, at: number, updated: Args, deleted: Args): void {
  const logged: Args[] = [];
  if (deleted.length > 0) logged.push(['hdel', key, ...deleted]);
  if (updated.length > 0) logged.push(['hpexpireat', key, int64Text(at), 'FIELDS', String(updated.length), ...updated]);
  ctx.rewrite(logged);
}

/**
 * A time as an int64 that reads back to the same double: past 2^53 `at` is the double nearest
 * the time given, and INT64_MAX's nearest, 2^63, is one past int64.
 */
function int64Text(at: number): string {
  return at >= 2 ** 63 ? String(INT64_MAX) : BigInt(at).toString();
}

/**
 * HTTL key FIELDS numfields field [field ...]         (seconds left, rounded up)
 * HPTTL key FIELDS ...                                (ms left)
 * HEXPIRETIME key FIELDS ...                          (Unix seconds, rounded up)
 * HPEXPIRETIME key FIELDS ...                         (Unix ms)
 * Per field: -2 when it does not exist, -1 when it has no TTL.
 */
export function httlGeneric(ctx: Ctx, argv: Args, name: string, ms: boolean, absolute: boolean): Reply {
  const h = readHash(ctx, argv[1]);
  if (isError(h)) return h;
  const fields = readFieldsBlock(argv, 2, NUMFIELDS_NOT_POSITIVE, name);
  if (isError(fields)) return fields;
  const base = absolute ? 0 : ctx.ks.now();
  return fields.map((field) => {
    const f = h?.get(field);
    if (f === undefined) return NO_FIELD;
    if (f.exp === 0) return NO_TTL;
    return ms ? f.exp - base : Math.floor((f.exp - base + 999) / 1000);
  });
}

// HPERSIST key FIELDS numfields field [field ...]
// Per field: -2 when it does not exist, -1 when it has no TTL, 1 when its TTL was removed.
export function hpersistCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const h = readHash(ctx, key);
  if (isError(h)) return h;
  const fields = readFieldsBlock(argv, 2, NUMFIELDS_NOT_POSITIVE, 'hpersist');
  if (isError(fields)) return fields;
  let changed = false;
  const codes = fields.map((field) => {
    const f = h?.get(field);
    if (f === undefined) return NO_FIELD;
    if (f.exp === 0) return NO_TTL;
    h!.setExpiry(f, 0);
    changed = true;
    return EXPIRY_SET;
  });
  if (!changed) return unchanged(ctx, codes);
  ctx.events.notify(KeyEvent.hash, 'hpersist', key);
  return codes;
}

// Counters: INCR, DECR, INCRBY and DECRBY are one generic (Redis's incrDecrCommand) over 64-bit
// integers, computed on plain numbers while they stay exact and on bigints only beyond.
// INCRBYFLOAT computes in long double, as Redis does (see long-double.ts).

import {
  DECREMENT_OVERFLOW,
  isError,
  NAN_OR_INF,
  NOT_FLOAT,
  NOT_INTEGER,
} from '../../errors.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { Reply } from '../../reply.js';
import { incrementText, INT64_MIN, parseExactInteger } from '../args.js';
import { addLongDouble, formatLongDouble, LONG_DOUBLE_ZERO, parseLongDouble } from '../long-double.js';
import type { Args, Ctx } from '../spec.js';
import { putString, stringAt, stringSlot } from './lookup.js';

// INCR key
export function incrCommand(ctx: Ctx, argv: Args): Reply {
  return incrBy(ctx, argv[1], 1);
}

// DECR key
export function decrCommand(ctx: Ctx, argv: Args): Reply {
  return incrBy(ctx, argv[1], -1);
}

// INCRBY key increment
export function incrbyCommand(ctx: Ctx, argv: Args): Reply {
  const by = parseExactInteger(argv[2]);
  return by === undefined ? NOT_INTEGER : incrBy(ctx, argv[1], by);
}

// DECRBY key decrement
export function decrbyCommand(ctx: Ctx, argv: Args): Reply {
  const by = parseExactInteger(argv[2]);
  if (by === undefined) return NOT_INTEGER;
  if (by === INT64_MIN) return DECREMENT_OVERFLOW; // its negation does not fit in 64 bits
  return incrBy(ctx, argv[1], -by);
}

/** Adds `by` to the integer at `key` (0 when absent), keeping its TTL; refuses to leave int64. */
function incrBy(ctx: Ctx, key: string, by: number | bigint): Reply {
  const s = stringSlot(ctx.ks, key);
  if (isError(s)) return s;
  const next = incrementText(stringAt(ctx.ks, s), by, NOT_INTEGER);
  if (isError(next)) return next;
  const text = String(next);
  putString(ctx.ks, key, s, text);
  ctx.events.notify(KeyEvent.string, 'incrby', key);
  return next;
}

// INCRBYFLOAT key increment
export function incrbyfloatCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const s = stringSlot(ctx.ks, key);
  if (isError(s)) return s;
  const current = s === undefined ? LONG_DOUBLE_ZERO : parseLongDouble(stringAt(ctx.ks, s));
  const by = parseLongDouble(argv[2]);
  if (current === undefined || by === undefined) return NOT_FLOAT;
  const sum = addLongDouble(current, by);
  if (sum === undefined) return NAN_OR_INF;
  const text = formatLongDouble(sum);
  putString(ctx.ks, key, s, text);
  ctx.events.notify(KeyEvent.string, 'incrbyfloat', key);
  // Logged as the value it produced, so a replay cannot round differently.
  ctx.rewrite([['set', key, text, 'keepttl']]);
  return text;
}

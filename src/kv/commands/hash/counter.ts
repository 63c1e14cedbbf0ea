// Field counters: HINCRBY over 64-bit integers and HINCRBYFLOAT in long double, as Redis
// computes them (see long-double.ts). Both keep the field's TTL, as Redis 7.4 does, and
// publish their own names as their events.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import {
  HASH_NOT_FLOAT,
  HASH_NOT_INTEGER,
  INCREMENT_NAN_OR_INF,
  isError,
  NAN_OR_INF,
  NOT_FLOAT,
  NOT_INTEGER,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { incrementText, parseExactInteger } from '../args.js';
import { addLongDouble, formatLongDouble, LONG_DOUBLE_ZERO, parseLongDouble } from '../long-double.js';
import type { Args, Ctx } from '../spec.js';
import { writeHash } from './lookup.js';

// HINCRBY key field increment
export function hincrbyCommand(ctx: Ctx, argv: Args): Reply {
  const by = parseExactInteger(argv[3]);
  if (by === undefined) return NOT_INTEGER;
  // A new hash cannot fail below: a missing field counts from 0, which no increment overflows.
  const h = writeHash(ctx, argv[1]);
  if (isError(h)) return h;
  const next = incrementText(h.get(argv[2])?.value, by, HASH_NOT_INTEGER);
  if (isError(next)) return next;
  h.set(argv[2], String(next), true);
  ctx.events.notify(KeyEvent.hash, 'hincrby', argv[1]);
  return next;
}

// HINCRBYFLOAT key field increment
export function hincrbyfloatCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const by = parseLongDouble(argv[3]);
  if (by === undefined) return NOT_FLOAT;
  if (by.exp === Infinity) return INCREMENT_NAN_OR_INF;
  const h = writeHash(ctx, key);
  if (isError(h)) return h;
  const field = h.get(argv[2]);
  const current = field === undefined ? LONG_DOUBLE_ZERO : parseLongDouble(field.value);
  if (current === undefined) return HASH_NOT_FLOAT;
  const sum = addLongDouble(current, by);
  if (sum === undefined) return NAN_OR_INF;
  const text = formatLongDouble(sum);
  h.set(argv[2], text, true);
  ctx.events.notify(KeyEvent.hash, 'hincrbyfloat', key);
  // Logged as the value it produced, keeping the field's TTL, as Redis 8 propagates it.
  ctx.rewrite([['hsetex', key, 'KEEPTTL', 'FIELDS', '1', argv[2], text]]);
  return text;
}

// The list commands that look for elements by value (Redis t_list.c lposCommand, lremCommand,
// linsertCommand): linear scans, as in Redis.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import {
  isError,
  LPOS_COUNT_NEGATIVE,
  LPOS_MAXLEN_NEGATIVE,
  LPOS_RANK_ZERO,
  NOT_INTEGER,
  SYNTAX,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MIN, parseInt64, parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom } from '../typed.js';
import { readList } from './lookup.js';

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
// Options may repeat (the last wins); all are checked before the key.
export function lposCommand(ctx: Ctx, argv: Args): Reply {
  let rank = 1;
  let count = -1; // -1: no COUNT, one index or nil; 0: every match
  let maxlen = 0; //  0: the whole list
  let wrapped = false;
  for (let j = 3; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    const more = j < argv.length - 1;
    if (opt === 'rank' && more) {
      const n = parseInt64(argv[++j]);
      if (n === undefined) return NOT_INTEGER;
      if (n === 0n) return LPOS_RANK_ZERO;
      rank = Number(n);
      wrapped = n === INT64_MIN;
    } else if ((opt === 'count' || opt === 'maxlen') && more) {
      const n = parseInteger(argv[++j]);
      if (n === undefined || n < 0) return opt === 'count' ? LPOS_COUNT_NEGATIVE : LPOS_MAXLEN_NEGATIVE;
      if (opt === 'count') count = n;
      else maxlen = n;
    } else {
      return SYNTAX;
    }
  }
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined) return count === -1 ? null : [];
  if (isError(list)) return list;

  // Redis negates a rank of INT64_MIN to itself: every match then counts from the first one
  // on, and a COUNT is never reached.
  const skip = wrapped ? 0 : Math.abs(rank) - 1;
  const wanted = count === -1 ? 1 : count === 0 || wrapped ? Infinity : count;
  const len = list.length;
  const scan = maxlen === 0 ? len : Math.min(maxlen, len);
  const fromBack = rank < 0;
  const element = argv[2];
  const found: number[] = [];
  let matches = 0;
  for (let k = 0; k < scan && found.length < wanted; k++) {
    const at = fromBack ? len - 1 - k : k;
    if (list.at(at) === element && matches++ >= skip) found.push(at);
  }
  if (count !== -1) return found;
  return found.length === 0 ? null : found[0];
}

// LREM key count element   (count > 0 from the head, < 0 from the tail, 0 all)
export function lremCommand(ctx: Ctx, argv: Args): Reply {
  const count = parseInteger(argv[2]);
  if (count === undefined) return NOT_INTEGER;
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined) return unchanged(ctx, 0);
  if (isError(list)) return list;
  const removed = list.remove(argv[3], count === 0 ? Infinity : Math.abs(count), count < 0);
  if (removed === 0) return unchanged(ctx, 0);
  removedFrom(ctx, KeyEvent.list, 'lrem', argv[1], list.length);
  return removed;
}

// LINSERT key BEFORE | AFTER pivot element
// The length after the insert; 0 when the key is absent, -1 when the pivot is not found.
export function linsertCommand(ctx: Ctx, argv: Args): Reply {
  const where = argv[2].toLowerCase();
  if (where !== 'before' && where !== 'after') return SYNTAX;
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined) return unchanged(ctx, 0);
  if (isError(list)) return list;
  const pivot = argv[3];
  for (let i = 0; i < list.length; i++) {
    if (list.at(i) !== pivot) continue;
    list.insert(where === 'after' ? i + 1 : i, argv[4]);
    ctx.events.notify(KeyEvent.list, 'linsert', argv[1]);
    return list.length;
  }
  return unchanged(ctx, -1);
}

// The list commands that work at the ends: pushes, pops, moves between lists (Redis t_list.c
// pushGenericCommand, popGenericCommand, lmoveGenericCommand, lmpopGenericCommand). All O(1)
// per element. A list popped empty deletes its key. Each publishes its end's event (lpush,
// rpop, ...) once per key it changed, as Redis's do.

import { ListValue } from '../../engine/list/list-value.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { NOT_POSITIVE, isError, COUNT_NOT_POSITIVE, NUMKEYS_NOT_POSITIVE, SYNTAX, wrongArity } from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom } from '../typed.js';
import { popMany, readEnd, readList, writeList } from './lookup.js';

// LPUSH key element [element ...]
export function lpushCommand(ctx: Ctx, argv: Args): Reply {
  return pushGeneric(ctx, argv, true, false);
}

// RPUSH key element [element ...]
export function rpushCommand(ctx: Ctx, argv: Args): Reply {
  return pushGeneric(ctx, argv, false, false);
}

// LPUSHX key element [element ...]
export function lpushxCommand(ctx: Ctx, argv: Args): Reply {
  return pushGeneric(ctx, argv, true, true);
}

// RPUSHX key element [element ...]
export function rpushxCommand(ctx: Ctx, argv: Args): Reply {
  return pushGeneric(ctx, argv, false, true);
}

/** Pushes argv[2..] one by one at the front or back; `onlyIfExists` for the X forms. */
function pushGeneric(ctx: Ctx, argv: Args, front: boolean, onlyIfExists: boolean): Reply {
  const list = onlyIfExists ? readList(ctx.ks, argv[1]) : writeList(ctx.ks, argv[1]);
  if (list === undefined) return unchanged(ctx, 0);
  if (isError(list)) return list;
  if (front) for (let i = 2; i < argv.length; i++) list.pushFront(argv[i]);
  else for (let i = 2; i < argv.length; i++) list.pushBack(argv[i]);
  notifyPushed(ctx, argv[1], front);
  return list.length;
}

/** A push's event: lpush or rpush by the end it pushed at. */
function notifyPushed(ctx: Ctx, key: string, front: boolean): void {
  ctx.events.notify(KeyEvent.list, front ? 'lpush' : 'rpush', key);
}

/** Redis's listElementsRemoved: the pop's event, then the key's deletion if that emptied it. */
function notifyPopped(ctx: Ctx, key: string, front: boolean, length: number): void {
  removedFrom(ctx, KeyEvent.list, front ? 'lpop' : 'rpop', key, length);
}

// LPOP key [count]
export function lpopCommand(ctx: Ctx, argv: Args): Reply {
  return popGeneric(ctx, argv, true);
}

// RPOP key [count]
export function rpopCommand(ctx: Ctx, argv: Args): Reply {
  return popGeneric(ctx, argv, false);
}

/**
 * Without a count: one element, or nil. With one: an array of up to `count` elements, the
 * null array when the key is absent, and an empty array for a count of 0 (Redis's fast exit,
 * after the type check).
 */
function popGeneric(ctx: Ctx, argv: Args, front: boolean): Reply {
  if (argv.length > 3) return wrongArity(front ? 'lpop' : 'rpop');
  let count = -1;
  if (argv.length === 3) {
    const n = parseInteger(argv[2]);
    if (n === undefined || n < 0) return NOT_POSITIVE;
    count = n;
  }
  const ks = ctx.ks;
  const list = readList(ks, argv[1]);
  if (list === undefined) return unchanged(ctx, count === -1 ? null : NULL_ARRAY);
  if (isError(list)) return list;
  if (count === 0) return unchanged(ctx, []);
  const reply = count === -1 ? (front ? list.popFront() : list.popBack()) ?? null : popMany(list, front, count);
  notifyPopped(ctx, argv[1], front, list.length);
  return reply;
}

// LMPOP numkeys key [key ...] LEFT | RIGHT [COUNT count]
// Logged as the LPOP/RPOP key count it amounted to, as Redis propagates it.
export function lmpopCommand(ctx: Ctx, argv: Args): Reply {
  const numkeys = parseInteger(argv[1]);
  if (numkeys === undefined || numkeys < 1) return NUMKEYS_NOT_POSITIVE;
  const whereAt = numkeys + 2;
  if (whereAt >= argv.length) return SYNTAX;
  const front = readEnd(argv[whereAt]);
  if (front === undefined) return SYNTAX;
  let count = -1;
  for (let j = whereAt + 1; j < argv.length; j++) {
    if (count !== -1 || argv[j].toLowerCase() !== 'count' || j === argv.length - 1) return SYNTAX;
    const n = parseInteger(argv[++j]);
    if (n === undefined || n < 1) return COUNT_NOT_POSITIVE;
    count = n;
  }
  if (count === -1) count = 1;
  const ks = ctx.ks;
  for (let i = 2; i < whereAt; i++) {
    const key = argv[i];
    const list = readList(ks, key);
    if (list === undefined) continue;
    if (isError(list)) return list;
    const items = popMany(list, front, count);
    notifyPopped(ctx, key, front, list.length);
    ctx.rewrite([[front ? 'lpop' : 'rpop', key, String(items.length)]]);
    return [key, items];
  }
  return unchanged(ctx, NULL_ARRAY);
}

// LMOVE source destination LEFT | RIGHT LEFT | RIGHT
export function lmoveCommand(ctx: Ctx, argv: Args): Reply {
  const from = readEnd(argv[3]);
  const to = readEnd(argv[4]);
  if (from === undefined || to === undefined) return SYNTAX;
  return moveGeneric(ctx, argv[1], argv[2], from, to);
}

// RPOPLPUSH source destination
export function rpoplpushCommand(ctx: Ctx, argv: Args): Reply {
  return moveGeneric(ctx, argv[1], argv[2], false, true);
}

/**
 * Redis's lmoveGenericCommand: nil when the source is absent; both types are checked before
 * anything moves. Source and destination may be the same list (a rotation). The push's event
 * comes before the pop's, as in Redis.
 */
function moveGeneric(ctx: Ctx, src: string, dst: string, fromFront: boolean, toFront: boolean): Reply {
  const ks = ctx.ks;
  const source = readList(ks, src);
  if (source === undefined) return unchanged(ctx, null);
  if (isError(source)) return source;
  const target = readList(ks, dst);
  if (isError(target)) return target;
  const item = (fromFront ? source.popFront() : source.popBack()) as string;
  if (target === undefined) ks.insert(dst, new ListValue([item]), 0);
  else if (toFront) target.pushFront(item);
  else target.pushBack(item);
  notifyPushed(ctx, dst, toFront);
  notifyPopped(ctx, src, fromFront, source.length);
  return item;
}

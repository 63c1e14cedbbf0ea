// The list commands that address elements by index (Redis t_list.c lindexCommand, lsetCommand,
// lrangeCommand, ltrimCommand, llenCommand). Negative indexes count from the end. Each
// command checks its arguments and the key in Redis's order, which decides the error seen.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { INDEX_OUT_OF_RANGE, isError, NO_SUCH_KEY, NOT_INTEGER } from '../../errors.js';
import { OK, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom } from '../typed.js';
import { rangeOf, readList } from './lookup.js';

// LLEN key
export function llenCommand(ctx: Ctx, argv: Args): Reply {
  const list = readList(ctx.ks, argv[1]);
  return list === undefined ? 0 : isError(list) ? list : list.length;
}

// LINDEX key index   (the key is looked at before the index is parsed)
export function lindexCommand(ctx: Ctx, argv: Args): Reply {
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined || isError(list)) return list ?? null;
  const index = parseInteger(argv[2]);
  if (index === undefined) return NOT_INTEGER;
  const at = index < 0 ? list.length + index : index;
  return at >= 0 && at < list.length ? list.at(at) : null;
}

// LSET key index element
export function lsetCommand(ctx: Ctx, argv: Args): Reply {
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined) return NO_SUCH_KEY;
  if (isError(list)) return list;
  const index = parseInteger(argv[2]);
  if (index === undefined) return NOT_INTEGER;
  const at = index < 0 ? list.length + index : index;
  if (at < 0 || at >= list.length) return INDEX_OUT_OF_RANGE;
  list.set(at, argv[3]);
  ctx.events.notify(KeyEvent.list, 'lset', argv[1]);
  return OK;
}

// LRANGE key start stop   (the indexes are parsed before the key is looked at)
export function lrangeCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseInteger(argv[2]);
  const stop = parseInteger(argv[3]);
  if (start === undefined || stop === undefined) return NOT_INTEGER;
  const list = readList(ctx.ks, argv[1]);
  if (list === undefined) return [];
  if (isError(list)) return list;
  const { from, to } = rangeOf(start, stop, list.length);
  return list.slice(from, to);
}

// LTRIM key start stop   (an empty range deletes the key)
// Publishes ltrim even when the range kept every element, as Redis does.
export function ltrimCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseInteger(argv[2]);
  const stop = parseInteger(argv[3]);
  if (start === undefined || stop === undefined) return NOT_INTEGER;
  const key = argv[1];
  const list = readList(ctx.ks, key);
  if (list === undefined) return unchanged(ctx, OK);
  if (isError(list)) return list;
  const { from, to } = rangeOf(start, stop, list.length);
  const trimmed = to - from !== list.length;
  if (trimmed) list.keep(from, to);
  removedFrom(ctx, KeyEvent.list, 'ltrim', key, list.length);
  return trimmed ? OK : unchanged(ctx, OK);
}

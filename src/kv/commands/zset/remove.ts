// Removing members: ZREM and ZREMRANGEBYRANK/BYSCORE/BYLEX (Redis zremCommand and
// zremrangeGenericCommand). The range is parsed before the key is looked up; a set left empty
// deletes its key; a removal of nothing logs nothing.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { isError, MIN_MAX_NOT_FLOAT, MIN_MAX_NOT_LEX, NOT_INTEGER } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom, readTyped } from '../typed.js';
import { parseLexRange, parseScoreRange } from './range-args.js';

// ZREM key member [member ...]
export function zremCommand(ctx: Ctx, argv: Args): Reply {
  return removeFrom(ctx, argv[1], 'zrem', (z) => {
    let removed = 0;
    for (let i = 2; i < argv.length; i++) if (z.remove(argv[i])) removed++;
    return removed;
  });
}

// ZREMRANGEBYRANK key start stop
export function zremrangebyrankCommand(ctx: Ctx, argv: Args): Reply {
  const from = parseInteger(argv[2]);
  const to = parseInteger(argv[3]);
  if (from === undefined || to === undefined) return NOT_INTEGER;
  return removeFrom(ctx, argv[1], 'zremrangebyrank', (z) => {
    const size = z.size;
    const start = Math.max(from < 0 ? from + size : from, 0);
    const end = to < 0 ? to + size : to;
    if (start > end || start >= size) return 0;
    return z.removeRangeByRank(start, Math.min(end, size - 1));
  });
}

// ZREMRANGEBYSCORE key min max
export function zremrangebyscoreCommand(ctx: Ctx, argv: Args): Reply {
  const range = parseScoreRange(argv[2], argv[3]);
  if (range === undefined) return MIN_MAX_NOT_FLOAT;
  return removeFrom(ctx, argv[1], 'zremrangebyscore', (z) => z.removeRangeByScore(range));
}

// ZREMRANGEBYLEX key min max
export function zremrangebylexCommand(ctx: Ctx, argv: Args): Reply {
  const range = parseLexRange(argv[2], argv[3]);
  if (range === undefined) return MIN_MAX_NOT_LEX;
  return removeFrom(ctx, argv[1], 'zremrangebylex', (z) => z.removeRangeByLex(range));
}

/** Runs `remove` on the set at `key` (0 when absent) and replies how many it removed, published as `event`. */
function removeFrom(ctx: Ctx, key: string, event: string, remove: (z: ZSet) => number): Reply {
  const z = readTyped<ZSet>(ctx.ks, key, ZSET_KIND);
  if (isError(z)) return z;
  if (z === undefined) return unchanged(ctx, 0);
  const removed = remove(z);
  if (removed === 0) return unchanged(ctx, 0);
  removedFrom(ctx, KeyEvent.zset, event, key, z.size);
  return removed;
}

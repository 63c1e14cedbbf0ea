// ZPOPMIN, ZPOPMAX and ZMPOP: one generic, as Redis's genericZpopCommand. The blocking forms
// (BZPOPMIN, BZPOPMAX, BZMPOP) are declared unsupported in the table.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { COUNT_NOT_POSITIVE, isError, NOT_POSITIVE, NUMKEYS_NOT_POSITIVE, SYNTAX, type ReplyError } from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { replyDouble } from '../reply-double.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom, readTyped } from '../typed.js';

// ZPOPMIN key [count]
export function zpopminCommand(ctx: Ctx, argv: Args): Reply {
  return zpopMinMax(ctx, argv, false);
}

// ZPOPMAX key [count]
export function zpopmaxCommand(ctx: Ctx, argv: Args): Reply {
  return zpopMinMax(ctx, argv, true);
}

function zpopMinMax(ctx: Ctx, argv: Args, max: boolean): Reply {
  if (argv.length > 3) return SYNTAX;
  let count = 1;
  if (argv.length === 3) {
    const n = parseInteger(argv[2]);
    if (n === undefined || n < 0) return NOT_POSITIVE;
    count = n;
  }
  const found = firstZSet(ctx, [argv[1]]);
  if (isError(found)) return found;
  if (found === undefined || count === 0) return unchanged(ctx, []);
  const out: Reply[] = [];
  pop(ctx, found.key, found.z, max, count, (member, score) => out.push(member, score));
  return out;
}

// ZMPOP numkeys key [key ...] MIN | MAX [COUNT count]
export function zmpopCommand(ctx: Ctx, argv: Args): Reply {
  const numkeys = parseInteger(argv[1]);
  if (numkeys === undefined || numkeys < 1) return NUMKEYS_NOT_POSITIVE;
  const whereAt = 2 + numkeys;
  if (whereAt >= argv.length) return SYNTAX;
  const where = argv[whereAt].toLowerCase();
  if (where !== 'min' && where !== 'max') return SYNTAX;
  let count = -1;
  for (let j = whereAt + 1; j < argv.length; j++) {
    if (count === -1 && argv[j].toLowerCase() === 'count' && j + 1 < argv.length) {
      const n = parseInteger(argv[++j]);
      if (n === undefined || n < 1) return COUNT_NOT_POSITIVE;
      count = n;
    } else {
      return SYNTAX;
    }
  }
  if (count === -1) count = 1;
  const found = firstZSet(ctx, argv.slice(2, whereAt));
  if (isError(found)) return found;
  if (found === undefined) return unchanged(ctx, NULL_ARRAY);
  const popped: Reply[] = [];
  const n = pop(ctx, found.key, found.z, where === 'max', count, (member, score) => popped.push([member, score]));
  // Logged as the ZPOPMIN/ZPOPMAX it amounted to, as Redis propagates it.
  ctx.rewrite([[where === 'max' ? 'zpopmax' : 'zpopmin', found.key, String(n)]]);
  return [found.key, popped];
}

/** The first of `keys` holding a sorted set; WRONGTYPE if another type comes first. */
function firstZSet(ctx: Ctx, keys: Args): { key: string; z: ZSet } | undefined | ReplyError {
  for (const key of keys) {
    const z = readTyped<ZSet>(ctx.ks, key, ZSET_KIND);
    if (isError(z)) return z;
    if (z !== undefined) return { key, z };
  }
  return undefined;
}

/**
 * Removes up to `count` (at least 1) members from the low (or high) end, emitting each;
 * returns how many. The set is not empty, so something always goes and is published.
 */
function pop(ctx: Ctx, key: string, z: ZSet, max: boolean, count: number, emit: (member: string, score: string) => void): number {
  const n = Math.min(count, z.size);
  for (let i = 0; i < n; i++) {
    const x = (max ? z.last() : z.first())!;
    emit(x.member, replyDouble(x.score));
    z.remove(x.member);
  }
  removedFrom(ctx, KeyEvent.zset, max ? 'zpopmax' : 'zpopmin', key, z.size);
  return n;
}

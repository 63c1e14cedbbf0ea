// Point reads of a sorted set: size, scores, ranks and range counts (Redis t_zset.c).

import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { isError, MIN_MAX_NOT_FLOAT, MIN_MAX_NOT_LEX, SYNTAX, wrongArity } from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import { replyDouble } from '../reply-double.js';
import type { Args, Ctx } from '../spec.js';
import { readTyped } from '../typed.js';
import { parseLexRange, parseScoreRange } from './range-args.js';

// ZCARD key
export function zcardCommand(ctx: Ctx, argv: Args): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  return isError(z) ? z : (z?.size ?? 0);
}

// ZSCORE key member
export function zscoreCommand(ctx: Ctx, argv: Args): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  const score = z?.score(argv[2]);
  return score === undefined ? null : replyDouble(score);
}

// ZMSCORE key member [member ...]
export function zmscoreCommand(ctx: Ctx, argv: Args): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  const out: Reply[] = [];
  for (let i = 2; i < argv.length; i++) {
    const score = z?.score(argv[i]);
    out.push(score === undefined ? null : replyDouble(score));
  }
  return out;
}

// ZRANK key member [WITHSCORE]
export function zrankCommand(ctx: Ctx, argv: Args): Reply {
  return zrankGeneric(ctx, argv, false);
}

// ZREVRANK key member [WITHSCORE]
export function zrevrankCommand(ctx: Ctx, argv: Args): Reply {
  return zrankGeneric(ctx, argv, true);
}

/** WITHSCORE is Redis 7.2's: [rank, score], and nil when absent (a nil array in RESP). */
function zrankGeneric(ctx: Ctx, argv: Args, reverse: boolean): Reply {
  if (argv.length > 4) return wrongArity(argv[0].toLowerCase());
  const withScore = argv.length === 4;
  if (withScore && argv[3].toLowerCase() !== 'withscore') return SYNTAX;
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  const rank = z === undefined ? -1 : z.rank(argv[2], reverse);
  if (rank < 0) return withScore ? NULL_ARRAY : null;
  return withScore ? [rank, replyDouble(z!.score(argv[2])!)] : rank;
}

// ZCOUNT key min max
export function zcountCommand(ctx: Ctx, argv: Args): Reply {
  const range = parseScoreRange(argv[2], argv[3]);
  if (range === undefined) return MIN_MAX_NOT_FLOAT;
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  return z === undefined ? 0 : z.countInScore(range);
}

// ZLEXCOUNT key min max
export function zlexcountCommand(ctx: Ctx, argv: Args): Reply {
  const range = parseLexRange(argv[2], argv[3]);
  if (range === undefined) return MIN_MAX_NOT_LEX;
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  return z === undefined ? 0 : z.countInLex(range);
}

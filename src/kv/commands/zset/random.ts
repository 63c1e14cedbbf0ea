// ZRANDMEMBER (Redis zrandmemberCommand): a read, so its random choices need no rewriting.

import { ZSET_KIND, type ZCursor, type ZSet } from '../../engine/zset/zset-value.js';
import { isError, NOT_A_LONG, NOT_INTEGER, OUT_OF_RANGE, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { replyDouble } from '../reply-double.js';
import type { Args, Ctx } from '../spec.js';
import { readTyped } from '../typed.js';

const LONG_MAX = 9223372036854775807n;

// ZRANDMEMBER key [count [WITHSCORES]]
export function zrandmemberCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length === 2) {
    const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
    if (isError(z)) return z;
    return z === undefined ? null : z.randomPair().member;
  }
  const count = parseInteger(argv[2]);
  if (count === undefined) return NOT_INTEGER;
  // The count must fit in -LONG_MAX..LONG_MAX, half that with scores (the reply doubles it).
  if (BigInt(argv[2]) < -LONG_MAX) return NOT_A_LONG;
  if (argv.length > 4 || (argv.length === 4 && argv[3].toLowerCase() !== 'withscores')) return SYNTAX;
  const withScores = argv.length === 4;
  if (withScores && (BigInt(argv[2]) < -LONG_MAX / 2n || BigInt(argv[2]) > LONG_MAX / 2n)) return OUT_OF_RANGE;
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  if (z === undefined || count === 0) return [];
  // At most MAX_RANDOM_PICKS with repetition: admitsPicks refuses more.
  const out: string[] = [];
  const emit = (x: ZCursor) => {
    out.push(x.member);
    if (withScores) out.push(replyDouble(x.score));
  };
  if (count < 0) withRepetition(z, -count, emit);
  else distinct(z, count, emit);
  return out;
}

/** `count` members drawn independently: repeats possible, in random order. */
function withRepetition(z: ZSet, count: number, emit: (x: ZCursor) => void): void {
  for (let i = 0; i < count; i++) emit(z.randomPair());
}

/** `count` different members, or all of them (highest first, as Redis walks them). */
function distinct(z: ZSet, count: number, emit: (x: ZCursor) => void): void {
  const size = z.size;
  if (count >= size) {
    for (let x = z.last(); x !== null; x = x.prev()) emit(x);
    return;
  }
  if (count * 3 > size) {
    // Most of the set: a partial shuffle of all the ranks.
    const ranks = Array.from({ length: size }, (_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (size - i));
      [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
    }
    for (let i = 0; i < count; i++) emit(z.byRank(ranks[i])!);
    return;
  }
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(Math.random() * size));
  for (const rank of picked) emit(z.byRank(rank)!);
}

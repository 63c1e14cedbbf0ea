// ZRANDMEMBER (Redis zrandmemberCommand): a read, so its random choices need no rewriting.

import { ZSET_KIND, type ZNode, type ZSet } from '../../engine/zset/zset-value.js';
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
    return z === undefined ? null : z.randomNode().member;
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
  const out: string[] = [];
  for (const x of count < 0 ? withRepetition(z, -count) : distinct(z, count)) {
    out.push(x.member);
    if (withScores) out.push(replyDouble(x.score));
  }
  return out;
}

/** `count` members drawn independently: repeats possible, in random order. */
function withRepetition(z: ZSet, count: number): ZNode[] {
  const out: ZNode[] = new Array<ZNode>(count);
  for (let i = 0; i < count; i++) out[i] = z.randomNode();
  return out;
}

/** `count` different members, or all of them (highest first, as Redis walks them). */
function distinct(z: ZSet, count: number): ZNode[] {
  const size = z.size;
  if (count >= size) {
    const all: ZNode[] = [];
    for (let x = z.last; x !== null; x = x.backward) all.push(x);
    return all;
  }
  if (count * 3 > size) {
    // Most of the set: a partial shuffle of all of it.
    const all: ZNode[] = [];
    for (let x = z.first; x !== null; x = x.forward) all.push(x);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (size - i));
      [all[i], all[j]] = [all[j], all[i]];
    }
    return all.slice(0, count);
  }
  const picked = new Set<ZNode>();
  while (picked.size < count) picked.add(z.randomNode());
  return [...picked];
}

// ZRANGE and ZRANGESTORE, and the older forms they replace (ZREVRANGE, Z[REV]RANGEBYSCORE,
// Z[REV]RANGEBYLEX): one generic, as Redis's zrangeGenericCommand. The older forms fix the
// range type and direction, so BYSCORE, BYLEX and REV are syntax errors there.
//
// Order of checks, as in Redis: options (a bad LIMIT number first), conflicting options, the
// range arguments, and only then the key (so a bad range beats WRONGTYPE).

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { LISTPACK_MAX_ENTRIES, ZSET_KIND, ZSet, type ZCursor } from '../../engine/zset/zset-value.js';
import type { LexRange, ScoreRange } from '../../engine/zset/range.js';
import { lexGteMin, lexLteMax, scoreGteMin, scoreLteMax } from '../../engine/zset/range.js';
import {
  isError,
  MIN_MAX_NOT_FLOAT,
  MIN_MAX_NOT_LEX,
  NOT_INTEGER,
  SYNTAX,
  ZRANGE_LIMIT_NEEDS_BY,
  ZRANGE_WITHSCORES_BYLEX,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { replyDouble } from '../reply-double.js';
import type { Args, Ctx } from '../spec.js';
import { storeResult } from '../store-result.js';
import { readTyped } from '../typed.js';
import { parseLexRange, parseScoreRange } from './range-args.js';

type By = 'auto' | 'rank' | 'score' | 'lex';

/** The selected pairs, in reply order. */
interface Picked {
  readonly members: string[];
  readonly scores: number[];
}

const none = (): Picked => ({ members: [], scores: [] });

interface RangeForm {
  /** Where the source key is: 1, or 2 for ZRANGESTORE (after the destination). */
  readonly keyAt: number;
  readonly by: By;
  /** null: REV may be given. */
  readonly reverse: boolean | null;
  readonly store: boolean;
}

// ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
export function zrangeCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'auto', reverse: null, store: false });
}

// ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]
export function zrangestoreCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 2, by: 'auto', reverse: null, store: true });
}

// ZREVRANGE key start stop [WITHSCORES]
export function zrevrangeCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'rank', reverse: true, store: false });
}

// ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]
export function zrangebyscoreCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'score', reverse: false, store: false });
}

// ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]
export function zrevrangebyscoreCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'score', reverse: true, store: false });
}

// ZRANGEBYLEX key min max [LIMIT offset count]
export function zrangebylexCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'lex', reverse: false, store: false });
}

// ZREVRANGEBYLEX key max min [LIMIT offset count]
export function zrevrangebylexCommand(ctx: Ctx, argv: Args): Reply {
  return zrangeGeneric(ctx, argv, { keyAt: 1, by: 'lex', reverse: true, store: false });
}

function zrangeGeneric(ctx: Ctx, argv: Args, form: RangeForm): Reply {
  let by = form.by;
  let reverse = form.reverse;
  let withScores = false;
  let offset = 0;
  let limit = -1; // negative: no limit, as Redis (so "LIMIT 0 -1" counts as no LIMIT at all)
  for (let j = form.keyAt + 3; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    if (!form.store && opt === 'withscores') {
      withScores = true;
    } else if (opt === 'limit' && argv.length - j - 1 >= 2) {
      const o = parseInteger(argv[j + 1]);
      const l = parseInteger(argv[j + 2]);
      if (o === undefined || l === undefined) return NOT_INTEGER;
      offset = o;
      limit = l;
      j += 2;
    } else if (reverse === null && opt === 'rev') {
      reverse = true;
    } else if (form.by === 'auto' && by === 'auto' && (opt === 'byscore' || opt === 'bylex')) {
      by = opt === 'byscore' ? 'score' : 'lex';
    } else {
      return SYNTAX;
    }
  }
  // ZRANGE and ZRANGESTORE page an index range with LIMIT too (Upstash; see `deviates`),
  // where Redis refuses it. The older commands keep Redis's refusal.
  const limitWithRank = form.by === 'auto';
  if (by === 'auto') by = 'rank';
  const rev = reverse === true;
  if (limit !== -1 && by === 'rank' && !limitWithRank) return ZRANGE_LIMIT_NEEDS_BY;
  if (withScores && by === 'lex') return ZRANGE_WITHSCORES_BYLEX;

  // BYSCORE and BYLEX take the bounds highest first when reversed.
  const first = argv[form.keyAt + (rev && by !== 'rank' ? 2 : 1)];
  const second = argv[form.keyAt + (rev && by !== 'rank' ? 1 : 2)];
  let select: (z: ZSet) => Picked;
  if (by === 'rank') {
    const start = parseInteger(first);
    const end = parseInteger(second);
    if (start === undefined || end === undefined) return NOT_INTEGER;
    // Redis ignores "LIMIT <offset> -1" on an index range, so a LIMIT only pages otherwise.
    select = (z) => (limit === -1 ? byRank(z, start, end, rev, 0, -1) : byRank(z, start, end, rev, offset, limit));
  } else if (by === 'score') {
    const range = parseScoreRange(first, second);
    if (range === undefined) return MIN_MAX_NOT_FLOAT;
    select = (z) => byScore(z, range, rev, offset, limit);
  } else {
    const range = parseLexRange(first, second);
    if (range === undefined) return MIN_MAX_NOT_LEX;
    select = (z) => byLex(z, range, rev, offset, limit);
  }

  const z = readTyped<ZSet>(ctx.ks, argv[form.keyAt], ZSET_KIND);
  if (isError(z)) return z;
  const { members, scores } = z === undefined ? none() : select(z);
  if (form.store) return store(ctx, argv[1], members, scores, by === 'rank');
  if (!withScores) return members;
  const out: string[] = [];
  for (let i = 0; i < members.length; i++) out.push(members[i], replyDouble(scores[i]));
  return out;
}

/**
 * ZRANGESTORE's destination: the selected members with their scores, or no key at all. Redis
 * sizes it up front when it knows the count (an index range): a skip list past 128 members,
 * else a listpack that converts as it grows (and so stores early -0 scores as 0).
 */
function store(ctx: Ctx, dst: string, members: string[], scores: number[], countKnown: boolean): Reply {
  const z = new ZSet(!countKnown || members.length <= LISTPACK_MAX_ENTRIES);
  for (let i = 0; i < members.length; i++) z.add(members[i], scores[i]);
  return storeResult(ctx, dst, z, z.size, KeyEvent.zset, 'zrangestore');
}

/**
 * Ranks start..stop (negative from the end), clamped, reversed ranks counting from the
 * highest; then LIMIT's `offset` and `limit` (all when negative) within them.
 */
function byRank(z: ZSet, start: number, end: number, reverse: boolean, offset: number, limit: number): Picked {
  const size = z.size;
  if (start < 0) start += size;
  if (end < 0) end += size;
  if (start < 0) start = 0;
  if (offset < 0) return none();
  start += offset;
  if (limit >= 0) end = Math.min(end, start + limit - 1);
  if (start > end || start >= size) return none();
  if (end >= size) end = size - 1;
  const out = none();
  let x = z.byRank(reverse ? size - 1 - start : start);
  for (let n = end - start + 1; n > 0 && x !== null; n--) {
    out.members.push(x.member);
    out.scores.push(x.score);
    x = reverse ? x.prev() : x.next();
  }
  return out;
}

function byScore(z: ZSet, range: ScoreRange, reverse: boolean, offset: number, limit: number): Picked {
  if (offset > 0 && offset >= z.size) return none();
  const inRange = reverse ? (x: ZCursor) => scoreGteMin(x.score, range) : (x: ZCursor) => scoreLteMax(x.score, range);
  return walk(reverse ? z.lastInScore(range) : z.firstInScore(range), reverse, offset, limit, inRange);
}

function byLex(z: ZSet, range: LexRange, reverse: boolean, offset: number, limit: number): Picked {
  const inRange = reverse ? (x: ZCursor) => lexGteMin(x.member, range) : (x: ZCursor) => lexLteMax(x.member, range);
  return walk(reverse ? z.lastInLex(range) : z.firstInLex(range), reverse, offset, limit, inRange);
}

/**
 * From the first pair in range, skips `offset` pairs without checking them, then takes up to
 * `limit` (all when negative) while they stay in range. A negative offset walks off the end,
 * as Redis's `while (ln && offset--)` does, and selects nothing.
 */
function walk(x: ZCursor | null, reverse: boolean, offset: number, limit: number, inRange: (x: ZCursor) => boolean): Picked {
  if (offset < 0) return none();
  for (; x !== null && offset > 0; offset--) x = reverse ? x.prev() : x.next();
  const out = none();
  for (; x !== null && limit !== 0 && inRange(x); limit--) {
    out.members.push(x.member);
    out.scores.push(x.score);
    x = reverse ? x.prev() : x.next();
  }
  return out;
}

// ZADD and ZINCRBY: one generic, as Redis's zaddGenericCommand. Options are read, then every
// score, before the key is looked up, so a bad score never creates a key or a WRONGTYPE.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { UPDATED, ZSET_KIND, ZSet } from '../../engine/zset/zset-value.js';
import {
  isError,
  NOT_FLOAT,
  SCORE_NAN,
  SYNTAX,
  ZADD_GT_LT_NX,
  ZADD_INCR_PAIRS,
  ZADD_NX_AND_XX,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { ArgReader, parseFloatText } from '../args.js';
import { replyDouble } from '../reply-double.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { readTyped } from '../typed.js';

// ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]
export function zaddCommand(ctx: Ctx, argv: Args): Reply {
  return zaddGeneric(ctx, argv, false);
}

// ZINCRBY key increment member
export function zincrbyCommand(ctx: Ctx, argv: Args): Reply {
  return zaddGeneric(ctx, argv, true);
}

function zaddGeneric(ctx: Ctx, argv: Args, incrCommand: boolean): Reply {
  // ZINCRBY reads the same options as ZADD, as Redis does; "ZINCRBY k nx m" is a syntax error.
  const r = new ArgReader(argv, 2);
  const opts = r.flags('nx', 'xx', 'gt', 'lt', 'ch', 'incr');
  const at = r.at;
  const nx = opts.has('nx');
  const xx = opts.has('xx');
  const gt = opts.has('gt');
  const lt = opts.has('lt');
  const ch = opts.has('ch');
  const incr = incrCommand || opts.has('incr');
  const pairs = argv.length - at;
  if (pairs === 0 || pairs % 2 !== 0) return SYNTAX;
  if (nx && xx) return ZADD_NX_AND_XX;
  if ((gt && nx) || (lt && nx) || (gt && lt)) return ZADD_GT_LT_NX;
  if (incr && pairs > 2) return ZADD_INCR_PAIRS;
  const scores: number[] = [];
  for (let i = at; i < argv.length; i += 2) {
    const score = parseFloatText(argv[i]);
    if (score === undefined) return NOT_FLOAT;
    scores.push(score);
  }

  const key = argv[1];
  const found = readTyped<ZSet>(ctx.ks, key, ZSET_KIND);
  if (isError(found)) return found;
  let z = found;
  if (z === undefined) {
    if (xx) return unchanged(ctx, incr ? null : 0);
    z = new ZSet();
    ctx.ks.insert(key, z, 0);
  }

  let added = 0;
  let updated = 0;
  let processed = 0;
  let last = 0;
  for (let j = 0; j < scores.length; j++) {
    const member = argv[at + 2 * j + 1];
    let score = scores[j];
    const current = z.score(member);
    if (current === undefined) {
      if (xx) continue;
      z.add(member, score);
      added++;
    } else {
      if (nx) continue;
      if (incr) {
        score += current;
        if (Number.isNaN(score)) return SCORE_NAN;
      }
      if ((lt && score >= current) || (gt && score <= current)) continue;
      if (z.add(member, score) === UPDATED) updated++;
    }
    processed++;
    last = score;
  }
  const reply = incr ? (processed > 0 ? replyDouble(last) : null) : ch ? added + updated : added;
  if (added + updated === 0) return unchanged(ctx, reply);
  ctx.events.notify(KeyEvent.zset, incr ? 'zincr' : 'zadd', key);
  return reply;
}

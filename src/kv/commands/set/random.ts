// The random set commands (Redis t_set.c spopCommand, srandmemberCommand). Draws use
// Math.random: nothing about them is replayed, because SPOP is logged as the SREM of the
// members it took (or as DEL when it took them all), exactly as Redis propagates it. SPOP
// publishes spop, whatever it took, then del when it emptied the set.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { SET_KIND, type SetValue } from '../../engine/set/set-value.js';
import { NOT_POSITIVE, isError, NOT_INTEGER, NOT_A_LONG, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MIN, parseInt64, parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom, readTyped } from '../typed.js';
import { unionOf } from './algebra.js';

const NONE: readonly Reply[] = [];

/**
 * SPOP rebuilds the set from its remaining members when it takes at least this many times as
 * many as it leaves (Redis's SPOP_MOVE_STRATEGY_MUL); the rebuilt set may become an intset.
 */
const SPOP_REBUILD_RATIO = 5;

/** SRANDMEMBER copies the whole set rather than drawing when it wants over a third of it. */
const SRANDMEMBER_COPY_RATIO = 3;

// SPOP key [count]
export function spopCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3) return SYNTAX;
  const key = argv[1];
  if (argv.length === 3) return spopCount(ctx, key, argv[2]);
  const set = readTyped<SetValue>(ctx.ks, key, SET_KIND);
  if (set === undefined) return unchanged(ctx, null);
  if (isError(set)) return set;
  const member = set.pop();
  removedFrom(ctx, KeyEvent.set, 'spop', key, set.size);
  ctx.rewrite([['srem', key, member]]);
  return member;
}

function spopCount(ctx: Ctx, key: string, countArg: string): Reply {
  const count = parseInteger(countArg);
  if (count === undefined || count < 0) return NOT_POSITIVE;
  const set = readTyped<SetValue>(ctx.ks, key, SET_KIND);
  if (isError(set)) return set;
  if (set === undefined || count === 0) return unchanged(ctx, NONE);
  const size = set.size;
  if (count >= size) {
    // The whole set, in the order Redis's SUNION of it would give.
    const all = unionOf([set]).members();
    removedFrom(ctx, KeyEvent.set, 'spop', key, 0); // every member was taken
    ctx.rewrite([['del', key]]);
    return all;
  }
  const popped = new Array<string>(count);
  for (let i = 0; i < count; i++) popped[i] = set.pop();
  if ((size - count) * SPOP_REBUILD_RATIO <= count) set.reencode();
  ctx.events.notify(KeyEvent.set, 'spop', key);
  ctx.rewrite([['srem', key, ...popped]]);
  return popped;
}

// SRANDMEMBER key [count]
// A negative count draws that many with repetition; a positive one, distinct members.
export function srandmemberCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3) return SYNTAX;
  if (argv.length === 2) {
    const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
    if (isError(set)) return set;
    return set === undefined ? null : set.random();
  }
  const n = parseInt64(argv[2]);
  if (n === undefined) return NOT_INTEGER;
  if (n === INT64_MIN) return NOT_A_LONG;
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  if (set === undefined || n === 0n) return NONE;
  // At most MAX_RANDOM_PICKS with repetition: admitsPicks refuses more.
  if (n < 0n) return drawWithRepetition(set, Number(-n));
  const count = Number(n);
  if (count >= set.size) return set.members();
  return count * SRANDMEMBER_COPY_RATIO > set.size ? pickFromCopy(set, count) : drawDistinct(set, count);
}

function drawWithRepetition(set: SetValue, count: number): string[] {
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = set.random();
  return out;
}

/** `count` distinct members drawn by retrying repeats: cheap when the set is much larger. */
function drawDistinct(set: SetValue, count: number): string[] {
  const picked = new Set<string>();
  while (picked.size < count) picked.add(set.random());
  return [...picked];
}

/** `count` distinct members by a partial Fisher-Yates shuffle of a copy of the set. */
function pickFromCopy(set: SetValue, count: number): string[] {
  const all = set.members().slice();
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(Math.random() * (all.length - i));
    const t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  all.length = count;
  return all;
}

// Set membership commands (Redis t_set.c): adding, removing, testing, counting and listing
// members, and moving one between sets. All deterministic: logged as sent, or not at all when
// they changed nothing; only then do they publish their events (sadd, srem), as Redis's do.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { SET_KIND, SetValue } from '../../engine/set/set-value.js';
import { isError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom, readTyped, writeTyped } from '../typed.js';

const NO_MEMBERS: readonly Reply[] = [];

// SADD key member [member ...]
export function saddCommand(ctx: Ctx, argv: Args): Reply {
  const set = writeTyped(ctx.ks, argv[1], SET_KIND, () => SetValue.forFirst(argv[2]));
  if (isError(set)) return set;
  let added = 0;
  for (let i = 2; i < argv.length; i++) if (set.add(argv[i])) added++;
  if (added === 0) return unchanged(ctx, 0);
  ctx.events.notify(KeyEvent.set, 'sadd', argv[1]);
  return added;
}

// SREM key member [member ...]
export function sremCommand(ctx: Ctx, argv: Args): Reply {
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  if (set === undefined) return unchanged(ctx, 0);
  let removed = 0;
  for (let i = 2; i < argv.length && set.size > 0; i++) if (set.delete(argv[i])) removed++;
  if (removed === 0) return unchanged(ctx, 0);
  removedFrom(ctx, KeyEvent.set, 'srem', argv[1], set.size);
  return removed;
}

// SMOVE source destination member
// Both keys are type-checked only when the source exists, as in Redis. Publishes the source's
// srem (and del), then the destination's sadd unless it had the member already.
export function smoveCommand(ctx: Ctx, argv: Args): Reply {
  const [, from, to, member] = argv;
  const src = readTyped<SetValue>(ctx.ks, from, SET_KIND);
  const dst = readTyped<SetValue>(ctx.ks, to, SET_KIND);
  if (src === undefined) return unchanged(ctx, 0);
  if (isError(src)) return src;
  if (isError(dst)) return dst;
  if (src === dst) return unchanged(ctx, src.has(member) ? 1 : 0);
  if (!src.delete(member)) return unchanged(ctx, 0);
  removedFrom(ctx, KeyEvent.set, 'srem', from, src.size);
  if (dst === undefined) {
    const made = SetValue.forFirst(member);
    made.add(member);
    ctx.ks.insert(to, made, 0);
  } else if (!dst.add(member)) {
    return 1;
  }
  ctx.events.notify(KeyEvent.set, 'sadd', to);
  return 1;
}

// SISMEMBER key member
export function sismemberCommand(ctx: Ctx, argv: Args): Reply {
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  return set?.has(argv[2]) ? 1 : 0;
}

// SMISMEMBER key member [member ...]
export function smismemberCommand(ctx: Ctx, argv: Args): Reply {
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  const out = new Array<number>(argv.length - 2);
  for (let i = 2; i < argv.length; i++) out[i - 2] = set?.has(argv[i]) ? 1 : 0;
  return out;
}

// SCARD key
export function scardCommand(ctx: Ctx, argv: Args): Reply {
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  return set?.size ?? 0;
}

// SMEMBERS key
export function smembersCommand(ctx: Ctx, argv: Args): Reply {
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (isError(set)) return set;
  return set?.members() ?? NO_MEMBERS;
}

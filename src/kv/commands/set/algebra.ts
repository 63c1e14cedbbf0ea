// Intersection, union and difference of sets (Redis t_set.c sinterGenericCommand,
// sunionDiffGenericCommand), with their cardinality-only and STORE forms.
//
// A missing key is an empty set; any key of another type is WRONGTYPE, even after a missing
// one. Results are built as Redis builds them, starting from an intset, so a stored result
// has Redis's encoding and a replied one Redis's order where that is deterministic (ascending
// integers). The STORE forms are deterministic and logged as sent; each publishes its own
// event (sinterstore, ...) for a result it stored, or del for a destination an empty one deleted.

import type { Keyspace } from '../../engine/keyspace.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { SET_KIND, SetValue } from '../../engine/set/set-value.js';
import { isError, LIMIT_NEGATIVE, NUMKEYS_NOT_POSITIVE, NUMKEYS_OVER_ARGS, SYNTAX, type ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { storeResult } from '../store-result.js';
import { readTyped } from '../typed.js';

type Sets = (SetValue | undefined)[];

/** The sets at `keys` (undefined where missing), or the first WRONGTYPE among them. */
function readSets(ks: Keyspace, keys: Args): Sets | ReplyError {
  const sets: Sets = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const set = readTyped<SetValue>(ks, keys[i], SET_KIND);
    if (isError(set)) return set;
    sets[i] = set;
  }
  return sets;
}

/**
 * Calls `visit` with each member that every set has, in the iteration order of the smallest
 * set, until it returns false.
 */
function forEachCommon(sets: Sets, visit: (m: string) => boolean): void {
  if (sets.includes(undefined)) return;
  const sorted = (sets as SetValue[]).slice().sort((a, b) => a.size - b.size);
  const smallest = sorted[0];
  next: for (const m of smallest.members()) {
    for (let i = 1; i < sorted.length; i++) if (sorted[i] !== smallest && !sorted[i].has(m)) continue next;
    if (!visit(m)) return;
  }
}

/** Every member of any of `sets`, as a new set. */
export function unionOf(sets: Sets): SetValue {
  const out = SetValue.empty();
  for (const set of sets) if (set !== undefined) for (const m of set.members()) out.add(m);
  return out;
}

/** The members of the first set that none of the others has, as a new set. */
function differenceOf(sets: Sets): SetValue {
  const out = SetValue.empty();
  const [first, ...others] = sets;
  if (first === undefined || others.includes(first)) return out;
  for (const m of first.members()) if (!others.some((s) => s?.has(m))) out.add(m);
  return out;
}

/** A STORE form's ending (store-result.ts), published as `event` of the set class. */
function store(ctx: Ctx, dst: string, result: SetValue, event: string): Reply {
  return storeResult(ctx, dst, result, result.size, KeyEvent.set, event);
}

function intersectionOf(sets: Sets): SetValue {
  const out = SetValue.empty();
  forEachCommon(sets, (m) => {
    out.add(m);
    return true;
  });
  return out;
}

// SINTER key [key ...]
export function sinterCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(1));
  if (isError(sets)) return sets;
  const out: string[] = [];
  forEachCommon(sets, (m) => {
    out.push(m);
    return true;
  });
  return out;
}

// SINTERSTORE destination key [key ...]
export function sinterstoreCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(2));
  return isError(sets) ? sets : store(ctx, argv[1], intersectionOf(sets), 'sinterstore');
}

// SINTERCARD numkeys key [key ...] [LIMIT limit]
export function sintercardCommand(ctx: Ctx, argv: Args): Reply {
  const numkeys = parseInteger(argv[1]);
  if (numkeys === undefined || numkeys < 1) return NUMKEYS_NOT_POSITIVE;
  if (numkeys > argv.length - 2) return NUMKEYS_OVER_ARGS;
  let limit = 0;
  for (let i = 2 + numkeys; i < argv.length; i++) {
    if (argv[i].toLowerCase() !== 'limit' || i + 1 === argv.length) return SYNTAX;
    const n = parseInteger(argv[++i]);
    if (n === undefined || n < 0) return LIMIT_NEGATIVE;
    limit = n;
  }
  const sets = readSets(ctx.ks, argv.slice(2, 2 + numkeys));
  if (isError(sets)) return sets;
  let n = 0;
  forEachCommon(sets, () => ++n !== limit);
  return n;
}

// SUNION key [key ...]
export function sunionCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(1));
  return isError(sets) ? sets : unionOf(sets).members();
}

// SUNIONSTORE destination key [key ...]
export function sunionstoreCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(2));
  return isError(sets) ? sets : store(ctx, argv[1], unionOf(sets), 'sunionstore');
}

// SDIFF key [key ...]
export function sdiffCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(1));
  return isError(sets) ? sets : differenceOf(sets).members();
}

// SDIFFSTORE destination key [key ...]
export function sdiffstoreCommand(ctx: Ctx, argv: Args): Reply {
  const sets = readSets(ctx.ks, argv.slice(2));
  return isError(sets) ? sets : store(ctx, argv[1], differenceOf(sets), 'sdiffstore');
}

// HyperLogLog commands (Redis hyperloglog.c): PFADD, PFCOUNT, PFMERGE on string values in
// Redis's own HLL format (engine/hll/), so GET answers the bytes Redis would.
//
// PFADD publishes `pfadd` when it created the key or changed a register; PFMERGE always
// publishes `pfadd` too, as Redis does ("in theory a mass-add of elements").
//
// Durability: PFADD and PFMERGE are deterministic and logged as sent. PFCOUNT is a read, but
// caching its estimate in the header changes the bytes, so like Redis (which propagates it
// then) it logs itself when it does; replaying it caches the same estimate.

import { cachedCount, EMPTY_HLL, isDense, isHll, REGISTERS, staleCount, withCount } from '../engine/hll/format.js';
import { hllAdd, hllCount, hllMergeInto, hllStore } from '../engine/hll/hll.js';
import { estimate, rawHistogram } from '../engine/hll/estimate.js';
import { KeyEvent } from '../engine/pubsub/keyspace-events.js';
import { HLL_CORRUPT, isError, NOT_HLL, type ReplyError } from '../errors.js';
import { OK, type Reply } from '../reply.js';
import { ALL_KEYS, family, ONE_KEY, unchanged, type Args, type Ctx } from './spec.js';
import { getString, putString, stringAt, stringSlot } from './string/lookup.js';

export default family('hyperloglog', 'hyperloglog', [
  { name: 'pfadd', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: pfaddCommand },
  { name: 'pfcount', arity: -2, flags: ['readonly'], keys: ALL_KEYS, run: pfcountCommand },
  { name: 'pfmerge', arity: -2, flags: ['write', 'readLookups'], keys: ALL_KEYS, run: pfmergeCommand },
]);

// PFADD key [element ...]
function pfaddCommand(ctx: Ctx, argv: Args): Reply {
  const s = stringSlot(ctx.ks, argv[1]);
  if (isError(s)) return s;
  const stored = stringAt(ctx.ks, s);
  if (stored !== undefined && !isHll(stored)) return NOT_HLL;
  const added = hllAdd(stored ?? EMPTY_HLL, argv.slice(2));
  if (added === null) return HLL_CORRUPT;
  if (s === undefined) {
    // A new key counts as a change even with no elements, and its estimate is stale.
    ctx.ks.insert(argv[1], added ?? staleCount(EMPTY_HLL), 0);
  } else if (added === undefined) {
    return unchanged(ctx, 0);
  } else {
    ctx.ks.setValueAt(s, added);
  }
  ctx.events.notify(KeyEvent.string, 'pfadd', argv[1]);
  return 1;
}

// PFCOUNT key [key ...]
function pfcountCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 2) {
    const max = union(ctx, argv.slice(1));
    return isError(max) ? max : estimate(rawHistogram(max.registers));
  }
  const s = stringSlot(ctx.ks, argv[1]);
  if (s === undefined) return 0;
  if (isError(s)) return s;
  const stored = stringAt(ctx.ks, s);
  if (!isHll(stored)) return NOT_HLL;
  const cached = cachedCount(stored);
  if (cached !== undefined) return cached;
  const count = hllCount(stored);
  if (count === null) return HLL_CORRUPT;
  ctx.ks.setValueAt(s, withCount(stored, count));
  ctx.rewrite([argv]);
  return count;
}

// PFMERGE destkey [sourcekey ...]
// The destination is a source too, so it must already be an HLL if it exists.
function pfmergeCommand(ctx: Ctx, argv: Args): Reply {
  const max = union(ctx, argv.slice(1));
  if (isError(max)) return max;
  // Every key was read, the destination first (a missing one publishes keymiss); the destination
  // is looked up again to be written, which publishes nothing (Redis's lookupKeyWrite).
  ctx.ks.reading = false;
  const s = stringSlot(ctx.ks, argv[1]);
  if (isError(s)) return s;
  const merged = hllStore(stringAt(ctx.ks, s) ?? EMPTY_HLL, max.registers, max.dense);
  if (merged === null) return HLL_CORRUPT;
  putString(ctx.ks, argv[1], s, merged);
  ctx.events.notify(KeyEvent.string, 'pfadd', argv[1]);
  return OK;
}

interface Union {
  /** Register-wise maximum over the HLLs. */
  readonly registers: Uint8Array;
  /** Whether any of them is dense. */
  readonly dense: boolean;
}

/** The union of the HLLs at `keys`, missing keys counting as empty ones. */
function union(ctx: Ctx, keys: readonly string[]): Union | ReplyError {
  const registers = new Uint8Array(REGISTERS);
  let dense = false;
  for (const key of keys) {
    const v = getString(ctx.ks, key);
    if (v === null) continue;
    if (isError(v)) return v;
    if (!isHll(v)) return NOT_HLL;
    dense ||= isDense(v);
    if (!hllMergeInto(registers, v)) return HLL_CORRUPT;
  }
  return { registers, dense };
}

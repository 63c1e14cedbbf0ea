// HRANDFIELD (Redis t_hash.c hrandfieldCommand and hrandfieldWithCountCommand), with Redis's
// reply shapes: a bulk string (or nil) without a count; with one, a flat array, names and
// values alternating WITHVALUES.

import type { Field, HashValue } from '../../engine/hash/hash-value.js';
import { isError, NOT_A_LONG, NOT_INTEGER, OUT_OF_RANGE, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MAX, parseInt64 } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { readHash } from './lookup.js';

/** Past this share of the hash, a unique sample is drawn by shuffling instead of by retrying. */
const SHUFFLE_SHARE = 3;

// HRANDFIELD key [count [WITHVALUES]]
export function hrandfieldCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length === 2) {
    const h = readHash(ctx, argv[1]);
    if (h === undefined || isError(h)) return h ?? null;
    return h.random().name;
  }
  const l = parseInt64(argv[2]);
  if (l === undefined) return NOT_INTEGER;
  if (l < -INT64_MAX) return NOT_A_LONG;
  if (argv.length > 4 || (argv.length === 4 && argv[3].toLowerCase() !== 'withvalues')) return SYNTAX;
  const withValues = argv.length === 4;
  // Redis keeps the reply length (twice the count) within a long.
  if (withValues && (l > INT64_MAX / 2n || l < -INT64_MAX / 2n)) return OUT_OF_RANGE;
  const h = readHash(ctx, argv[1]);
  if (h === undefined || isError(h)) return h ?? [];
  const out: string[] = [];
  const push = (f: Field) => {
    out.push(f.name);
    if (withValues) out.push(f.value);
  };
  const count = Number(l < 0n ? -l : l);
  if (count === 0) return out;
  if (l < 0n || count === 1) {
    // Picks with repetition, in random order (at most MAX_RANDOM_PICKS: admitsPicks).
    for (let i = 0; i < count; i++) push(h.random());
  } else if (count >= h.size) {
    for (const f of h.fields()) push(f);
  } else {
    for (const f of uniqueSample(h, count)) push(f);
  }
  return out;
}

/**
 * `count` distinct fields, fewer than the hash holds. A listpack-sized hash answers them in
 * its own order, as Redis samples a listpack in place; a larger one in random order.
 */
function uniqueSample(h: HashValue, count: number): Field[] {
  if (h.compact || count * SHUFFLE_SHARE > h.size) {
    const all = [...h.fields()];
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (all.length - i));
      [all[i], all[j]] = [all[j], all[i]];
    }
    const chosen = all.slice(0, count);
    return h.compact ? chosen.sort((a, b) => a.seq - b.seq) : chosen;
  }
  const chosen = new Set<Field>();
  while (chosen.size < count) chosen.add(h.random());
  return [...chosen];
}

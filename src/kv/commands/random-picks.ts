// The bound on the random-element commands (HRANDFIELD, SRANDMEMBER, ZRANDMEMBER) with a
// negative count, which draws that many with repetition whatever the collection's size.

import { tooManyPicks, type ReplyError } from '../errors.js';
import { INT64_MAX, parseInt64 } from './args.js';
import type { Args } from './spec.js';

/**
 * The most elements a negative count picks in one reply. Redis builds a reply of any size;
 * Larder answers through one JSON body, so it refuses past this (a `deviates` entry).
 */
export const MAX_RANDOM_PICKS = 1 << 24;

/**
 * Refuses a negative count past the bound at admission, on every engine, before the key is
 * read: a remote Redis would build that reply from a set of two, and the gateway hold it whole.
 * A count the command refuses anyway (not a long; past half of one beside WITHVALUES or
 * WITHSCORES, which double the reply) is left to its own check, so Redis's error comes first.
 */
export function admitsPicks(argv: Args): ReplyError | null {
  if (argv.length < 3) return null;
  const n = parseInt64(argv[2]);
  if (n === undefined || n >= -BigInt(MAX_RANDOM_PICKS) || n < -INT64_MAX) return null;
  if (argv.length > 3 && n < -INT64_MAX / 2n) return null;
  return tooManyPicks(MAX_RANDOM_PICKS);
}

// How Redis 7.0 prints a double in a reply (networking.c addReplyDouble, RESP2): "inf" and
// "-inf", otherwise printf's "%.17g" (engine/scripting/format-g.ts). Sorted-set scores travel
// this way (ZSCORE, ZINCRBY, WITHSCORES, ZSCAN, ...), so 0.1 reads "0.10000000000000001" and
// 1e20 reads "1e+20".

import { exactShortest, formatG, roundedG } from '../engine/scripting/format-g.js';

const PRECISION = 17;

/** %.17g of `n`, with Redis's spelling of the infinities. */
export function replyDouble(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return formatG(n, PRECISION);
  const sign = n < 0 ? '-' : '';
  const x = Math.abs(n);
  // Integers (the common score) and short exact fractions print as they are.
  const exact = exactShortest(x, PRECISION);
  if (exact !== null) return sign + exact;
  let text = recent.get(x);
  if (text === undefined) {
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(x, (text = roundedG(x, PRECISION)));
  }
  return sign + text;
}

/**
 * What the long way printed lately, by value: a sorted set's scores are printed again at every
 * range read, and each of these costs a fixed-precision conversion (about half a microsecond).
 */
const recent = new Map<number, string>();
const RECENT_MAX = 4096;

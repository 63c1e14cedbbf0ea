// How Redis 7.0 prints a double in a reply (networking.c addReplyDouble, RESP2): "inf" and
// "-inf", otherwise printf's "%.17g". Sorted-set scores travel this way (ZSCORE, ZINCRBY,
// WITHSCORES, ZSCAN, ...), so 0.1 reads "0.10000000000000001" and 1e20 reads "1e+20".
//
// JS gives the 17 correctly rounded significant digits (toExponential), but settles a tie
// upwards where glibc rounds to even. A double is m * 2^k with m odd; when k < 0 its decimal
// expansion ends in a 5 exactly -k places after the point, so the value is a tie at 17 digits
// only when that expansion has exactly 18 significant digits. That case is detected and
// rounded to even; 2^-25 prints "2.9802322387695312e-08" as in Redis.

import { exactShortest, lowestBit } from '../engine/scripting/format-g.js';

const PRECISION = 17;

/** %.17g of `n`, with Redis's spelling of the infinities. */
export function replyDouble(n: number): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isNaN(n)) return 'nan';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const sign = n < 0 ? '-' : '';
  const x = Math.abs(n);
  // Integers (the common score) and short exact fractions print as they are.
  const exact = exactShortest(x, PRECISION);
  if (exact !== null) return sign + exact;
  let text = recent.get(x);
  if (text === undefined) {
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(x, (text = seventeenDigits(x)));
  }
  return sign + text;
}

/**
 * What the slow way printed lately, by value: a sorted set's scores are printed again at every
 * range read, and each of these costs a fixed-precision conversion (about half a microsecond).
 */
const recent = new Map<number, string>();
const RECENT_MAX = 4096;

/** %.17g of x (positive, finite, not an exact short fraction). */
function seventeenDigits(x: number): string {
  const [digits, exp] = splitExponential(x.toExponential(PRECISION - 1));
  // 18 digits are worked out only where a tie may be: their exponent is this one, or one less
  // where rounding to 17 carried into a new power of ten.
  if (!isTie(x, exp) && !isTie(x, exp - 1)) return formatG(digits, exp);
  const [digits18, exp18] = splitExponential(x.toExponential(PRECISION));
  if (digits18.charCodeAt(PRECISION) === 53 /* 5 */ && isTie(x, exp18) && (digits18.charCodeAt(PRECISION - 1) & 1) === 0) {
    return formatG(digits18.slice(0, PRECISION), exp18);
  }
  return formatG(digits, exp);
}

/** "d.ddde+x" as its digits without the point, and the decimal exponent. */
function splitExponential(s: string): [string, number] {
  const e = s.indexOf('e');
  return [s[0] + s.slice(2, e), Number(s.slice(e + 1))];
}

/** Whether `x`'s exact decimal expansion has exactly 18 significant digits (the 18th a 5). */
function isTie(x: number, exp10: number): boolean {
  const k = lowestBit(x);
  return k < 0 && exp10 + 1 - k === PRECISION + 1;
}

/** printf's %g layout of the significant digits `digits` times 10^exp, trailing zeros removed. */
function formatG(digits: string, exp: number): string {
  if (exp < -4 || exp >= PRECISION) {
    const rest = digits.slice(1).replace(/0+$/, '');
    const e = Math.abs(exp);
    return `${digits[0]}${rest === '' ? '' : '.' + rest}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return ('0.' + '0'.repeat(-exp - 1) + digits).replace(/0+$/, '');
  const int = digits.slice(0, exp + 1);
  const frac = digits.slice(exp + 1).replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

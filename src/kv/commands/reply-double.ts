// How Redis 7.0 prints a double in a reply (networking.c addReplyDouble, RESP2): "inf" and
// "-inf", otherwise printf's "%.17g". Sorted-set scores travel this way (ZSCORE, ZINCRBY,
// WITHSCORES, ZSCAN, ...), so 0.1 reads "0.10000000000000001" and 1e20 reads "1e+20".
//
// JS gives the 17 correctly rounded significant digits (toExponential), but settles a tie
// upwards where glibc rounds to even. A double is m * 2^k with m odd; when k < 0 its decimal
// expansion ends in a 5 exactly -k places after the point, so the value is a tie at 17 digits
// only when that expansion has exactly 18 significant digits. That case is detected and
// rounded to even; 2^-25 prints "2.9802322387695312e-08" as in Redis.

const PRECISION = 17;

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer); // little endian: words[0] low, words[1] high

/** %.17g of `n`, with Redis's spelling of the infinities. */
export function replyDouble(n: number): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isNaN(n)) return 'nan';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  // At most 16 digits, all exact: %.17g prints them as they are (the common integer score).
  if (Number.isSafeInteger(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const x = Math.abs(n);
  const exact = exactShortest(x);
  if (exact !== null) return sign + exact;
  const [digits, exp] = splitExponential(x.toExponential(PRECISION - 1));
  // 18 digits are worked out only where a tie may be: their exponent is this one, or one less
  // where rounding to 17 carried into a new power of ten.
  if (!isTie(x, exp) && !isTie(x, exp - 1)) return sign + formatG(digits, exp);
  const [digits18, exp18] = splitExponential(x.toExponential(PRECISION));
  if (digits18.charCodeAt(PRECISION) === 53 /* 5 */ && isTie(x, exp18) && (digits18.charCodeAt(PRECISION - 1) & 1) === 0) {
    return sign + formatG(digits18.slice(0, PRECISION), exp18);
  }
  return sign + formatG(digits, exp);
}

/**
 * The shortest text of `x` when it is x's exact value, in %g's fixed range, with at most 15
 * significant digits (1.5, 0.375, 12.25): %.17g prints that value as it is, and it costs a
 * shortest conversion rather than two fixed-precision ones (a microsecond each). A double is
 * m * 2^k with m odd, its exact decimal has -k fractional digits, so the shortest text is exact
 * when it has at least as many; with 15 digits or fewer no other decimal of its length rounds
 * to the same double, so the shortest is that exact text. Null otherwise.
 */
function exactShortest(x: number): string | null {
  if (x < 1e-4 || x >= 1e15) return null;
  const text = String(x);
  const point = text.indexOf('.');
  if (point === -1) return null;
  let leadingZeros = 0; // of a fraction: "0.00" before its first significant digit
  if (x < 1) for (let i = point + 1; text.charCodeAt(i) === 48; i++) leadingZeros++;
  const significant = text.length - 1 - (x < 1 ? 1 + leadingZeros : 0);
  const fractional = text.length - point - 1;
  return significant <= 15 && -lowestBit(x) <= fractional ? text : null;
}

/** k of x = m * 2^k with m odd (x finite, non-zero). */
function lowestBit(x: number): number {
  bits[0] = x;
  const lo = words[0];
  const hi = words[1];
  const biased = (hi >>> 20) & 0x7ff;
  const mantHi = (hi & 0xfffff) | (biased === 0 ? 0 : 0x100000);
  return (biased === 0 ? -1074 : biased - 1075) + (lo !== 0 ? trailingZeros(lo) : 32 + trailingZeros(mantHi));
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

function trailingZeros(v: number): number {
  return 31 - Math.clz32(v & -v);
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

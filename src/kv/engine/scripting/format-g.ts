// C's "%.<digits>g" for doubles as glibc prints it: an exact tie rounds to even, and "inf",
// "nan" and "-nan" (a NaN keeps its sign). Redis's Lua prints numbers with 14 digits (tostring
// and concatenation: lua.ts), lua-cjson with 14, redis.call arguments with 17 (Redis 7.0), and
// sorted-set scores with 17 (commands/reply-double.ts).
//
// JS gives the correctly rounded significant digits (toExponential) but settles a tie upwards.
// A double is m * 2^k with m odd; when k < 0 its decimal expansion ends in a 5 exactly -k
// places after the point, so it is a tie at p digits only when that expansion has exactly p + 1
// significant digits; an integer is one only when its (p + 1)th digit is a 5 and the rest
// zeros. Only those are worked out again and rounded to even: 2^-25 prints
// "2.9802322387695312e-08" at 17 digits, 12345678901234.5 "12345678901234" at 14.

export function formatG(n: number, digits: number): string {
  if (Number.isNaN(n)) return signBit(n) ? '-nan' : 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const x = Math.abs(n);
  const text = exactShortest(x, digits) ?? roundedG(x, digits);
  return n < 0 ? '-' + text : text;
}

/** %.<digits>g of `x` (positive and finite) the long way: rounded to `digits`, an exact tie to even. */
export function roundedG(x: number, digits: number): string {
  const [rounded, exp] = significantDigits(x, digits);
  return layout(rounded, exp, digits);
}

/** `x` (positive and finite) rounded to `digits` significant digits, an exact tie to even: the digits and the decimal exponent. */
export function significantDigits(x: number, digits: number): [string, number] {
  const [rounded, exp] = splitExponential(x.toExponential(digits - 1));
  // One more digit is worked out only where a tie may be: x's exponent is this one, or one
  // less where rounding carried into a new power of ten.
  if (mayTie(x, exp, digits) || mayTie(x, exp - 1, digits)) {
    const [longer, exp1] = splitExponential(x.toExponential(digits));
    if (isTie(x, longer, exp1, digits) && (longer.charCodeAt(digits - 1) & 1) === 0) return [longer.slice(0, digits), exp1];
  }
  return [rounded, exp];
}

/**
 * C's "%.<places>f" of `x` (positive and finite): an exact tie rounds to even, where JS's
 * toFixed rounds it up. x is a tie only when its exact expansion ends in a 5 one place further.
 */
export function fixedText(x: number, places: number): string {
  if (x >= 1e21) return BigInt(x).toString() + (places > 0 ? '.' + '0'.repeat(places) : '');
  if (-lowestBit(x) === places + 1) {
    const longer = x.toFixed(places + 1);
    const kept = longer.slice(0, places === 0 ? -2 : -1);
    if ((kept.charCodeAt(kept.length - 1) & 1) === 0) return kept;
  }
  return x.toFixed(places);
}

/** Whether x, of decimal exponent exp10, can lie halfway between two `digits`-digit values. */
function mayTie(x: number, exp10: number, digits: number): boolean {
  const k = lowestBit(x);
  return k < 0 ? exp10 + 1 - k === digits + 1 : exp10 >= digits;
}

/** Whether x is exactly `longer` (its digits + 1 significant digits, times 10^exp) and that ends in a 5. */
function isTie(x: number, longer: string, exp: number, digits: number): boolean {
  if (longer.charCodeAt(digits) !== 53 /* 5 */) return false;
  const k = lowestBit(x);
  if (k < 0) return exp + 1 - k === digits + 1;
  return exp >= digits && BigInt(x) === BigInt(longer) * 10n ** BigInt(exp - digits);
}

/** "d.ddde+x" as its digits without the point, and the decimal exponent. */
function splitExponential(s: string): [string, number] {
  const e = s.indexOf('e');
  return [s[0] + s.slice(2, e), Number(s.slice(e + 1))];
}

/** printf's %g layout of the significant digits `digits` times 10^exp, trailing zeros removed. */
function layout(digits: string, exp: number, precision: number): string {
  if (exp < -4 || exp >= precision) {
    const rest = digits.slice(1).replace(/0+$/, '');
    const e = Math.abs(exp);
    return `${digits[0]}${rest === '' ? '' : '.' + rest}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return ('0.' + '0'.repeat(-exp - 1) + digits).replace(/0+$/, '');
  const int = digits.slice(0, exp + 1);
  const frac = digits.slice(exp + 1).replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/**
 * What %.<digits>g prints for `x` (positive, finite) when that is x's shortest text, else null:
 * a safe integer of at most `digits` digits, or a fraction in %g's fixed range whose shortest
 * text is its exact value with at most 15 digits (1.5, 0.375, 12.25). Either prints as it is,
 * for the price of a shortest conversion rather than fixed-precision ones (a microsecond each).
 * A double is m * 2^k with m odd, its exact decimal has -k fractional digits, so the shortest
 * text is exact when it has at least as many; with 15 digits or fewer no other decimal of its
 * length rounds to the same double, so the shortest is that exact text.
 */
export function exactShortest(x: number, digits: number): string | null {
  const most = Math.min(15, digits);
  if (Number.isSafeInteger(x)) return x < 10 ** digits ? String(x) : null;
  if (x < 1e-4 || x >= 10 ** most) return null;
  const text = String(x);
  const point = text.indexOf('.');
  if (point === -1) return null;
  let leadingZeros = 0; // of a fraction: "0.00" before its first significant digit
  if (x < 1) for (let i = point + 1; text.charCodeAt(i) === 48; i++) leadingZeros++;
  const significant = text.length - 1 - (x < 1 ? 1 + leadingZeros : 0);
  const fractional = text.length - point - 1;
  return significant <= most && -lowestBit(x) <= fractional ? text : null;
}

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer); // little endian: words[0] low, words[1] high

function signBit(x: number): boolean {
  bits[0] = x;
  return words[1] >>> 31 === 1;
}

/** k of x = m * 2^k with m odd (x finite, non-zero). */
export function lowestBit(x: number): number {
  bits[0] = x;
  const lo = words[0];
  const hi = words[1];
  const biased = (hi >>> 20) & 0x7ff;
  const mantHi = (hi & 0xfffff) | (biased === 0 ? 0 : 0x100000);
  return (biased === 0 ? -1074 : biased - 1075) + (lo !== 0 ? trailingZeros(lo) : 32 + trailingZeros(mantHi));
}

function trailingZeros(v: number): number {
  return 31 - Math.clz32(v & -v);
}

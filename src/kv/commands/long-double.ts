// INCRBYFLOAT (and later HINCRBYFLOAT) compute in C's long double, the x87 80-bit format
// (64-bit significand, exponents -16382..16383), read with strtold and print with "%.17Lf"
// minus trailing zeros. A JS double cannot give the same replies: Redis answers 0.1 + 0.2
// with "0.3" and 12345.678 + 0 with "12345.67799999999999994". So these commands do their
// arithmetic here, exactly, with bigints; every other float goes through args.ts.

/** A long double: (-1)^neg × sig × 2^exp with sig < 2^64 (0 for zero), or an infinity. */
export interface LongDouble {
  readonly neg: boolean;
  readonly sig: bigint;
  /** Infinity for an infinity. */
  readonly exp: number;
}

const PRECISION = 64;
const MAX_EXP = 16383; //           exponent of the leading bit of the largest finite value
const MIN_QUANTUM = -16445; //      exponent of the last bit of the smallest subnormal
const MAX_TEXT = 5 * 1024; //       Redis's MAX_LONG_DOUBLE_CHARS: longer input is refused
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;

// 10^0 .. 10^63, built once: the powers plain decimal text needs.
const POWERS_OF_TEN = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
const tenTo = (n: number): bigint => POWERS_OF_TEN[n] ?? 10n ** BigInt(n);

export const LONG_DOUBLE_ZERO: LongDouble = { neg: false, sig: 0n, exp: 0 };

/**
 * Redis's string2ld: the whole text as strtold reads it (decimal, hex or inf; no spaces, no
 * NaN). Overflow, and underflow to zero, are refused as Redis refuses them (ERANGE).
 */
export function parseLongDouble(s: string): LongDouble | undefined {
  if (s.length === 0 || s.length >= MAX_TEXT) return undefined;
  let m = DECIMAL.exec(s);
  if (m !== null) return parseDecimal(m[1] === '-', m[2], m[3] ?? '', m[4]);
  m = HEX.exec(s);
  if (m !== null) return parseHex(m[1] === '-', m[2], m[3] ?? '', m[4]);
  m = INFINITY.exec(s);
  return m === null ? undefined : { neg: m[1] === '-', sig: 0n, exp: Infinity };
}

function parseDecimal(neg: boolean, int: string, frac: string, expText: string | undefined): LongDouble | undefined {
  if (int.length === 0 && frac.length === 0) return undefined;
  const digits = (int + frac).replace(/^0+/, '');
  if (digits.length === 0) return { ...LONG_DOUBLE_ZERO, neg };
  const exp10 = (expText === undefined ? 0 : Number(expText)) - frac.length;
  // The value lies in [10^(magnitude-1), 10^magnitude): decide the hopeless cases before
  // building bigints that could be astronomically large.
  const magnitude = digits.length + exp10;
  if (magnitude > 4933 || magnitude <= -4951) return undefined;
  const d = BigInt(digits);
  const x = exp10 >= 0 ? round(neg, d * tenTo(exp10), 1n, 0) : round(neg, d, tenTo(-exp10), 0);
  return x.sig === 0n || x.exp === Infinity ? undefined : x;
}

function parseHex(neg: boolean, int: string, frac: string, expText: string | undefined): LongDouble | undefined {
  if (int.length === 0 && frac.length === 0) return undefined;
  const digits = (int + frac).replace(/^0+/, '');
  if (digits.length === 0) return { ...LONG_DOUBLE_ZERO, neg };
  const exp2 = (expText === undefined ? 0 : Number(expText)) - 4 * frac.length;
  // The value lies in [2^(top-4), 2^top).
  const top = exp2 + 4 * digits.length;
  if (top - 4 > MAX_EXP || top < MIN_QUANTUM - 1) return undefined;
  const x = round(neg, BigInt('0x' + digits), 1n, exp2);
  return x.sig === 0n || x.exp === Infinity ? undefined : x;
}

/** a + b, rounded to the nearest long double; undefined for NaN or an infinity, as Redis refuses both. */
export function addLongDouble(a: LongDouble, b: LongDouble): LongDouble | undefined {
  if (a.exp === Infinity || b.exp === Infinity) return undefined;
  const exp = Math.min(a.exp, b.exp);
  const x = signed(a) << BigInt(a.exp - exp);
  const y = signed(b) << BigInt(b.exp - exp);
  const sum = x + y;
  // IEEE: an exact zero sum is +0, except (-0) + (-0).
  if (sum === 0n) return { ...LONG_DOUBLE_ZERO, neg: a.neg && b.neg && a.sig === 0n && b.sig === 0n };
  const r = round(sum < 0n, sum < 0n ? -sum : sum, 1n, exp);
  return r.exp === Infinity ? undefined : r;
}

function signed(x: LongDouble): bigint {
  return x.neg ? -x.sig : x.sig;
}

/** C's printf("%.17Lf") with trailing zeros (and a lone '.') cut, and "-0" printed as "0". */
export function formatLongDouble(x: LongDouble): string {
  let text: string;
  if (x.exp >= 0) {
    text = (x.sig << BigInt(x.exp)).toString();
  } else {
    const digits = roundShift(x.sig * tenTo(17), BigInt(-x.exp), false).toString().padStart(18, '0');
    const frac = digits.slice(-17).replace(/0+$/, '');
    text = digits.slice(0, -17) + (frac.length > 0 ? '.' + frac : '');
  }
  return x.neg && text !== '0' ? '-' + text : text;
}

/** n / d × 2^exp2 (n > 0) rounded to nearest-even in long double precision; may be 0 or Infinity. */
function round(neg: boolean, n: bigint, d: bigint, exp2: number): LongDouble {
  // Scale so the quotient has PRECISION + 2 or + 3 bits: enough for a guard bit, plus a sticky flag.
  const shift = PRECISION + 2 - (bitLength(n) - bitLength(d));
  const num = shift >= 0 ? n << BigInt(shift) : n;
  const den = shift >= 0 ? d : d << BigInt(-shift);
  const q = num / den;
  const sticky = num % den !== 0n;
  const unit = exp2 - shift; //                 exponent of q's last bit
  const lead = bitLength(q) - 1 + unit;
  let quantum = Math.max(lead - (PRECISION - 1), MIN_QUANTUM);
  let sig = roundShift(q, BigInt(quantum - unit), sticky);
  if (sig === 1n << BigInt(PRECISION)) {
    sig >>= 1n;
    quantum++;
  }
  if (sig === 0n) return { neg, sig, exp: 0 };
  if (bitLength(sig) - 1 + quantum > MAX_EXP) return { neg, sig: 0n, exp: Infinity };
  return { neg, sig, exp: quantum };
}

/** q / 2^k (k > 0) rounded to nearest, ties to even; `sticky` says q was already rounded down from more. */
function roundShift(q: bigint, k: bigint, sticky: boolean): bigint {
  const kept = q >> k;
  const rest = q - (kept << k);
  const half = 1n << (k - 1n);
  const up = rest > half || (rest === half && (sticky || (kept & 1n) === 1n));
  return up ? kept + 1n : kept;
}

function bitLength(n: bigint): number {
  if (n === 0n) return 0;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex[0], 16));
}

// C's strtod and strtoul as glibc reads numbers in the C locale. Redis reads scores and score
// ranges with strtod, Lua 5.1 its numerals and number strings and lua-cjson its JSON numbers,
// each taking what it needs of the result; Lua 5.1's tonumber(s, base) reads with strtoul.

/** What C's strtod read from a string. */
export interface Strtod {
  readonly value: number;
  /** Index just past the number; `from` when nothing was read (C's endptr = nptr). */
  readonly end: number;
  /** ERANGE for an overflow to infinity or an underflow to zero (glibc also flags inexact
   *  subnormals, which no caller distinguishes). */
  readonly erange: boolean;
}

// Leading C-locale spaces, a sign, then inf[inity], nan[(chars)], a hex float (0x with at least
// one hex digit) or a decimal with at least one digit; an exponent only counts with digits.
const STRTOD =
  /[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|(nan(?:\([0-9A-Za-z_]*\))?)|0[xX](?=\.?[0-9a-fA-F])([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?|(\d*(?:\.\d*)?)(?:[eE]([+-]?\d+))?)/iy;

/**
 * C's strtod (glibc, C locale) from `from`: the longest prefix that reads as a double,
 * correctly rounded, hex floats included. Redis parses sorted-set scores and score ranges
 * with it, and some callers accept what follows the number (a NUL), so the end is returned.
 */
export function strtod(s: string, from = 0): Strtod {
  STRTOD.lastIndex = from;
  const m = STRTOD.exec(s);
  // The decimal branch may match nothing at all ("", ".", "x"): no conversion.
  if (m === null || (m[7] !== undefined && !/\d/.test(m[7]))) return { value: 0, end: from, erange: false };
  const neg = m[1] === '-';
  const end = STRTOD.lastIndex;
  if (m[2] !== undefined) return { value: neg ? -Infinity : Infinity, end, erange: false };
  if (m[3] !== undefined) return { value: NaN, end, erange: false };
  if (m[7] !== undefined) {
    const value = Number(m[1] + m[7] + (m[8] === undefined ? '' : 'e' + m[8]));
    const erange = !Number.isFinite(value) || (value === 0 && /[1-9]/.test(m[7]));
    return { value, end, erange };
  }
  return { ...hexFloat(neg, m[4], m[5] ?? '', m[6]), end };
}

/** A hex float's value, rounded to nearest even as glibc does, subnormals included. */
function hexFloat(neg: boolean, int: string, frac: string, expText: string | undefined): { value: number; erange: boolean } {
  const sign = neg ? -1 : 1;
  const digits = (int + frac).replace(/^0+/, '');
  if (digits.length === 0) return { value: sign * 0, erange: false };
  let e2 = (expText === undefined ? 0 : Number(expText)) - 4 * frac.length;
  let m = BigInt('0x' + digits);
  const top = e2 + m.toString(2).length - 1; // exponent of the leading bit
  if (top > 1023) return { value: sign * Infinity, erange: true };
  if (top < -1076) return { value: sign * 0, erange: true };
  const quantum = Math.max(top - 52, -1074); // exponent of the last bit a double keeps
  if (e2 < quantum) {
    const shift = BigInt(quantum - e2);
    const rest = m & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    m >>= shift;
    if (rest > half || (rest === half && (m & 1n) === 1n)) m += 1n;
    e2 = quantum;
  }
  const value = sign * Number(m) * 2 ** e2;
  return { value, erange: m === 0n || !Number.isFinite(value) };
}

/** C's isspace in the C locale. */
export function isCSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Whether s holds only C spaces from `from` on: what C's readers of a whole number accept after it. */
export function onlySpacesFrom(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) if (!isCSpace(s.charCodeAt(i))) return false;
  return true;
}

const MAX_UNSIGNED_LONG = (1n << 64n) - 1n;

/**
 * C's strtoul (glibc, 64-bit unsigned long) in `base` (2 to 36) from `from`: leading spaces, a
 * sign (a '-' negates modulo 2^64), "0x" before base 16 digits, then the digits; past 2^64 - 1
 * it is 2^64 - 1. The end is `from` when no digit was read.
 */
export function strtoul(s: string, base: number, from = 0): { value: bigint; end: number } {
  let i = from;
  while (i < s.length && isCSpace(s.charCodeAt(i))) i++;
  const negative = s[i] === '-';
  if (negative || s[i] === '+') i++;
  if (base === 16 && s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X') && digitValue(s, i + 2) < 16) i += 2;
  const start = i;
  let value = 0n;
  for (; digitValue(s, i) < base; i++) value = value * BigInt(base) + BigInt(digitValue(s, i));
  if (i === start) return { value: 0n, end: from };
  if (value > MAX_UNSIGNED_LONG) return { value: MAX_UNSIGNED_LONG, end: i };
  return { value: negative ? BigInt.asUintN(64, -value) : value, end: i };
}

/** The digit at i in any base up to 36 (letters either case); 99 for none. */
function digitValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const letter = c | 0x20;
  return letter >= 0x61 && letter <= 0x7a ? letter - 0x61 + 10 : 99;
}

// string.format as Redis's Lua 5.1 has it (lstrlib.c str_format over glibc's sprintf), in place
// of fengari's 5.3 one, which formats numbers with a JS sprintf: "%e" of 12345.678 was
// "1.2345678e+4" (C: "1.234568e+04"), "%d" refused 3.5 (5.1 truncates it to 3), and "%s" took a
// boolean (5.1 wants a string or a number). Conversions c d i o u x X e E f g G q s; flags
// "-+ #0", a width and a precision of at most two digits each, as 5.1 allows.

import type { LuaState } from 'fengari';
import { fixedText, formatG, significantDigits } from './format-g.js';
import { pushBytes, raiseError, toBytes } from './lua-bytes.js';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

const FLAGS = '-+ #0';
/** A conversion's flags, width and precision, read where it starts. */
const SPEC = /([-+ #0]*)(\d{0,2})(?:\.(\d{0,2}))?/y;

interface Spec {
  readonly flags: string;
  readonly width: number;
  /** -1 when none is given. */
  readonly precision: number;
}

export function stringFormat(L: LuaState): number {
  const top = lua.lua_gettop(L);
  lauxlib.luaL_checklstring(L, 1);
  const fmt = toBytes(L, 1)!;
  let arg = 1;
  let out = '';
  for (let i = 0; i < fmt.length; ) {
    const c = fmt[i++];
    if (c !== '%') out += c;
    else if (fmt[i] === '%') {
      out += '%';
      i++;
    } else {
      if (++arg > top) lauxlib.luaL_argerror(L, arg, 'no value');
      SPEC.lastIndex = i;
      const m = SPEC.exec(fmt)!;
      if (m[1].length > FLAGS.length) raiseError(L, 'invalid format (repeated flags)');
      i += m[0].length;
      if (/\d/.test(fmt[i] ?? '')) raiseError(L, 'invalid format (width or precision too long)');
      const spec: Spec = { flags: m[1], width: Number(m[2] || 0), precision: m[3] === undefined ? -1 : Number(m[3] || 0) };
      out += convert(L, fmt[i++] ?? '', arg, spec);
    }
  }
  pushBytes(L, out);
  return 1;
}

function convert(L: LuaState, conversion: string, arg: number, spec: Spec): string {
  switch (conversion) {
    case 'c': {
      // 5.1 takes what sprintf wrote up to its first NUL: a NUL character leaves its padding only.
      const n = lauxlib.luaL_checknumber(L, arg);
      const char = Math.abs(n) < 2 ** 31 ? Math.trunc(n) & 0xff : 0; // (int), INT_MIN where it does not fit
      return pad(String.fromCharCode(char), spec).split('\0', 1)[0];
    }
    case 'd':
    case 'i':
      return integer(toLongLong(lauxlib.luaL_checknumber(L, arg)), 10, spec, '');
    case 'o':
    case 'u':
    case 'x':
    case 'X': {
      const n = toUnsignedLongLong(lauxlib.luaL_checknumber(L, arg));
      const radix = conversion === 'o' ? 8 : conversion === 'u' ? 10 : 16;
      const prefix = !spec.flags.includes('#') || n === 0n ? '' : conversion === 'x' ? '0x' : conversion === 'X' ? '0X' : '';
      // Unsigned: no sign, so '+' and ' ' do nothing.
      const text = integer(n, radix, { ...spec, flags: spec.flags.replace(/[+ ]/g, '') }, prefix);
      return conversion === 'X' ? text.toUpperCase() : text;
    }
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G': {
      const text = float(lauxlib.luaL_checknumber(L, arg), conversion.toLowerCase(), spec);
      return conversion === 'E' || conversion === 'G' ? text.toUpperCase() : text;
    }
    case 'q':
      lauxlib.luaL_checklstring(L, arg);
      return quoted(toBytes(L, arg)!);
    case 's': {
      lauxlib.luaL_checklstring(L, arg);
      const s = toBytes(L, arg)!;
      // A long string without a precision goes in whole; otherwise as C sees it, up to a NUL.
      if (spec.precision === -1 && s.length >= 100) return s;
      const text = s.split('\0', 1)[0];
      return pad(spec.precision === -1 ? text : text.slice(0, spec.precision), spec);
    }
    default:
      return raiseError(L, `invalid option '%${conversion}' to 'format'`);
  }
}

/** C's (long long) of a double: truncated, and LLONG_MIN where it does not fit (x86-64). */
function toLongLong(n: number): bigint {
  return Number.isFinite(n) && Math.abs(n) < 2 ** 63 ? BigInt(Math.trunc(n)) : -(2n ** 63n);
}

/**
 * C's (unsigned long long) of a double as gcc does it on x86-64: below 2^63 through the signed
 * conversion (a negative one wraps), from 2^63 by subtracting it first; past 2^64, an infinity
 * or a NaN gives 0.
 */
function toUnsignedLongLong(n: number): bigint {
  if (n < 2 ** 63) return BigInt.asUintN(64, toLongLong(n));
  return n < 2 ** 64 ? BigInt(n) : 0n;
}

/** An integer conversion: the precision is the fewest digits (0 of zero prints nothing). */
function integer(n: bigint, radix: number, spec: Spec, prefix: string): string {
  let digits = (n < 0n ? -n : n).toString(radix);
  if (spec.precision === 0 && n === 0n) digits = '';
  else if (spec.precision > digits.length) digits = digits.padStart(spec.precision, '0');
  if (radix === 8 && spec.flags.includes('#') && !digits.startsWith('0')) digits = '0' + digits;
  return signed(n < 0n, prefix + digits, spec, spec.precision === -1);
}

/** e, f or g of a double, precision 6 unless given. */
function float(n: number, conversion: string, spec: Spec): string {
  const negative = n < 0 || Object.is(n, -0) || (Number.isNaN(n) && formatG(n, 1) === '-nan');
  const x = Math.abs(n);
  if (!Number.isFinite(x)) return signed(negative, Number.isNaN(x) ? 'nan' : 'inf', spec, false);
  const p = spec.precision === -1 ? 6 : spec.precision;
  const alt = spec.flags.includes('#');
  let body: string;
  if (conversion === 'f') body = withPoint(fixedText(x, p), alt);
  else if (conversion === 'e') body = exponential(x, p, alt);
  else {
    // %g: the style %e would take, by the exponent x has at the precision; trailing zeros go unless '#'.
    const g = p === 0 ? 1 : p;
    const exp = x === 0 ? 0 : significantDigits(x, g)[1];
    body = exp < -4 || exp >= g ? exponential(x, g - 1, alt) : withPoint(fixedText(x, g - 1 - exp), alt);
    if (!alt) {
      const e = body.indexOf('e');
      const mantissa = e === -1 ? body : body.slice(0, e);
      if (mantissa.includes('.')) body = mantissa.replace(/\.?0+$/, '') + (e === -1 ? '' : body.slice(e));
    }
  }
  return signed(negative, body, spec, true);
}

/** d.ddde+XX with `places` digits after the point. */
function exponential(x: number, places: number, alt: boolean): string {
  const [digits, exp] = x === 0 ? ['0'.repeat(places + 1), 0] : significantDigits(x, places + 1);
  const mantissa = withPoint(digits[0] + (places > 0 ? '.' + digits.slice(1) : ''), alt);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** The '#' flag keeps a point even with no digits after it. */
function withPoint(text: string, alt: boolean): string {
  return alt && !text.includes('.') ? text + '.' : text;
}

/** A number's text with its sign ('+' and ' ' flags), padded to the width: zeros after the sign with '0', unless '-'. */
function signed(negative: boolean, body: string, spec: Spec, zeroPads: boolean): string {
  const sign = negative ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  if (zeroPads && spec.flags.includes('0') && !spec.flags.includes('-')) {
    const prefix = /^0[xX]/.test(body) ? body.slice(0, 2) : '';
    return sign + prefix + body.slice(prefix.length).padStart(spec.width - sign.length - prefix.length, '0');
  }
  return pad(sign + body, spec);
}

function pad(text: string, spec: Spec): string {
  return spec.flags.includes('-') ? text.padEnd(spec.width) : text.padStart(spec.width);
}

/** %q: quoted so that Lua reads it back; a newline is escaped as a backslash and the newline itself. */
function quoted(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c === '"' || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\0') out += '\\000';
    else out += c;
  }
  return out + '"';
}

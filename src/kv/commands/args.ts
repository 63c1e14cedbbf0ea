// Argument parsing shared by every command family: the one integer parser and the one float
// parser of kv/, and a reader that keeps the first error so a handler checks once.

import { NOT_FLOAT, NOT_INTEGER, SYNTAX, type ReplyError } from '../errors.js';
import type { Args } from './spec.js';

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/** Redis's string2ll as a bigint: optional '-', digits, no '+', spaces or leading zeros. */
export function parseInt64(s: string): bigint | undefined {
  if (!isIntegerText(s)) return undefined;
  const n = BigInt(s);
  return n > INT64_MAX || n < INT64_MIN ? undefined : n;
}

/**
 * Redis's string2ll as a number. Integers past 2^53 come back rounded, which keeps their
 * magnitude for the range checks the callers make.
 */
export function parseInteger(s: string): number | undefined {
  if (s.length < 16) return isIntegerText(s) ? Number(s) : undefined;
  const n = parseInt64(s);
  return n === undefined ? undefined : Number(n);
}

/** Redis's string2ll, exact: a number while it is a safe integer, a bigint beyond. */
export function parseExactInteger(s: string): number | bigint | undefined {
  const n = parseInteger(s);
  return n === undefined || Number.isSafeInteger(n) ? n : parseInt64(s);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** a + b as Redis's 64-bit counters add: a number while exact, a bigint beyond, undefined past int64. */
export function addInt64(a: number | bigint, b: number | bigint): number | bigint | undefined {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a + b)) return a + b;
  const exact = BigInt(a) + BigInt(b);
  if (exact > INT64_MAX || exact < INT64_MIN) return undefined;
  return exact <= MAX_SAFE && exact >= -MAX_SAFE ? Number(exact) : exact;
}

function isIntegerText(s: string): boolean {
  const len = s.length;
  if (len === 0 || len > 20) return false;
  let i = s.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (i === len) return false;
  if (s.charCodeAt(i) === 48 /* 0 */) return len === i + 1 && i === 0;
  for (; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INF_TEXT = /^[+-]?inf(?:inity)?$/i;

/** Redis's strtold rules: decimal or exponent notation, or inf; never NaN or spaces. */
export function parseFloatText(s: string): number | undefined {
  if (FLOAT_TEXT.test(s)) return Number(s);
  if (INF_TEXT.test(s)) return s.charCodeAt(0) === 45 ? -Infinity : Infinity;
  return undefined;
}

/** Formats a double as Redis's human form: no exponent, shortest digits that read back. */
export function formatFloat(n: number): string {
  const s = String(n);
  if (!s.includes('e')) return s;
  if (Math.abs(n) >= 1) return BigInt(n).toString();
  return n.toFixed(17).replace(/\.?0+$/, '');
}

/**
 * Reads argv left to right. The first problem sticks and later reads return harmless
 * defaults, so a handler reads everything and checks `error` once.
 */
export class ArgReader {
  error: ReplyError | null = null;
  constructor(
    private readonly argv: Args,
    public at = 1,
  ) {}

  get done(): boolean {
    return this.at >= this.argv.length;
  }

  get remaining(): number {
    return this.argv.length - this.at;
  }

  fail(e: ReplyError): void {
    this.error ??= e;
  }

  /** The next argument as is; a syntax error when none is left. */
  next(): string {
    if (this.at >= this.argv.length) {
      this.fail(SYNTAX);
      return '';
    }
    return this.argv[this.at++];
  }

  int(onError: ReplyError = NOT_INTEGER): number {
    const n = parseInteger(this.next());
    if (n === undefined) this.fail(onError);
    return n ?? 0;
  }

  float(onError: ReplyError = NOT_FLOAT): number {
    const n = parseFloatText(this.next());
    if (n === undefined) this.fail(onError);
    return n ?? 0;
  }

  /** Consumes the next argument if it is one of `words` (lower case, matched in any case). */
  word<W extends string>(...words: W[]): W | undefined {
    if (this.at >= this.argv.length) return undefined;
    const w = this.argv[this.at].toLowerCase() as W;
    if (!words.includes(w)) return undefined;
    this.at++;
    return w;
  }
}

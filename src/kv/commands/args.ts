// Argument parsing shared by every command family: the one integer parser and the one float
// parser of kv/, and a reader that keeps the first error so a handler checks once.

import { isCSpace, strtod } from '../../text/strtod.js';
import { NOT_FLOAT, NOT_INTEGER, OVERFLOW, SYNTAX, TIMEOUT_NEGATIVE, TIMEOUT_NOT_INTEGER, type ReplyError } from '../errors.js';
import { INT64_MAX, INT64_MIN, isIntegerText, parseInt64 } from '../engine/int64.js';
import type { Args } from './spec.js';

export { INT64_MAX, INT64_MIN, parseInt64 };

/**
 * Redis's string2ll as a number. Integers past 2^53 come back rounded, which keeps their
 * magnitude for the range checks the callers make.
 */
export function parseInteger(s: string): number | undefined {
  if (s.length < 16) return isIntegerText(s) ? Number(s) : undefined;
  const n = parseInt64(s);
  return n === undefined ? undefined : Number(n);
}

/** A timeout in milliseconds, as Redis's getTimeoutFromObjectOrReply reads one (XREAD BLOCK, WAIT). */
export function parseTimeoutMs(s: string): number | ReplyError {
  const n = parseInteger(s);
  if (n === undefined) return TIMEOUT_NOT_INTEGER;
  return n < 0 ? TIMEOUT_NEGATIVE : n;
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

/**
 * What INCRBY and HINCRBY store: the integer `text` holds (0 when there is none) plus `by`;
 * `notInteger` when the text is no integer, the overflow error past int64.
 */
export function incrementText(text: string | undefined, by: number | bigint, notInteger: ReplyError): number | bigint | ReplyError {
  const current = text === undefined ? 0 : parseExactInteger(text);
  if (current === undefined) return notInteger;
  return addInt64(current, by) ?? OVERFLOW;
}

/**
 * Redis's string2d: the whole text as strtod reads it (decimal, hex or inf), no leading
 * space, no NaN, and neither overflow nor underflow to zero.
 */
export function parseFloatText(s: string): number | undefined {
  if (s.length === 0 || isCSpace(s.charCodeAt(0))) return undefined;
  const r = strtod(s);
  return r.end !== s.length || r.erange || Number.isNaN(r.value) ? undefined : r.value;
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

  /** Consumes option words (lower case, any case, any order, repeats allowed) while they come: ZADD's NX XX CH. */
  flags<W extends string>(...words: W[]): Set<W> {
    const seen = new Set<W>();
    for (let w = this.word(...words); w !== undefined; w = this.word(...words)) seen.add(w);
    return seen;
  }
}

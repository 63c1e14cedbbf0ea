// The interval arguments of the sorted-set commands, read exactly as Redis reads them
// (t_zset.c zslParseRange and zslParseLexRangeItem).

import { strtod } from '../../../text/strtod.js';
import { LEX_MAX, LEX_MIN, type LexBound, type LexRange, type ScoreRange } from '../../engine/zset/range.js';

/**
 * "1.5", "(1.5" (exclusive), "-inf", "+inf". Redis hands the text to strtod and only checks
 * that it stopped at the end of the C string and did not read NaN, so leading spaces, an
 * empty bound (0), hex floats and text after a NUL byte all pass; overflow reads as inf.
 */
export function parseScoreRange(min: string, max: string): ScoreRange | undefined {
  const lo = scoreBound(min);
  const hi = scoreBound(max);
  if (lo === undefined || hi === undefined) return undefined;
  return { min: lo.value, max: hi.value, minex: lo.exclusive, maxex: hi.exclusive };
}

function scoreBound(text: string): { value: number; exclusive: boolean } | undefined {
  const exclusive = text.charCodeAt(0) === 40; /* ( */
  const { value, end } = strtod(text, exclusive ? 1 : 0);
  if ((end !== text.length && text.charCodeAt(end) !== 0) || Number.isNaN(value)) return undefined;
  return { value, exclusive };
}

/** "[a" (inclusive), "(a" (exclusive), "-" and "+" (a NUL may follow them, C strings end there). */
export function parseLexRange(min: string, max: string): LexRange | undefined {
  const lo = lexBound(min);
  const hi = lexBound(max);
  if (lo === undefined || hi === undefined) return undefined;
  return { min: lo.bound, max: hi.bound, minex: lo.exclusive, maxex: hi.exclusive };
}

function lexBound(text: string): { bound: LexBound; exclusive: boolean } | undefined {
  const alone = text.length === 1 || text.charCodeAt(1) === 0;
  switch (text[0]) {
    case '+':
      return alone ? { bound: LEX_MAX, exclusive: true } : undefined;
    case '-':
      return alone ? { bound: LEX_MIN, exclusive: true } : undefined;
    case '(':
      return { bound: text.slice(1), exclusive: true };
    case '[':
      return { bound: text.slice(1), exclusive: false };
    default:
      return undefined;
  }
}

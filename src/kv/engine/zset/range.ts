// Score and lexicographic intervals of a sorted set (Redis zrangespec and zlexrangespec), with
// the bound tests the sorted-set value and the commands share. Members compare as byte strings
// (memcmp, then the shorter first), which is JS string order for latin1 byte strings.

export interface ScoreRange {
  readonly min: number;
  readonly max: number;
  /** Exclusive bounds, written "(1.5". */
  readonly minex: boolean;
  readonly maxex: boolean;
}

/** "-" and "+" of a lex range: below and above every member. */
export const LEX_MIN: unique symbol = Symbol('-');
export const LEX_MAX: unique symbol = Symbol('+');
export type LexBound = string | typeof LEX_MIN | typeof LEX_MAX;

export interface LexRange {
  readonly min: LexBound;
  readonly max: LexBound;
  readonly minex: boolean;
  readonly maxex: boolean;
}

export function scoreGteMin(score: number, r: ScoreRange): boolean {
  return r.minex ? score > r.min : score >= r.min;
}

export function scoreLteMax(score: number, r: ScoreRange): boolean {
  return r.maxex ? score < r.max : score <= r.max;
}

/** A range no score can fall in: min above max, or equal with an exclusive end. */
export function emptyScoreRange(r: ScoreRange): boolean {
  return r.min > r.max || (r.min === r.max && (r.minex || r.maxex));
}

/** Redis's sdscmplex: the two infinities compare equal to themselves only. */
export function compareLex(a: LexBound, b: LexBound): number {
  if (a === b) return 0;
  if (a === LEX_MIN || b === LEX_MAX) return -1;
  if (a === LEX_MAX || b === LEX_MIN) return 1;
  return a < b ? -1 : 1;
}

export function lexGteMin(member: string, r: LexRange): boolean {
  const c = compareLex(member, r.min);
  return r.minex ? c > 0 : c >= 0;
}

export function lexLteMax(member: string, r: LexRange): boolean {
  const c = compareLex(member, r.max);
  return r.maxex ? c < 0 : c <= 0;
}

export function emptyLexRange(r: LexRange): boolean {
  const c = compareLex(r.min, r.max);
  return c > 0 || (c === 0 && (r.minex || r.maxex));
}

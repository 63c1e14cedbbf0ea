// The expiry options of SET and GETEX (Redis's parseExtendedStringArgumentsOrReply and
// getExpireMillisecondsOrReply): one grammar and one set of errors for every command that
// takes them. Reading and checking are two steps because Redis checks the time later than the
// grammar (GETEX only after finding the key).

import { invalidExpireTime, NOT_INTEGER, SYNTAX, type ReplyError } from '../errors.js';
import { INT64_MAX, parseInt64, parseInteger, type ArgReader } from './args.js';

export type ExpiryWord = 'ex' | 'px' | 'exat' | 'pxat' | 'keepttl' | 'persist';

/** An expiry option as written. `time` stays unparsed until `expiryAt`; '' for KEEPTTL and PERSIST. */
export interface Expiry {
  readonly word: ExpiryWord;
  readonly time: string;
}

/**
 * Reads an expiry option at the reader's position when the next word is one of `words`;
 * returns undefined, consuming nothing, when it is not. As in Redis, the same option may be
 * repeated (the last wins), while a second, different one or a time option without its time
 * is a syntax error (recorded in the reader).
 */
export function readExpiry(r: ArgReader, words: readonly ExpiryWord[], current: Expiry | null): Expiry | undefined {
  const word = r.word(...words);
  if (word === undefined) return undefined;
  if ((current !== null && current.word !== word) || (r.done && word !== 'keepttl' && word !== 'persist')) {
    r.fail(SYNTAX);
    return { word, time: '' };
  }
  return { word, time: word === 'keepttl' || word === 'persist' ? '' : r.next() };
}

/** EX, PX, EXAT and PXAT: the options that carry a time. */
export type TimedExpiry = Expiry & { readonly word: 'ex' | 'px' | 'exat' | 'pxat' };

export function isTimed(e: Expiry | null): e is TimedExpiry {
  return e !== null && e.word !== 'keepttl' && e.word !== 'persist';
}

/**
 * The absolute expiry, in ms since the epoch, that a timed option means at `now`. Redis's
 * errors: a time that is no integer; one not positive, or past 2^63-1 ms once made absolute,
 * is "invalid expire time in '<command>' command". Past 2^53 the answer is an exact bigint,
 * so that the logged form reads back to the same instant.
 */
export function expiryAt(e: TimedExpiry, now: number, command: string): number | bigint | ReplyError {
  const n = parseInteger(e.time);
  if (n === undefined) return NOT_INTEGER;
  if (n <= 0) return invalidExpireTime(command);
  const scale = e.word === 'ex' || e.word === 'exat' ? 1000 : 1;
  const base = e.word === 'ex' || e.word === 'px' ? now : 0;
  const at = n * scale + base;
  if (at <= Number.MAX_SAFE_INTEGER) return at;
  const exact = parseInt64(e.time)! * BigInt(scale) + BigInt(base);
  return exact > INT64_MAX ? invalidExpireTime(command) : exact;
}

// How string commands find their value: a key holding a string, or WRONGTYPE for any other type.

import type { Entry, Keyspace } from '../../engine/keyspace.js';
import { WRONGTYPE, type ReplyError } from '../../errors.js';

/** An entry known to hold a string. */
export type StringEntry = Entry & { value: string };

/** The string at `key`: its bytes, null when absent, WRONGTYPE for other types. */
export function getString(ks: Keyspace, key: string): string | null | ReplyError {
  const v = ks.get(key);
  return v === undefined ? null : typeof v === 'string' ? v : WRONGTYPE;
}

/** The live entry of `key` when it holds a string, undefined when absent, WRONGTYPE otherwise. */
export function stringEntry(ks: Keyspace, key: string): StringEntry | undefined | ReplyError {
  const e = ks.lookup(key);
  return e === undefined || typeof e.value === 'string' ? (e as StringEntry | undefined) : WRONGTYPE;
}

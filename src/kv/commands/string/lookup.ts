// How string commands find their value: a key holding a string, or WRONGTYPE for any other type.

import type { Keyspace, Slot } from '../../engine/keyspace.js';
import { WRONGTYPE, type ReplyError } from '../../errors.js';

/** A slot known to hold a string: `stringAt` reads it. */
export type StringSlot = Slot & { readonly holds: 'string' };

/** The string at `key`: its bytes, null when absent, WRONGTYPE for other types. */
export function getString(ks: Keyspace, key: string): string | null | ReplyError {
  const v = ks.get(key);
  return v === undefined ? null : typeof v === 'string' ? v : WRONGTYPE;
}

/** The live slot of `key` when it holds a string, undefined when absent, WRONGTYPE otherwise. */
export function stringSlot(ks: Keyspace, key: string): StringSlot | undefined | ReplyError {
  const s = ks.lookup(key);
  return s === undefined || typeof ks.valueAt(s) === 'string' ? (s as StringSlot | undefined) : WRONGTYPE;
}

/** The bytes in a string slot; undefined for no slot. */
export function stringAt(ks: Keyspace, s: StringSlot): string;
export function stringAt(ks: Keyspace, s: StringSlot | undefined): string | undefined;
export function stringAt(ks: Keyspace, s: StringSlot | undefined): string | undefined {
  return s === undefined ? undefined : (ks.valueAt(s) as string);
}

/** Writes `value` at `key`, whose string slot is `s` (undefined when absent): a new key has no expiry, an existing one keeps its own. */
export function putString(ks: Keyspace, key: string, s: StringSlot | undefined, value: string): void {
  if (s === undefined) ks.insert(key, value, 0);
  else ks.setValueAt(s, value);
}

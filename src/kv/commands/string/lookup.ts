// How string commands find their value: a key holding a string, or WRONGTYPE for any other type.
// A string is held as a byte string, or edited in place (engine/editable-string.ts) once a
// command changed part of it and it is at least EDIT_IN_PLACE_MIN bytes long.

import { asStringValue, EditableString, textOf, type StringValue } from '../../engine/editable-string.js';
import type { Keyspace, Slot } from '../../engine/keyspace.js';
import { isError, WRONGTYPE, type ReplyError } from '../../errors.js';

/** Below this many bytes a partial write copies the string: cheaper than the request around it. */
export const EDIT_IN_PLACE_MIN = 1024;

/** A slot known to hold a string: `stringAt` reads it. */
export type StringSlot = Slot & { readonly holds: 'string' };

/** The string at `key`: its bytes, null when absent, WRONGTYPE for other types. */
export function getString(ks: Keyspace, key: string): string | null | ReplyError {
  const v = ks.get(key);
  return v === undefined ? null : (textOf(v) ?? WRONGTYPE);
}

/** The live slot of `key` when it holds a string, undefined when absent, WRONGTYPE otherwise. */
export function stringSlot(ks: Keyspace, key: string): StringSlot | undefined | ReplyError {
  const s = ks.lookup(key);
  return s === undefined || asStringValue(ks.valueAt(s)) !== undefined ? (s as StringSlot | undefined) : WRONGTYPE;
}

/** The bytes in a string slot; undefined for no slot. */
export function stringAt(ks: Keyspace, s: StringSlot): string;
export function stringAt(ks: Keyspace, s: StringSlot | undefined): string | undefined;
export function stringAt(ks: Keyspace, s: StringSlot | undefined): string | undefined {
  return s === undefined ? undefined : textOf(ks.valueAt(s));
}

/** The string in a string slot as it is held, for reads that need only its length or a part. */
export function heldAt(ks: Keyspace, s: StringSlot): StringValue {
  return ks.valueAt(s) as StringValue;
}

/** Writes `value` at `key`, whose string slot is `s` (undefined when absent): a new key has no expiry, an existing one keeps its own. */
export function putString(ks: Keyspace, key: string, s: StringSlot | undefined, value: StringValue): void {
  if (s === undefined) ks.insert(key, value, 0);
  else ks.setValueAt(s, value);
}

/**
 * The string in slot `s` as bytes to read or change in place, grown with zero bytes to at
 * least `length` (for no slot, a new one of exactly `length`). A string edited in place is its
 * own; a byte string of EDIT_IN_PLACE_MIN bytes or more becomes one in its slot (copied once,
 * then edited in place); a shorter one is a copy, which `storeEdited` stores.
 */
export function editableAt(ks: Keyspace, s: StringSlot | undefined, length: number): EditableString {
  if (s === undefined) return EditableString.zeros(length);
  const v = heldAt(ks, s);
  let e: EditableString;
  if (typeof v !== 'string') e = v;
  else {
    e = EditableString.of(v);
    if (v.length >= EDIT_IN_PLACE_MIN) ks.setValueAt(s, e);
  }
  e.grow(length);
  return e;
}

/** Stores the string `editableAt` gave for slot `s` at `key`, after a command changed it. */
export function storeEdited(ks: Keyspace, key: string, s: StringSlot | undefined, e: EditableString): void {
  putString(ks, key, s, e.length >= EDIT_IN_PLACE_MIN ? e : e.slice());
}

/**
 * The bytes of the string at `key` for a bit command to read: null when absent, WRONGTYPE for
 * other types. A short byte string is read from a copy; a long one is read in place.
 */
export function getBytes(ks: Keyspace, key: string): Uint8Array | null | ReplyError {
  const s = stringSlot(ks, key);
  if (s === undefined || isError(s)) return s ?? null;
  const v = heldAt(ks, s);
  return typeof v === 'string' && v.length < EDIT_IN_PLACE_MIN ? Buffer.from(v, 'latin1') : editableAt(ks, s, 0).bytes();
}

// SORT's BY and GET patterns (Redis sort.c lookupKeyByPattern): '#' is the element itself,
// the first '*' is replaced by the element, and a '->field' after it reads that hash field.
// Redis scans the pattern as a C string, so a NUL byte ends the search for '*' and '->'.

import { textOf } from '../../engine/editable-string.js';
import { HASH_KIND, type HashValue } from '../../engine/hash/hash-value.js';
import type { Keyspace } from '../../engine/keyspace.js';

/** Where the pattern's C string ends: its first NUL byte, or its length. */
function cLength(s: string): number {
  const nul = s.indexOf('\0');
  return nul < 0 ? s.length : nul;
}

/** Whether a BY pattern names a key per element; one without '*' means "do not sort". */
export function hasStar(pattern: string): boolean {
  const star = pattern.indexOf('*');
  return star >= 0 && star < cLength(pattern);
}

/** The string (or hash field) the pattern names for `element`; null when there is none. */
export function lookupByPattern(ks: Keyspace, pattern: string, element: string): string | null {
  const end = cLength(pattern);
  if (end === 1 && pattern.charCodeAt(0) === 0x23 /* '#' */) return element;
  const star = pattern.indexOf('*');
  if (star < 0 || star >= end) return null;
  const arrow = pattern.indexOf('->', star + 1);
  // A trailing '->' names no field: it is then part of the key.
  const isField = arrow >= 0 && arrow + 2 < end;
  const key = pattern.slice(0, star) + element + pattern.slice(star + 1, isField ? arrow : pattern.length);
  const v = ks.get(key);
  if (v === undefined) return null;
  if (!isField) return textOf(v) ?? null;
  if (typeof v === 'string' || v.kind !== HASH_KIND) return null;
  return (v as HashValue).get(pattern.slice(arrow + 2))?.value ?? null;
}

// How list commands find their value, and the argument forms several of them share.

import type { Keyspace } from '../../engine/keyspace.js';
import { LIST, ListValue } from '../../engine/list/list-value.js';
import type { ReplyError } from '../../errors.js';
import { readTyped, writeTyped } from '../typed.js';

/** The list at `key`: undefined when absent, WRONGTYPE for another type. */
export function readList(ks: Keyspace, key: string): ListValue | undefined | ReplyError {
  return readTyped<ListValue>(ks, key, LIST);
}

/** The list at `key`, created empty when absent; WRONGTYPE for another type. */
export function writeList(ks: Keyspace, key: string): ListValue | ReplyError {
  return writeTyped(ks, key, LIST, () => new ListValue());
}

/** LEFT or RIGHT in any case (Redis getListPositionFromObjectOrReply): true for LEFT, undefined for neither. */
export function readEnd(arg: string): boolean | undefined {
  const w = arg.toLowerCase();
  return w === 'left' ? true : w === 'right' ? false : undefined;
}

/**
 * Redis's start/stop rule (LRANGE, LTRIM): negative indexes count from the end, the range is
 * clamped to the list. The positions [from, to) it covers; from === to when none.
 */
export function rangeOf(start: number, stop: number, length: number): { from: number; to: number } {
  if (start < 0) start += length;
  if (stop < 0) stop += length;
  if (start < 0) start = 0;
  if (start > stop || start >= length) return { from: 0, to: 0 };
  return { from: start, to: Math.min(stop, length - 1) + 1 };
}

/** Pops up to `n` items from one end, in the order popped. */
export function popMany(list: ListValue, front: boolean, n: number): string[] {
  const count = Math.min(n, list.length);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = (front ? list.popFront() : list.popBack()) as string;
  return out;
}

// What the bitmap commands share: the bit offset argument and the string a bit write lands in
// (Redis bitops.c getBitOffsetFromArgument, lookupStringForBitCommand).

import type { EditableString } from '../../engine/editable-string.js';
import type { Keyspace } from '../../engine/keyspace.js';
import { isError, STRING_TOO_LONG, type ReplyError } from '../../errors.js';
import { parseInt64, parseInteger } from '../args.js';
import { editableAt, heldAt, storeEdited, stringSlot, type StringSlot } from '../string/lookup.js';
import { MAX_STRING_BYTES } from '../string/range.js';

// Redis caps a bit offset at proto-max-bulk-len (512MB) in bytes, so 2^32 bits.
const MAX_BIT_OFFSET = 512 * 1024 * 1024 * 8;

/**
 * A bit offset, or undefined when it is not an integer in [0, 2^32). With `fieldBits`, as
 * BITFIELD takes it, '#n' means the n-th field of that width; the product wraps as Redis's
 * 64-bit multiplication does, so a huge n comes out negative and is refused.
 */
export function parseBitOffset(arg: string, fieldBits = 0): number | undefined {
  if (fieldBits > 0 && arg.charCodeAt(0) === 35 /* # */) {
    const n = parseInt64(arg.slice(1));
    if (n === undefined) return undefined;
    const offset = BigInt.asIntN(64, n * BigInt(fieldBits));
    return offset < 0n || offset >= BigInt(MAX_BIT_OFFSET) ? undefined : Number(offset);
  }
  const n = parseInteger(arg);
  return n === undefined || n < 0 || n >= MAX_BIT_OFFSET ? undefined : n;
}

/** A string about to take bit writes: its slot (undefined when the key is new) and its bytes to change. */
export interface BitTarget {
  readonly slot: StringSlot | undefined;
  /** The value zero-padded to hold the highest bit written. */
  readonly bytes: EditableString;
  /** Whether the key is new or its value had to grow: a write of bits it already has is still a change. */
  readonly grew: boolean;
}

/**
 * The string at `key`, grown with zero bytes to hold bit `maxBit`. WRONGTYPE for other types;
 * past the longest string this runtime can build, the error SETRANGE gives.
 */
export function bitTarget(ks: Keyspace, key: string, maxBit: number): BitTarget | ReplyError {
  const slot = stringSlot(ks, key);
  if (isError(slot)) return slot;
  const length = Math.floor(maxBit / 8) + 1;
  if (length > MAX_STRING_BYTES) return STRING_TOO_LONG;
  const before = slot === undefined ? 0 : heldAt(ks, slot).length;
  const bytes = editableAt(ks, slot, length);
  return { slot, bytes, grew: slot === undefined || bytes.length > before };
}

/** Stores the written bytes of `target` at `key`. */
export function storeBits(ks: Keyspace, key: string, target: BitTarget): void {
  storeEdited(ks, key, target.slot, target.bytes);
}

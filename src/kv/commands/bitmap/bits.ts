// Single bits and bit ranges of a string: SETBIT, GETBIT, BITCOUNT, BITPOS (Redis bitops.c).
// Reads and SETBIT work on the string's bytes in place (string/lookup.ts: editableAt).

import { bitAt, countBits, findBit } from '../../engine/bitmap/bits.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { BIT_OFFSET, BIT_VALUE, BITPOS_BIT, isError, NOT_INTEGER, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { getBytes } from '../string/lookup.js';
import { bitTarget, parseBitOffset, storeBits } from './bit-offset.js';

// SETBIT key offset value
export function setbitCommand(ctx: Ctx, argv: Args): Reply {
  const offset = parseBitOffset(argv[2]);
  if (offset === undefined) return BIT_OFFSET;
  const on = parseInteger(argv[3]);
  if (on !== 0 && on !== 1) return BIT_VALUE;
  const target = bitTarget(ctx.ks, argv[1], offset);
  if (isError(target)) return target;
  const byte = Math.floor(offset / 8);
  const mask = 1 << (7 - (offset % 8));
  const bytes = target.bytes.bytes();
  const previous = bytes[byte] & mask ? 1 : 0;
  // A bit that keeps its value in a string that did not grow is no change: Redis publishes nothing.
  if (previous === on && !target.grew) return unchanged(ctx, previous);
  bytes[byte] = on ? bytes[byte] | mask : bytes[byte] & ~mask;
  storeBits(ctx.ks, argv[1], target);
  ctx.events.notify(KeyEvent.string, 'setbit', argv[1]);
  return previous;
}

// GETBIT key offset
export function getbitCommand(ctx: Ctx, argv: Args): Reply {
  const offset = parseBitOffset(argv[2]);
  if (offset === undefined) return BIT_OFFSET;
  const v = getBytes(ctx.ks, argv[1]);
  return v === null ? 0 : isError(v) ? v : bitAt(v, offset);
}

/** Bits `first`..`last` of a string; empty when first > last. */
type BitRange = readonly [first: number, last: number];

/**
 * Redis's range arithmetic shared by BITCOUNT and BITPOS: negative indexes count from the
 * end, both ends are clamped into the string, and the unit is bytes or (BIT) bits.
 */
function bitRange(start: number, end: number, inBits: boolean, length: number): BitRange {
  const total = inBits ? length * 8 : length;
  if (start < 0) start = Math.max(total + start, 0);
  if (end < 0) end = Math.max(total + end, 0);
  if (end >= total) end = total - 1;
  if (start > end) return [1, 0];
  return inBits ? [start, end] : [start * 8, end * 8 + 7];
}

/** The BYTE | BIT word: true for BIT, undefined when it is neither. */
function unitIsBit(word: string): boolean | undefined {
  const w = word.toLowerCase();
  return w === 'bit' ? true : w === 'byte' ? false : undefined;
}

// BITCOUNT key [start end [BYTE | BIT]]
// Redis 7.0 looks the key up before reading the range, so a missing key answers 0 even when
// the range is malformed.
export function bitcountCommand(ctx: Ctx, argv: Args): Reply {
  const v = getBytes(ctx.ks, argv[1]);
  if (v === null) return 0;
  if (isError(v)) return v;
  let range: BitRange = [0, v.length * 8 - 1];
  if (argv.length === 4 || argv.length === 5) {
    const start = parseInteger(argv[2]);
    const end = parseInteger(argv[3]);
    if (start === undefined || end === undefined) return NOT_INTEGER;
    // Both negative and crossed: empty, before clamping could make them meet at 0 (and in
    // Redis 7.0 before the unit is read).
    if (start < 0 && end < 0 && start > end) return 0;
    const inBits = argv.length === 5 ? unitIsBit(argv[4]) : false;
    if (inBits === undefined) return SYNTAX;
    range = bitRange(start, end, inBits, v.length);
  } else if (argv.length !== 2) {
    return SYNTAX;
  }
  const [first, last] = range;
  return first > last ? 0 : countBits(v, first, last);
}

// BITPOS key bit [start [end [BYTE | BIT]]]
// Past the string every bit reads as 0, so a search for 0 without an explicit end that finds
// none answers the first bit after the string; with an explicit end it answers -1.
export function bitposCommand(ctx: Ctx, argv: Args): Reply {
  const bit = parseInteger(argv[2]);
  if (bit === undefined) return NOT_INTEGER;
  if (bit !== 0 && bit !== 1) return BITPOS_BIT;
  const v = getBytes(ctx.ks, argv[1]);
  if (v === null) return bit === 1 ? -1 : 0;
  if (isError(v)) return v;
  let range: BitRange = [0, v.length * 8 - 1];
  const endGiven = argv.length >= 5;
  if (argv.length >= 4 && argv.length <= 6) {
    const start = parseInteger(argv[3]);
    if (start === undefined) return NOT_INTEGER;
    const inBits = argv.length === 6 ? unitIsBit(argv[5]) : false;
    if (inBits === undefined) return SYNTAX;
    const end = endGiven ? parseInteger(argv[4]) : Number.MAX_SAFE_INTEGER;
    if (end === undefined) return NOT_INTEGER;
    range = bitRange(start, end, inBits, v.length);
  } else if (argv.length !== 3) {
    return SYNTAX;
  }
  const [first, last] = range;
  if (first > last) return -1;
  const found = findBit(v, bit, first, last);
  return found !== -1 || bit === 1 || endGiven ? found : last + 1;
}

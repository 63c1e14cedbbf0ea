// BITFIELD and BITFIELD_RO (Redis bitops.c bitfieldGeneric): integer fields of 1 to 64 bits
// (u1..u63, i1..i64) at any bit offset. Every operation is parsed before any runs; writes
// first grow the string to the farthest bit any of them touches, as Redis does, even when
// OVERFLOW FAIL then refuses them all. As in Redis, `setbit` is published only when a write
// went through and changed its field or the string grew (so not for a new key whose every
// write OVERFLOW FAIL refused).

import { readBig, readNumber, writeBig, writeNumber } from '../../engine/bitmap/field.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { BIT_OFFSET, BITFIELD_OVERFLOW, BITFIELD_RO_WRITE, BITFIELD_TYPE, isError, NOT_INTEGER, SYNTAX, type ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MAX, parseExactInteger, parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { getBytes } from '../string/lookup.js';
import { bitTarget, parseBitOffset, storeBits } from './bit-offset.js';

type Overflow = 'wrap' | 'sat' | 'fail';

interface FieldOp {
  readonly op: 'get' | 'set' | 'incrby';
  readonly signed: boolean;
  readonly bits: number;
  readonly offset: number;
  /** SET's value or INCRBY's increment: a number while safe, else a bigint. */
  readonly arg: number | bigint;
  readonly overflow: Overflow;
}

// BITFIELD key [GET type offset | [OVERFLOW WRAP | SAT | FAIL] SET type offset value |
//   [OVERFLOW WRAP | SAT | FAIL] INCRBY type offset increment ...]
export function bitfieldCommand(ctx: Ctx, argv: Args): Reply {
  return bitfield(ctx, argv, false);
}

// BITFIELD_RO key [GET type offset ...]
export function bitfieldRoCommand(ctx: Ctx, argv: Args): Reply {
  return bitfield(ctx, argv, true);
}

function bitfield(ctx: Ctx, argv: Args, readOnly: boolean): Reply {
  const ops = parseOps(argv);
  if (isError(ops)) return ops;
  const writes = ops.filter((o) => o.op !== 'get');
  if (writes.length === 0) {
    // Reads only: nothing to log, even for BITFIELD, whose lookup is then a read too (Redis's
    // lookupKeyRead), publishing keymiss for a missing key.
    ctx.ks.reading = true;
    const v = getBytes(ctx.ks, argv[1]);
    if (isError(v)) return v;
    return unchanged(ctx, ops.map((o) => fieldAt(o, v ?? EMPTY)));
  }
  if (readOnly) return BITFIELD_RO_WRITE;
  const farthest = writes.reduce((far, o) => Math.max(far, o.offset + o.bits - 1), 0);
  const target = bitTarget(ctx.ks, argv[1], farthest);
  if (isError(target)) return target;
  const bytes = target.bytes.bytes();
  let changed = false;
  const replies = ops.map((o) => {
    if (o.op === 'get') return fieldAt(o, bytes);
    const before = fieldAt(o, bytes);
    const reply = setField(o, bytes);
    changed ||= reply !== null && (target.grew || fieldAt(o, bytes) !== before);
    return reply;
  });
  storeBits(ctx.ks, argv[1], target);
  if (changed) ctx.events.notify(KeyEvent.string, 'setbit', argv[1]);
  return replies;
}

function parseOps(argv: Args): FieldOp[] | ReplyError {
  const ops: FieldOp[] = [];
  let overflow: Overflow = 'wrap';
  for (let j = 2; j < argv.length; j++) {
    const left = argv.length - j - 1;
    const sub = argv[j].toLowerCase() as FieldOp['op'] | 'overflow';
    if (sub === 'overflow' && left >= 1) {
      const mode = argv[++j].toLowerCase();
      if (mode !== 'wrap' && mode !== 'sat' && mode !== 'fail') return BITFIELD_OVERFLOW;
      overflow = mode;
      continue;
    }
    if (!((sub === 'get' && left >= 2) || ((sub === 'set' || sub === 'incrby') && left >= 3))) return SYNTAX;
    const type = parseFieldType(argv[j + 1]);
    if (type === undefined) return BITFIELD_TYPE;
    const offset = parseBitOffset(argv[j + 2], type.bits);
    if (offset === undefined) return BIT_OFFSET;
    let arg: number | bigint = 0;
    if (sub !== 'get') {
      const n = parseExactInteger(argv[j + 3]);
      if (n === undefined) return NOT_INTEGER;
      arg = n;
    }
    ops.push({ op: sub, ...type, offset, arg, overflow });
    j += sub === 'get' ? 2 : 3;
  }
  return ops;
}

/**
 * 'i' or 'u' (lower case only) and a width: i1..i64, u1..u63. The width is read as a C
 * string, up to the first NUL byte, as Redis reads it.
 */
function parseFieldType(arg: string): { signed: boolean; bits: number } | undefined {
  const sign = arg.charAt(0);
  if (sign !== 'i' && sign !== 'u') return undefined;
  const nul = arg.indexOf('\0');
  const bits = parseInteger(arg.slice(1, nul === -1 ? undefined : nul));
  if (bits === undefined || bits < 1 || bits > (sign === 'i' ? 64 : 63)) return undefined;
  return { signed: sign === 'i', bits };
}

/**
 * The 9 bytes from the one holding bit `offset` (zero past the end): enough for any field,
 * so a GET reads a small copy whatever the string's length, as Redis does.
 */
function window(bytes: Uint8Array, offset: number): Uint8Array {
  const from = Math.floor(offset / 8);
  const out = new Uint8Array(9);
  out.set(bytes.subarray(from, from + 9));
  return out;
}

const EMPTY = new Uint8Array(0);

/** The value of `o`'s field in `bytes`. */
function fieldAt(o: FieldOp, bytes: Uint8Array): Reply {
  return getField(o, window(bytes, o.offset), o.offset % 8);
}

function getField(o: FieldOp, p: Uint8Array, at: number): Reply {
  if (o.bits <= 52) {
    const u = readNumber(p, at, o.bits);
    return o.signed && u >= 2 ** (o.bits - 1) ? u - 2 ** o.bits : u;
  }
  const u = readBig(p, at, o.bits);
  return o.signed ? BigInt.asIntN(o.bits, u) : u;
}

// Widths and arguments small enough that every sum is exact as a double.
const SMALL_BITS = 32;
const SMALL_ARG = 2 ** 52;

/**
 * SET or INCRBY of one field in `buf`: the old value (SET) or the new one (INCRBY), or nil
 * when OVERFLOW FAIL refuses. Overflow is judged on the exact result, as Redis's
 * check*BitfieldOverflow does, with two exceptions where SAT must pick the side Redis picks:
 * an unsigned SET of a negative value is too large, since Redis casts it to uint64; and a
 * signed SET of a value within 2^(bits-1) of INT64_MIN is too large too, because Redis computes
 * max - value in wrapping 64-bit arithmetic and it comes out negative.
 */
function setField(o: FieldOp, buf: Uint8Array): Reply {
  if (o.bits <= SMALL_BITS && typeof o.arg === 'number' && Math.abs(o.arg) < SMALL_ARG) {
    return setSmall(o, o.arg, buf);
  }
  return setBig(o, BigInt(o.arg), buf);
}

function setSmall(o: FieldOp, arg: number, buf: Uint8Array): Reply {
  const mod = 2 ** o.bits;
  const min = o.signed ? -mod / 2 : 0;
  const max = o.signed ? mod / 2 - 1 : mod - 1;
  let old = readNumber(buf, o.offset, o.bits);
  if (old > max) old -= mod;
  let next = o.op === 'incrby' ? old + arg : arg;
  if (next < min || next > max) {
    if (o.overflow === 'fail') return null;
    // A small argument is far from INT64_MIN: only the unsigned exception can apply.
    if (o.overflow === 'sat') next = next > max || (!o.signed && o.op === 'set') ? max : min;
    else next = ((((next - min) % mod) + mod) % mod) + min;
  }
  writeNumber(buf, o.offset, o.bits, next < 0 ? next + mod : next);
  return o.op === 'set' ? old : next;
}

function setBig(o: FieldOp, arg: bigint, buf: Uint8Array): Reply {
  const mod = 1n << BigInt(o.bits);
  const min = o.signed ? -mod / 2n : 0n;
  const max = o.signed ? mod / 2n - 1n : mod - 1n;
  const raw = readBig(buf, o.offset, o.bits);
  const old = o.signed ? BigInt.asIntN(o.bits, raw) : raw;
  let next = o.op === 'incrby' ? old + arg : arg;
  if (next < min || next > max) {
    if (o.overflow === 'fail') return null;
    if (o.overflow === 'sat') {
      const high = next > max || (o.op === 'set' && (o.signed ? o.bits < 64 && max - next > INT64_MAX : true));
      next = high ? max : min;
    } else {
      next = o.signed ? BigInt.asIntN(o.bits, next) : BigInt.asUintN(o.bits, next);
    }
  }
  writeBig(buf, o.offset, o.bits, next);
  return o.op === 'set' ? old : next;
}

// Random commands of the bitmap family (Redis bitops.c): bits, ranges, BITOP and BITFIELD with
// every option, edge offsets and widths, and malformed arguments, so error replies compare
// too. Writes stay within a few kilobytes (some past the 1 KiB from which Larder edits a
// string in place): Redis would allocate up to 512MB for the largest offsets, so those only
// appear in reads. BITOP's Redis 8.2 operations are not in the
// 7.0 oracle and have their own HTTP tests.

import { anyCase, KEYS } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const key = (rng: Rng) => rng.pick(KEYS);
const step = (...argv: string[]): Step => ({ argv });

const WRITE_OFFSETS = ['0', '1', '3', '7', '8', '9', '15', '16', '31', '33', '63', '64', '100', '255', '1000', '8200', '16400', '-1', 'x', '1.5', ''];
const READ_OFFSETS = [...WRITE_OFFSETS, '4294967295', '4294967296', '9223372036854775807'];
const BITS = ['0', '1', '0', '1', '2', '-1', 'x'];
const ENDS = ['0', '1', '2', '-1', '-2', '-3', '3', '5', '7', '8', '9', '15', '17', '100', '-100', '-200', '9223372036854775807', '-9223372036854775808', 'x'];

/** A small write, so the BITOP and range reads have varied strings to work on. */
function setbit(rng: Rng): Step {
  return step('SETBIT', key(rng), rng.pick(WRITE_OFFSETS), rng.pick(BITS));
}

// BITCOUNT key [start end [BYTE | BIT]]
function bitcount(rng: Rng): Step {
  const r = rng.next();
  if (r < 0.15) return step('BITCOUNT', key(rng));
  if (r < 0.2) return step('BITCOUNT', key(rng), rng.pick(ENDS));
  const args = [rng.pick(ENDS), rng.pick(ENDS)];
  if (rng.chance(0.5)) args.push(anyCase(rng, rng.pick(['BYTE', 'BIT', 'BIT', 'bits'])));
  return step('BITCOUNT', key(rng), ...args);
}

// BITPOS key bit [start [end [BYTE | BIT]]]
function bitpos(rng: Rng): Step {
  const args = [rng.pick(BITS)];
  const n = rng.int(0, 3);
  if (n >= 1) args.push(rng.pick(ENDS));
  if (n >= 2) args.push(rng.pick(ENDS));
  if (n >= 3) args.push(anyCase(rng, rng.pick(['BYTE', 'BIT', 'BIT', 'bits'])));
  return step('BITPOS', key(rng), ...args);
}

// BITOP <AND | OR | XOR | NOT> destkey key [key ...]
function bitop(rng: Rng): Step {
  const op = rng.pick(['AND', 'OR', 'XOR', 'NOT', 'NOT', 'and', 'nand']);
  const sources = op === 'NOT' && rng.chance(0.85) ? 1 : rng.int(1, 4);
  return step('BITOP', anyCase(rng, op), key(rng), ...rng.some(KEYS, sources));
}

const TYPES = ['u1', 'u2', 'u8', 'i8\x00x', 'i8', 'u16', 'i16', 'i5', 'u3', 'i32', 'u32', 'i33', 'u52', 'i53', 'i63', 'u63', 'i64', 'I8', 'U4'];
const BAD_TYPES = ['u64', 'i65', 'i0', 'u0', 'x8', '8', '', 'u', 'i-1', 'u+8', 'u08'];
const FIELD_OFFSETS = ['0', '1', '3', '7', '8', '13', '64', '100', '#0', '#1', '#3', '#10'];
const BAD_OFFSETS = ['-1', 'x', '#', '#-1', '#x', '4294967296', '#9223372036854775807'];
const VALUES = [
  '0', '1', '-1', '5', '100', '127', '128', '255', '256', '-128', '-129', '300', '-300', '65535', '2147483647', '-2147483648',
  '4294967295', '4294967296', '9007199254740993', '9223372036854775807', '-9223372036854775808', '-9223372036854775800',
  '-9223372036854775000', '9223372036854775808', 'x',
];

function fieldType(rng: Rng): string {
  return rng.chance(0.04) ? rng.pick(BAD_TYPES) : rng.pick(TYPES);
}

function fieldOffset(rng: Rng, read: boolean): string {
  if (rng.chance(0.04)) return rng.pick(BAD_OFFSETS);
  return read && rng.chance(0.1) ? rng.pick(['4294967295', '#536870911', '4294967232']) : rng.pick(FIELD_OFFSETS);
}

/** BITFIELD's subcommands: GET, SET, INCRBY and OVERFLOW, sometimes malformed. */
function fieldOps(rng: Rng, readOnly: boolean): string[] {
  const ops: string[] = [];
  for (let n = rng.int(0, 4); n > 0; n--) {
    const r = rng.next();
    if (readOnly ? r < 0.9 : r < 0.35) ops.push(anyCase(rng, 'GET'), fieldType(rng), fieldOffset(rng, true));
    else if (r < 0.65) ops.push(anyCase(rng, 'SET'), fieldType(rng), fieldOffset(rng, false), rng.pick(VALUES));
    else if (r < 0.92) ops.push(anyCase(rng, 'INCRBY'), fieldType(rng), fieldOffset(rng, false), rng.pick(VALUES));
    else ops.push(anyCase(rng, 'OVERFLOW'), anyCase(rng, rng.pick(['WRAP', 'SAT', 'FAIL', 'FAIL', 'SATURATE'])));
  }
  if (rng.chance(0.03)) ops.push(rng.pick(['GET', 'SET', 'INCRBY', 'OVERFLOW', 'FOO']));
  return ops;
}

export const BITMAP_GENS: readonly CommandGen[] = [
  { name: 'setbit', weight: 10, make: setbit },
  { name: 'getbit', weight: 4, make: (rng) => step('GETBIT', key(rng), rng.pick(READ_OFFSETS)) },
  { name: 'bitcount', weight: 6, make: bitcount },
  { name: 'bitpos', weight: 8, make: bitpos },
  { name: 'bitop', weight: 5, make: bitop },
  { name: 'bitfield', weight: 8, make: (rng) => step('BITFIELD', key(rng), ...fieldOps(rng, false)) },
  { name: 'bitfield_ro', weight: 3, make: (rng) => step('BITFIELD_RO', key(rng), ...fieldOps(rng, true)) },
];

// The sparse HLL encoding (Redis hyperloglog.c): run-length opcodes after the header.
//
//   ZERO   00xxxxxx            1..64 registers at 0
//   XZERO  01xxxxxx yyyyyyyy   1..16384 registers at 0 (14-bit length - 1)
//   VAL    1vvvvvxx            1..4 registers at value 1..32
//
// An update rewrites the one opcode covering the register exactly as Redis's hllSparseSet does,
// merges of neighbouring VALs included, because the bytes are visible to GET and must match.
// A value over 32, or growth past SPARSE_MAX_BYTES, turns the HLL dense. A working copy keeps
// the byte after its end at 0, like the NUL after an sds string, which a truncated XZERO reads.

import { raise, setRegister } from './dense.js';
import { DENSE, DENSE_SIZE, HEADER, markStale, REGISTERS, SPARSE_MAX_BYTES, type HllBuf } from './format.js';

const VAL_MAX_VALUE = 32;
const VAL_MAX_LEN = 4;
const ZERO_MAX_LEN = 64;

const isZero = (op: number) => (op & 0xc0) === 0;
const isXzero = (op: number) => (op & 0xc0) === 0x40;
const isVal = (op: number) => (op & 0x80) !== 0;
const zeroLen = (op: number) => (op & 0x3f) + 1;
const xzeroLen = (op: number, next: number) => (((op & 0x3f) << 8) | next) + 1;
const valValue = (op: number) => ((op >> 2) & 0x1f) + 1;
const valLen = (op: number) => (op & 3) + 1;
const valOp = (value: number, len: number) => 0x80 | ((value - 1) << 2) | (len - 1);

/** Counts registers per value into `histogram`; false when the runs do not cover 16384. */
export function sparseHistogram(v: string, histogram: Int32Array): boolean {
  let idx = 0;
  for (let at = HEADER; at < v.length; ) {
    const op = v.charCodeAt(at);
    if (isZero(op)) {
      const run = zeroLen(op);
      histogram[0] += run;
      idx += run;
      at++;
    } else if (isXzero(op)) {
      const run = xzeroLen(op, v.charCodeAt(at + 1) | 0);
      histogram[0] += run;
      idx += run;
      at += 2;
    } else {
      const run = valLen(op);
      histogram[valValue(op)] += run;
      idx += run;
      at++;
    }
  }
  return idx === REGISTERS;
}

/** max[i] = max(max[i], register i) (Redis hllMerge); false when the HLL is corrupt. */
export function sparseMerge(max: Uint8Array, v: string): boolean {
  let i = 0;
  for (let at = HEADER; at < v.length; ) {
    const op = v.charCodeAt(at);
    if (isZero(op)) {
      i += zeroLen(op);
      at++;
    } else if (isXzero(op)) {
      i += xzeroLen(op, v.charCodeAt(at + 1) | 0);
      at += 2;
    } else {
      let run = valLen(op);
      const value = valValue(op);
      if (run + i > REGISTERS) break;
      for (; run > 0; run--, i++) if (value > max[i]) max[i] = value;
      at++;
    }
  }
  return i === REGISTERS;
}

/** Converts `h` to the dense encoding in place (Redis hllSparseToDense); false when corrupt. */
export function sparseToDense(h: HllBuf): boolean {
  const p = h.bytes;
  const dense = new Uint8Array(DENSE_SIZE);
  dense.set(p.subarray(0, HEADER)); // magic, cached estimate and unused bytes carry over
  dense[4] = DENSE;
  let idx = 0;
  for (let at = HEADER; at < h.len; ) {
    const op = p[at];
    if (isZero(op)) {
      idx += zeroLen(op);
      at++;
    } else if (isXzero(op)) {
      idx += xzeroLen(op, p[at + 1]);
      at += 2;
    } else {
      let run = valLen(op);
      const value = valValue(op);
      if (run + idx > REGISTERS) break;
      for (; run > 0; run--, idx++) setRegister(dense, idx, value);
      at++;
    }
  }
  if (idx !== REGISTERS) return false;
  h.bytes = dense;
  h.len = DENSE_SIZE;
  return true;
}

/**
 * Raises register `index` to `count` if lower (Redis hllSparseSet): 1 when it changed, 0 when
 * not, -1 when the HLL is corrupt. May leave `h` dense.
 */
export function sparseSet(h: HllBuf, index: number, count: number): number {
  if (count > VAL_MAX_VALUE) return promote(h, index, count);
  const p = h.bytes;
  const sparse = HEADER;
  let end = h.len;

  // Step 1: find the opcode covering the register.
  let at = sparse;
  let first = 0;
  let prev = -1;
  let span = 0;
  while (at < end) {
    const op = p[at];
    let oplen = 1;
    if (isZero(op)) span = zeroLen(op);
    else if (isVal(op)) span = valLen(op);
    else {
      span = xzeroLen(op, p[at + 1]);
      oplen = 2;
    }
    if (index <= first + span - 1) break;
    prev = at;
    at += oplen;
    first += span;
  }
  if (span === 0 || at >= end) return -1;
  const op = p[at];
  let next = isXzero(op) ? at + 2 : at + 1;
  if (next >= end) next = -1;
  const runlen = isZero(op) ? zeroLen(op) : isXzero(op) ? xzeroLen(op, p[at + 1]) : valLen(op);

  // Step 2: the trivial cases update the opcode where it is.
  let done = false;
  if (isVal(op)) {
    if (valValue(op) >= count) return 0;
    if (runlen === 1) {
      p[at] = valOp(count, 1);
      done = true;
    }
  }
  if (!done && isZero(op) && runlen === 1) {
    p[at] = valOp(count, 1);
    done = true;
  }

  if (!done) {
    // Otherwise the opcode splits in up to three: what precedes the register, the
    // register, what follows.
    const seq: number[] = [];
    const last = first + span - 1;
    const zeros = (len: number) => {
      if (len > ZERO_MAX_LEN) seq.push(0x40 | ((len - 1) >> 8), (len - 1) & 0xff);
      else seq.push(len - 1);
    };
    if (isVal(op)) {
      const value = valValue(op);
      if (index !== first) seq.push(valOp(value, index - first));
      seq.push(valOp(count, 1));
      if (index !== last) seq.push(valOp(value, last - index));
    } else {
      if (index !== first) zeros(index - first);
      seq.push(valOp(count, 1));
      if (index !== last) zeros(last - index);
    }

    // Step 3: put the new sequence in place of the old opcode.
    const delta = seq.length - (isXzero(op) ? 2 : 1);
    if (delta > 0 && h.len + delta > SPARSE_MAX_BYTES) return promote(h, index, count);
    if (delta !== 0 && next !== -1) p.copyWithin(next + delta, next, end);
    h.len += delta;
    p.set(seq, at);
    end += delta;
    p[end] = 0;
  }

  // Step 4: merge neighbouring VALs of equal value, from the opcode before the change, over
  // at most five opcodes.
  at = prev !== -1 ? prev : sparse;
  for (let scan = 5; at < end && scan-- > 0; ) {
    const a = p[at];
    if (isXzero(a)) {
      at += 2;
      continue;
    }
    if (isZero(a)) {
      at++;
      continue;
    }
    if (at + 1 < end && isVal(p[at + 1])) {
      const b = p[at + 1];
      const len = valLen(a) + valLen(b);
      if (valValue(a) === valValue(b) && len <= VAL_MAX_LEN) {
        p[at + 1] = valOp(valValue(a), len);
        p.copyWithin(at, at + 1, end + 1);
        h.len--;
        end--;
        p[end] = 0;
        continue;
      }
    }
    at++;
  }
  markStale(h);
  return 1;
}

/** Turns `h` dense and sets the register there; a register that needs promotion always changes. */
function promote(h: HllBuf, index: number, count: number): number {
  if (!sparseToDense(h)) return -1;
  raise(h.bytes, index, count);
  return 1;
}

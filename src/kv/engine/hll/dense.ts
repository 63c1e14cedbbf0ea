// The dense HLL encoding: 16384 registers of 6 bits after the header, packed from the least
// significant bit of each byte up (Redis HLL_DENSE_GET_REGISTER / HLL_DENSE_SET_REGISTER):
//
//   +--------+--------+--------+------//
//   |11000000|22221111|33333322|55444444
//   +--------+--------+--------+------//
//
// Reads work on the stored string (PFCOUNT copies nothing); writes on a working copy.

import { HEADER, REGISTERS } from './format.js';

/** Register `i` of the dense HLL string `v`. */
export function registerOf(v: string, i: number): number {
  const at = HEADER + ((i * 6) >>> 3);
  const fb = (i * 6) & 7;
  return ((v.charCodeAt(at) >> fb) | (v.charCodeAt(at + 1) << (8 - fb))) & 63;
}

/** Register `i` of the dense HLL in `p`. */
export function register(p: Uint8Array, i: number): number {
  const at = HEADER + ((i * 6) >>> 3);
  const fb = (i * 6) & 7;
  return ((p[at] >> fb) | (p[at + 1] << (8 - fb))) & 63;
}

/** Raises register `i` to `count` if it is lower (Redis hllDenseSet); true when it changed. */
export function raise(p: Uint8Array, i: number, count: number): boolean {
  if (count <= register(p, i)) return false;
  setRegister(p, i, count);
  return true;
}

export function setRegister(p: Uint8Array, i: number, value: number): void {
  const at = HEADER + ((i * 6) >>> 3);
  const fb = (i * 6) & 7;
  p[at] = (p[at] & ~(63 << fb)) | (value << fb);
  if (fb > 2) p[at + 1] = (p[at + 1] & ~(63 >> (8 - fb))) | (value >> (8 - fb));
}

/** Adds the dense HLL string `v`'s registers to `histogram` (a count per register value). */
export function denseHistogram(v: string, histogram: Int32Array): void {
  for (let i = 0; i < REGISTERS; i++) histogram[registerOf(v, i)]++;
}

/** max[i] = max(max[i], register i) over the dense HLL string `v`. */
export function denseMerge(max: Uint8Array, v: string): void {
  for (let i = 0; i < REGISTERS; i++) {
    const r = registerOf(v, i);
    if (r > max[i]) max[i] = r;
  }
}

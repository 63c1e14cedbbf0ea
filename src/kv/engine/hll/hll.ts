// HyperLogLog operations on Redis-format HLL strings (format.ts): what PFADD, PFCOUNT and
// PFMERGE do to the bytes. Callers check `isHll` first. Strings are immutable, so a change
// works on a copy (toBuf), made only once something actually changes.

import { denseHistogram, denseMerge, raise, registerOf } from './dense.js';
import { estimate } from './estimate.js';
import { DENSE, fromBuf, isDense, markStale, REGISTERS, toBuf, type HllBuf } from './format.js';
import { hllPattern } from './murmur64.js';
import { sparseHistogram, sparseMerge, sparseSet, sparseToDense } from './sparse.js';

/** Sets register `index` to `count` if lower, in either encoding: 1 changed, 0 not, -1 corrupt. */
function raiseRegister(h: HllBuf, index: number, count: number): number {
  if (h.bytes[4] === DENSE) return raise(h.bytes, index, count) ? 1 : 0;
  return sparseSet(h, index, count);
}

/**
 * Adds `elements` (Redis pfaddCommand): the new string when a register changed, undefined
 * when none did, null when the HLL is corrupt (and then nothing changes: Larder keeps PFADD
 * atomic where Redis keeps the elements added before the corrupt spot).
 */
export function hllAdd(v: string, elements: readonly string[]): string | undefined | null {
  let h: HllBuf | undefined;
  let updated = false;
  for (const element of elements) {
    const pattern = hllPattern(element);
    const index = pattern >>> 6;
    const count = pattern & 63;
    // A dense HLL is read in place until a register needs raising.
    if (h === undefined && isDense(v) && count <= registerOf(v, index)) continue;
    h ??= toBuf(v);
    const changed = raiseRegister(h, index, count);
    if (changed === -1) return null;
    if (changed === 1) updated = true;
  }
  if (h === undefined || !updated) return undefined;
  markStale(h);
  return fromBuf(h);
}

/** The estimate of one HLL, or null when it is corrupt. */
export function hllCount(v: string): number | null {
  const histogram = new Int32Array(64);
  if (isDense(v)) denseHistogram(v, histogram);
  else if (!sparseHistogram(v, histogram)) return null;
  return estimate(histogram);
}

/** Folds HLL `v` into `max` (register-wise maximum); false when it is corrupt. */
export function hllMergeInto(max: Uint8Array, v: string): boolean {
  if (!isDense(v)) return sparseMerge(max, v);
  denseMerge(max, v);
  return true;
}

/**
 * `dest` raised register by register to `max` (Redis pfmergeCommand), dense first when
 * `dense`; null when `dest` is corrupt. The result's cached estimate is stale.
 */
export function hllStore(dest: string, max: Uint8Array, dense: boolean): string | null {
  const h = toBuf(dest);
  if (dense && h.bytes[4] !== DENSE && !sparseToDense(h)) return null;
  for (let i = 0; i < REGISTERS; i++) if (max[i] !== 0) raiseRegister(h, i, max[i]);
  markStale(h);
  return fromBuf(h);
}

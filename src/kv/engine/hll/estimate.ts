// The cardinality estimate from a register histogram, as Redis 7 computes it (hyperloglog.c
// hllCount): Otmar Ertl's improved estimator, "New cardinality estimation algorithms for
// HyperLogLog sketches", arXiv:1702.01284. The same double arithmetic in the same order, so the
// answers are Redis's to the unit.

import { REGISTERS } from './format.js';

const Q = 50; // hash bits left after the 14 that pick the register
const ALPHA_INF = 0.721347520444481703680; // 0.5 / ln(2)

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  let zPrime;
  do {
    x *= x;
    zPrime = z;
    z += x * y;
    y += y;
  } while (zPrime !== z);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1.0;
  let z = 1 - x;
  let zPrime;
  do {
    x = Math.sqrt(x);
    zPrime = z;
    y *= 0.5;
    // Redis writes pow(1 - x, 2), which compilers emit as this exact product.
    z -= (1 - x) * (1 - x) * y;
  } while (zPrime !== z);
  return z / 3;
}

/** The estimate from `histogram[v]` = how many registers hold v (64 entries). */
export function estimate(histogram: Int32Array): number {
  const m = REGISTERS;
  let z = m * tau((m - histogram[Q + 1]) / m);
  for (let j = Q; j >= 1; --j) {
    z += histogram[j];
    z *= 0.5;
  }
  z += m * sigma(histogram[0] / m);
  // llroundl: halves round away from zero; the estimate is never negative.
  return Math.round((ALPHA_INF * m * m) / z);
}

/** The histogram of raw 8-bit registers (the multi-key PFCOUNT union). */
export function rawHistogram(registers: Uint8Array): Int32Array {
  const histogram = new Int32Array(64);
  for (let i = 0; i < REGISTERS; i++) histogram[registers[i]]++;
  return histogram;
}

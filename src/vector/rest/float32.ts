// Numbers as the service prints them: the shortest decimal that reads back as the same 32-bit
// float, so a stored 0.1 prints as 0.1 (not 0.10000000149011612) and a score that rounds to
// 1 in float32 prints as 1.

/** Powers of ten that a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The shortest-printing double that rounds to the same float32 as `x`. */
export function float32(x: number): number {
  const f = Math.fround(x);
  if (f === 0 || !Number.isFinite(f)) return f;
  const a = Math.abs(f);
  let exp = Math.floor(Math.log10(a)); // 10^exp <= a < 10^(exp+1), once corrected below
  if (exp < -13 || exp > 22) return byPrecision(f);
  if (a < 10 ** exp) exp--;
  else if (a >= 10 ** (exp + 1)) exp++;
  // More digits read back at least as close, so the fewest that read back as f (9 always do)
  // are found by halving 1..9.
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(toDigits(f, a, exp, mid)) === f) hi = mid;
    else lo = mid + 1;
  }
  return toDigits(f, a, exp, lo);
}

/**
 * f correctly rounded to `d` significant digits: a scaled to a d-digit integer, rounded, and
 * scaled back by an exact power of ten (so the result is the double nearest that decimal).
 * The scaling is off by at most 1e-7 of a unit here, so a fraction that close to one half
 * goes the exact way.
 */
function toDigits(f: number, a: number, exp: number, d: number): number {
  const k = d - 1 - exp;
  if (k > 22 || k < -22) return Number(f.toPrecision(d));
  const scaled = k >= 0 ? a * POW10[k] : a / POW10[-k];
  const fraction = scaled - Math.floor(scaled);
  if (Math.abs(fraction - 0.5) < 1e-7) return Number(f.toPrecision(d));
  const n = Math.round(scaled);
  const value = k >= 0 ? n / POW10[k] : n * POW10[-k];
  return f < 0 ? -value : value;
}

/** The definition, one fixed-precision conversion per length: for magnitudes the powers above do not reach. */
function byPrecision(f: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(f.toPrecision(digits));
    if (Math.fround(shorter) === f) return shorter;
  }
  return Number(f.toPrecision(9));
}

export function float32s(a: Float32Array): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = float32(a[i]);
  return out;
}

// Numbers as the service prints them: the shortest decimal that reads back as the same 32-bit
// float, so a stored 0.1 prints as 0.1 (not 0.10000000149011612) and a score that rounds to
// 1 in float32 prints as 1.

/** The shortest-printing double that rounds to the same float32 as `x`. */
export function float32(x: number): number {
  const f = Math.fround(x);
  if (f === 0 || !Number.isFinite(f)) return f;
  // 9 significant digits always round-trip a float32; fewer often do.
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

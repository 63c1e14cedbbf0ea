// Redis's pqsort.c (NetBSD's qsort, stopped early outside a range of positions), ported step
// for step so GEO searches with COUNT below the matches order equal distances exactly as Redis
// does. Redis sorts whole results with glibc's qsort, a stable merge sort; this is not stable.

type Cmp<T> = (a: T, b: T) => number;

function swap<T>(v: T[], i: number, j: number): void {
  const t = v[i];
  v[i] = v[j];
  v[j] = t;
}

function vecswap<T>(v: T[], i: number, j: number, n: number): void {
  for (let k = 0; k < n; k++) swap(v, i + k, j + k);
}

function med3<T>(v: T[], a: number, b: number, c: number, cmp: Cmp<T>): number {
  return cmp(v[a], v[b]) < 0
    ? cmp(v[b], v[c]) < 0
      ? b
      : cmp(v[a], v[c]) < 0
        ? c
        : a
    : cmp(v[b], v[c]) > 0
      ? b
      : cmp(v[a], v[c]) < 0
        ? a
        : c;
}

/** Sorts `v` enough that positions lrange..rrange (inclusive) hold what a full sort puts there. */
export function pqsort<T>(v: T[], cmp: Cmp<T>, lrange: number, rrange: number): void {
  sortRange(v, 0, v.length, cmp, lrange, rrange);
}

function sortRange<T>(v: T[], a: number, n: number, cmp: Cmp<T>, lrange: number, rrange: number): void {
  for (;;) {
    if (n < 7) {
      for (let pm = a + 1; pm < a + n; pm++) for (let pl = pm; pl > a && cmp(v[pl - 1], v[pl]) > 0; pl--) swap(v, pl, pl - 1);
      return;
    }
    let pm = a + Math.floor(n / 2);
    if (n > 7) {
      let pl = a;
      let pn = a + n - 1;
      if (n > 40) {
        const d = Math.floor(n / 8);
        pl = med3(v, pl, pl + d, pl + 2 * d, cmp);
        pm = med3(v, pm - d, pm, pm + d, cmp);
        pn = med3(v, pn - 2 * d, pn - d, pn, cmp);
      }
      pm = med3(v, pl, pm, pn, cmp);
    }
    swap(v, a, pm);
    let pa = a + 1;
    let pb = pa;
    let pc = a + n - 1;
    let pd = pc;
    for (;;) {
      let r: number;
      while (pb <= pc && (r = cmp(v[pb], v[a])) <= 0) {
        if (r === 0) swap(v, pa++, pb);
        pb++;
      }
      while (pb <= pc && (r = cmp(v[pc], v[a])) >= 0) {
        if (r === 0) swap(v, pc, pd--);
        pc--;
      }
      if (pb > pc) break;
      swap(v, pb++, pc--);
    }
    const pn = a + n;
    let r = Math.min(pa - a, pb - pa);
    vecswap(v, a, pb - r, r);
    r = Math.min(pd - pc, pn - pd - 1);
    vecswap(v, pb, pn - r, r);
    // Recurse into a part only when it overlaps the wanted positions.
    if ((r = pb - pa) > 1 && !(rrange < a || lrange > a + r - 1)) sortRange(v, a, r, cmp, lrange, rrange);
    if ((r = pd - pc) > 1) {
      a = pn - r;
      n = r;
      if (!(rrange < a || lrange > a + r - 1)) continue;
    }
    return;
  }
}

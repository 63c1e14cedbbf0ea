// How GEO replies print numbers, which is not how sorted sets print scores: coordinates go
// through addReplyHumanLongDouble (printf "%.17Lf" of the exact value, trailing zeros cut),
// distances through "%.4f", and the bad-coordinates error through "%f". JS's toFixed is exact
// like glibc's printf, except that an exact tie rounds away from zero where glibc rounds to even.

/** addReplyHumanLongDouble's text: 13.36138933897018433, 180, -0 printed as 0. */
export function humanCoordinate(n: number): string {
  let s = fixed(n, 17);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** "%.4f": GEODIST and WITHDIST. */
export function distanceText(n: number): string {
  return fixed(n, 4);
}

/** printf "%.<digits>f", with glibc's spelling of the infinities and of huge values. */
export function fixed(n: number, digits: number): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isNaN(n)) return 'nan';
  const abs = Math.abs(n);
  if (abs < 1e21) {
    const sign = n < 0 || Object.is(n, -0) ? '-' : '';
    let s = abs.toFixed(digits);
    // A tie is an odd multiple of 2^-(digits+1): its expansion ends in that place with a 5.
    const scaled = abs * 2 ** (digits + 1);
    if (Number.isInteger(scaled) && scaled % 2 === 1) {
      const truncated = abs.toFixed(digits + 1).slice(0, digits === 0 ? -2 : -1);
      if (truncated.charCodeAt(truncated.length - 1) % 2 === 0) s = truncated;
    }
    return sign + s;
  }
  // toFixed switches to exponent notation here; such a double is an integer, exact as a BigInt.
  return BigInt(n).toString() + '.' + '0'.repeat(digits);
}

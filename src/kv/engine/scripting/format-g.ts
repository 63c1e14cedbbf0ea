// C's "%.<digits>g" for doubles, which Redis's Lua uses where numbers become text: 17 digits
// for redis.call arguments (Redis 7.0), 14 for cjson.encode (lua-cjson's default); sorted-set
// scores print through the same shortcut (commands/reply-double.ts).

export function formatG(n: number, digits: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exact = exactShortest(Math.abs(n), digits);
  if (exact !== null) return n < 0 ? '-' + exact : exact;
  const [mantissa, e] = n.toExponential(digits - 1).split('e');
  const power = Number(e);
  if (power < -4 || power >= digits) {
    const m = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
    return `${m}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const fixed = n.toFixed(digits - 1 - power);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * What %.<digits>g prints for `x` (positive, finite) when that is x's shortest text, else null:
 * a safe integer of at most `digits` digits, or a fraction in %g's fixed range whose shortest
 * text is its exact value with at most 15 digits (1.5, 0.375, 12.25). Either prints as it is,
 * for the price of a shortest conversion rather than fixed-precision ones (a microsecond each).
 * A double is m * 2^k with m odd, its exact decimal has -k fractional digits, so the shortest
 * text is exact when it has at least as many; with 15 digits or fewer no other decimal of its
 * length rounds to the same double, so the shortest is that exact text.
 */
export function exactShortest(x: number, digits: number): string | null {
  const most = Math.min(15, digits);
  if (Number.isSafeInteger(x)) return x < 10 ** digits ? String(x) : null;
  if (x < 1e-4 || x >= 10 ** most) return null;
  const text = String(x);
  const point = text.indexOf('.');
  if (point === -1) return null;
  let leadingZeros = 0; // of a fraction: "0.00" before its first significant digit
  if (x < 1) for (let i = point + 1; text.charCodeAt(i) === 48; i++) leadingZeros++;
  const significant = text.length - 1 - (x < 1 ? 1 + leadingZeros : 0);
  const fractional = text.length - point - 1;
  return significant <= most && -lowestBit(x) <= fractional ? text : null;
}

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer); // little endian: words[0] low, words[1] high

/** k of x = m * 2^k with m odd (x finite, non-zero). */
export function lowestBit(x: number): number {
  bits[0] = x;
  const lo = words[0];
  const hi = words[1];
  const biased = (hi >>> 20) & 0x7ff;
  const mantHi = (hi & 0xfffff) | (biased === 0 ? 0 : 0x100000);
  return (biased === 0 ? -1074 : biased - 1075) + (lo !== 0 ? trailingZeros(lo) : 32 + trailingZeros(mantHi));
}

function trailingZeros(v: number): number {
  return 31 - Math.clz32(v & -v);
}

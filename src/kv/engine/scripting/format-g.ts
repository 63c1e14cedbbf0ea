// C's "%.<digits>g" for doubles, which Redis's Lua uses where numbers become text: 17 digits
// for redis.call arguments (Redis 7.0), 14 for cjson.encode (lua-cjson's default).

export function formatG(n: number, digits: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential(digits - 1).split('e');
  const power = Number(e);
  if (power < -4 || power >= digits) {
    const m = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
    return `${m}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const fixed = n.toFixed(digits - 1 - power);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

// A structure's size as the tables print it.

/** 10000 -> 10k, 1000000 -> 1M. */
export function label(n: number): string {
  if (n >= 1e6 && n % 1e6 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 1e3 === 0) return `${n / 1e3}k`;
  return String(n);
}

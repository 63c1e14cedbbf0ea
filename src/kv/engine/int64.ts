// Redis's 64-bit integers as text (util.c string2ll): what the engine needs to tell an
// integer-encoded value from a string (MEMORY USAGE, listpack sizes, intsets), and the base of
// the commands' integer parsers (commands/args.ts). The engine owns it so it imports nothing
// from commands/.

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/** Redis's string2ll as a bigint: optional '-', digits, no '+', spaces or leading zeros. */
export function parseInt64(s: string): bigint | undefined {
  if (!isIntegerText(s)) return undefined;
  const n = BigInt(s);
  return n > INT64_MAX || n < INT64_MIN ? undefined : n;
}

/** Digits with an optional '-', no '+', spaces or leading zeros, at most 20 characters. */
export function isIntegerText(s: string): boolean {
  const len = s.length;
  if (len === 0 || len > 20) return false;
  let i = s.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (i === len) return false;
  if (s.charCodeAt(i) === 48 /* 0 */) return len === i + 1 && i === 0;
  for (; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

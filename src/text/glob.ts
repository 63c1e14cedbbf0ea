// Redis glob matching, a port of util.c stringmatchlen over byte strings: * ? [abc] [^a]
// [a-z] and backslash escapes. Used by KEYS, SCAN MATCH, CONFIG GET and ACL key patterns, and
// by the vector filter's GLOB; it lives outside both services so neither imports the other.
//
// Kept faithful where Redis is surprising, because users compare against real Redis:
// - an empty string matches no pattern, not even "*" (KEYS special-cases a lone "*" itself);
// - an unclosed class ("[ab") still matches, against its listed characters;
// - a range's ends are swapped before they are lowercased, so nocase [Z-a] matches nothing;
// - an escaped character inside a class is compared exactly, even with nocase;
// - case folding is ASCII only, as C's tolower in the C locale;
// - range ends compare as signed chars, so [a-\xe9] spans \xe9..a, not a..\xe9.

const MATCH = 1;
const NO_MATCH = 0;
/** No match, and none is possible with a later start either: stop trying longer '*' spans. */
const NO_MATCH_ANYWHERE = -1;
const MAX_NESTING = 1000;

export function globMatch(pattern: string, text: string, nocase = false): boolean {
  return match(pattern, 0, text, 0, nocase, 0) === MATCH;
}

function match(p: string, pi: number, s: string, si: number, nocase: boolean, nesting: number): number {
  if (nesting > MAX_NESTING) return NO_MATCH;
  const plen = p.length;
  const slen = s.length;
  while (pi < plen && si < slen) {
    const pc = p.charCodeAt(pi);
    if (pc === 42 /* * */) {
      while (pi + 1 < plen && p.charCodeAt(pi + 1) === 42) pi++;
      if (pi + 1 === plen) return MATCH;
      for (; si < slen; si++) {
        const r = match(p, pi + 1, s, si, nocase, nesting + 1);
        if (r === MATCH) return MATCH;
        if (r === NO_MATCH_ANYWHERE) return NO_MATCH_ANYWHERE;
      }
      // The rest of the pattern matches from no position of the rest of the text, so a longer
      // span for an earlier '*' cannot help either.
      return NO_MATCH_ANYWHERE;
    } else if (pc === 63 /* ? */) {
      si++;
    } else if (pc === 91 /* [ */) {
      pi++;
      const not = p.charCodeAt(pi) === 94; /* ^ */
      if (not) pi++;
      const c = s.charCodeAt(si);
      let matched = false;
      for (;;) {
        if (p.charCodeAt(pi) === 92 /* \ */ && pi + 1 < plen) {
          pi++;
          if (p.charCodeAt(pi) === c) matched = true;
        } else if (p.charCodeAt(pi) === 93 /* ] */) {
          break;
        } else if (pi >= plen) {
          pi--;
          break;
        } else if (pi + 2 < plen && p.charCodeAt(pi + 1) === 45 /* - */) {
          let start = signed(p.charCodeAt(pi));
          let end = signed(p.charCodeAt(pi + 2));
          if (start > end) [start, end] = [end, start];
          const x = nocase ? lower(signed(c)) : signed(c);
          if (nocase) {
            start = lower(start);
            end = lower(end);
          }
          pi += 2;
          if (x >= start && x <= end) matched = true;
        } else if (same(p.charCodeAt(pi), c, nocase)) {
          matched = true;
        }
        pi++;
      }
      if (not) matched = !matched;
      if (!matched) return NO_MATCH;
      si++;
    } else {
      if (pc === 92 /* \ */ && pi + 1 < plen) pi++;
      if (!same(p.charCodeAt(pi), s.charCodeAt(si), nocase)) return NO_MATCH;
      si++;
    }
    pi++;
    if (si === slen) {
      while (pi < plen && p.charCodeAt(pi) === 42) pi++;
      break;
    }
  }
  return pi === plen && si === slen ? MATCH : NO_MATCH;
}

/** A byte as C's signed char on x86-64, where bytes >= 0x80 sort before ASCII in a range. */
function signed(c: number): number {
  return c > 127 ? c - 256 : c;
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

function same(a: number, b: number, nocase: boolean): boolean {
  return a === b || (nocase && lower(a) === lower(b));
}

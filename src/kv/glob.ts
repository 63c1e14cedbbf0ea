// Redis glob matching (util.c stringmatchlen) over byte strings: * ? [abc] [^a] [a-z] and
// backslash escapes. Used by KEYS, SCAN MATCH and ACL key patterns.

export function globMatch(pattern: string, text: string, nocase = false): boolean {
  return match(pattern, 0, text, 0, nocase, 0);
}

const MAX_NESTING = 1000;

function match(p: string, pi: number, s: string, si: number, nocase: boolean, nesting: number): boolean {
  if (nesting > MAX_NESTING) return false;
  const plen = p.length;
  const slen = s.length;
  while (pi < plen && si < slen) {
    const pc = p[pi];
    if (pc === '*') {
      while (pi + 1 < plen && p[pi + 1] === '*') pi++;
      if (pi + 1 === plen) return true;
      for (let k = si; k < slen; k++) if (match(p, pi + 1, s, k, nocase, nesting + 1)) return true;
      return false;
    } else if (pc === '?') {
      si++;
    } else if (pc === '[') {
      pi++;
      const not = p[pi] === '^';
      if (not) pi++;
      let matched = false;
      for (;;) {
        if (pi >= plen) {
          pi--;
          break;
        }
        if (p[pi] === '\\' && pi + 1 < plen) {
          pi++;
          if (same(p[pi], s[si], nocase)) matched = true;
        } else if (p[pi] === ']') {
          break;
        } else if (pi + 2 < plen && p[pi + 1] === '-') {
          let start = code(p[pi], nocase);
          let end = code(p[pi + 2], nocase);
          const c = code(s[si], nocase);
          if (start > end) [start, end] = [end, start];
          pi += 2;
          if (c >= start && c <= end) matched = true;
        } else if (same(p[pi], s[si], nocase)) {
          matched = true;
        }
        pi++;
      }
      if (not) matched = !matched;
      if (!matched) return false;
      si++;
    } else {
      if (pc === '\\' && pi + 1 < plen) pi++;
      if (!same(p[pi], s[si], nocase)) return false;
      si++;
    }
    pi++;
  }
  if (si < slen) return false;
  while (pi < plen && p[pi] === '*') pi++;
  return pi === plen;
}

function code(c: string, nocase: boolean): number {
  return nocase ? c.toLowerCase().charCodeAt(0) : c.charCodeAt(0);
}

function same(a: string, b: string, nocase: boolean): boolean {
  return a === b || (nocase && a.toLowerCase() === b.toLowerCase());
}

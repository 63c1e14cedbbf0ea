// Path and query parsing by scanning character codes. `new URL()` costs more than a whole
// key-value GET; these do only what routing needs.

/** Percent-decodes into a byte string (see kv/bytes.ts); a malformed escape stays as it is. */
export function percentDecode(s: string, plusIsSpace = false): string {
  if (s.indexOf('%') === -1 && (!plusIsSpace || s.indexOf('+') === -1)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 /* % */ && i + 2 < s.length && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      out += String.fromCharCode(parseInt(s.substr(i + 1, 2), 16));
      i += 2;
    } else if (c === 43 /* + */ && plusIsSpace) out += ' ';
    else out += s[i];
  }
  return out;
}

/** A byte string (from percentDecode or queryPairs) read as the UTF-8 text it encodes. */
export function utf8Text(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Percent-decodes a path segment or query part that carries text: the bytes are UTF-8. */
export function percentDecodeText(s: string, plusIsSpace = false): string {
  return utf8Text(percentDecode(s, plusIsSpace));
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * Splits a path into its non-empty segments, still percent-encoded. `indexOf` finds each '/':
 * over a long segment (a value in /set/key/value) it is about 3x a loop over character codes.
 */
export function pathSegments(path: string, from = 0): string[] {
  const out: string[] = [];
  let start = from;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (end > start) out.push(path.slice(start, end));
    start = end + 1;
  }
  return out;
}

/**
 * The query's name/value pairs in order, percent-decoded to byte strings. A name without '='
 * (`?NX`) has no value: undefined, where `?NX=` has the empty one.
 */
export function queryPairs(query: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  if (query === '') return out;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq === -1) out.push([percentDecode(part, true), undefined]);
    else out.push([percentDecode(part.slice(0, eq), true), percentDecode(part.slice(eq + 1), true)]);
  }
  return out;
}

/** One query parameter's decoded value ('' when it has none). */
export function queryParam(query: string, name: string): string | undefined {
  if (query === '' || query.indexOf(name) === -1) return undefined;
  for (const [k, v] of queryPairs(query)) if (k === name) return v ?? '';
  return undefined;
}

/** One query parameter's value as UTF-8 text ('' when it has none). */
export function queryText(query: string, name: string): string | undefined {
  const v = queryParam(query, name);
  return v === undefined ? undefined : utf8Text(v);
}

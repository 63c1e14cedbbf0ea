// Request bodies, for the stream, vector and queue services: the one reader of bytes (with the
// size limit) and of JSON (one empty-body rule, a bound on nesting). An empty or blank body is
// no body (undefined): each endpoint answers a missing body its own way.
//
// The bound on nesting:
// JSON.parse itself takes any depth, but what walks its result later (JSON.stringify when the
// value is stored, filters, metadata indexes) recurses once per level and would overflow the
// stack on a body of a few thousand brackets: such a body gets 400 here instead. The scan is
// one pass over the text without recursion, and stops at the first level past the limit.

import { ServiceError } from '../errors/service-error.js';
import type { HttpRequest } from './http.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/** The limits on a request body every service reads (the config's top-level settings). */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxNestingDepth: number;
}

export const tooDeep = (max: number) =>
  new ServiceError(400, `the JSON nests deeper than ${max} levels of arrays and objects (maxNestingDepth)`);

/** What the nesting scan stops at: a quote, or an array's or an object's bracket. */
const STRUCTURE = /["[\]{}]/g;

/**
 * Whether JSON `text` nests arrays and objects more than `max` levels deep (brackets inside
 * strings do not count). A regular expression finds the next bracket or quote and indexOf a
 * string's end, natively: a JS loop over every character cost more than JSON.parse itself on
 * bodies of numbers (a batch of vectors).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  STRUCTURE.lastIndex = 0;
  for (let m = STRUCTURE.exec(text); m !== null; m = STRUCTURE.exec(text)) {
    const c = text.charCodeAt(m.index);
    if (c === QUOTE) STRUCTURE.lastIndex = stringEnd(text, m.index + 1);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else depth--;
  }
  return false;
}

/** Where the string whose text starts at `from` ends: past the first quote not escaped (preceded by an even run of backslashes). */
function stringEnd(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let before = quote - 1;
    while (before >= from && text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
  }
  return text.length;
}

/** `text` parsed; `notJson` when it is not JSON, tooDeep(maxDepth) when it nests deeper. */
function parseJsonText(text: string, maxDepth: number, notJson: ServiceError): unknown {
  if (nestsDeeperThan(text, maxDepth)) return tooDeep(maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return notJson;
  }
}

/** What a service answers when a body is over the limit or is not JSON, in its own texts. */
export interface BodyErrors {
  readonly tooLarge: ServiceError;
  readonly notJson: ServiceError;
}

/** The whole body, or `tooLarge` when it is over `maxBytes`. */
export async function readBody(req: HttpRequest, maxBytes: number, tooLarge: ServiceError): Promise<Buffer | ServiceError> {
  const bytes = await req.body(maxBytes);
  return bytes === null ? tooLarge : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The body parsed as JSON: undefined when empty or blank, else the value or the first error. */
export async function readJsonBody(req: HttpRequest, limits: BodyLimits, errors: BodyErrors): Promise<unknown> {
  const bytes = await readBody(req, limits.maxBodyBytes, errors.tooLarge);
  if (!(bytes instanceof Buffer)) return bytes;
  const text = bytes.toString('utf8');
  return text.trim() === '' ? undefined : parseJsonText(text, limits.maxNestingDepth, errors.notJson);
}

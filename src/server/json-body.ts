// Request bodies as JSON, for the stream, vector and queue services, with a bound on nesting.
// JSON.parse itself takes any depth, but what walks its result later (JSON.stringify when the
// value is stored, filters, metadata indexes) recurses once per level and would overflow the
// stack on a body of a few thousand brackets: such a body gets 400 here instead. The scan is
// one pass over the text without recursion, and stops at the first level past the limit.

import { ServiceError } from '../errors/service-error.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The limits on a request body every service reads (the config's top-level settings). */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxNestingDepth: number;
}

export const tooDeep = (max: number) =>
  new ServiceError(400, `the JSON nests deeper than ${max} levels of arrays and objects (maxNestingDepth)`);

/** Whether JSON `text` nests arrays and objects more than `max` levels deep (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** `text` parsed; `notJson` when it is not JSON, tooDeep(maxDepth) when it nests deeper. */
export function parseJsonText(text: string, maxDepth: number, notJson: ServiceError): unknown {
  if (nestsDeeperThan(text, maxDepth)) return tooDeep(maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return notJson;
  }
}

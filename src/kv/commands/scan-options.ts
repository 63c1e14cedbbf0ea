// The grammar the SCAN family shares (Redis db.c parseScanCursorOrReply and the option loop
// of scanGenericCommand): the cursor, then MATCH pattern and COUNT count in any order, plus
// the options each command adds (SCAN's TYPE and WITHTYPE, HSCAN's NOVALUES).

import { NOT_INTEGER, SYNTAX, type ReplyError } from '../errors.js';
import { parseInteger } from './args.js';
import type { Args } from './spec.js';

const UINT64_MAX = 18446744073709551615n;
const DEFAULT_COUNT = 10;

/**
 * A cursor as Redis's strtoul-based parser takes it: optional sign, decimal digits (none at
 * all reads as 0), up to 2^64 - 1, a negative one wrapping around. Cursors are ranks that
 * never pass 2^53, so a cursor beyond that simply ends the walk.
 */
export function parseCursor(s: string): number | undefined {
  if (!/^(?:[+-]?\d+)?$/.test(s)) return undefined;
  if (s === '') return 0;
  let n = BigInt(s);
  if (n > UINT64_MAX || n < -UINT64_MAX) return undefined;
  if (n < 0n) n += UINT64_MAX + 1n;
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

export interface ScanOptions {
  count: number;
  /** null when absent or "*", which matches every name, the empty one included. */
  pattern: string | null;
  /** The command's own options that were given, by lower-case name: a flag maps to ''. */
  readonly extras: Map<string, string>;
}

/**
 * The options from argv[at] on. `flags` are the command's bare words, `valued` its words
 * that take an argument. Repeats are allowed, the last one winning; anything else, or a
 * COUNT below 1, is a syntax error.
 */
export function readScanOptions(
  argv: Args,
  at: number,
  flags: readonly string[] = [],
  valued: readonly string[] = [],
): ScanOptions | ReplyError {
  const opts: ScanOptions = { count: DEFAULT_COUNT, pattern: null, extras: new Map() };
  for (let i = at; i < argv.length; i++) {
    const w = argv[i].toLowerCase();
    const hasValue = i + 1 < argv.length;
    if (w === 'count' && hasValue) {
      const n = parseInteger(argv[++i]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 1) return SYNTAX;
      opts.count = n;
    } else if (w === 'match' && hasValue) {
      const pattern = argv[++i];
      opts.pattern = pattern === '*' ? null : pattern;
    } else if (valued.includes(w) && hasValue) {
      opts.extras.set(w, argv[++i]);
    } else if (flags.includes(w)) {
      opts.extras.set(w, '');
    } else {
      return SYNTAX;
    }
  }
  return opts;
}

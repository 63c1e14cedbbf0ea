// The grammar the SCAN family shares (Redis db.c parseScanCursorOrReply and
// scanGenericCommand): the cursor, and the MATCH and COUNT options of the per-key scans
// (HSCAN, SSCAN, ZSCAN). SCAN itself adds TYPE and WITHTYPE in generic/scan.ts.

import { NOT_INTEGER, SYNTAX, type ReplyError } from '../errors.js';
import { parseInteger } from './args.js';
import type { Args } from './spec.js';

const UINT64_MAX = 18446744073709551615n;
export const DEFAULT_SCAN_COUNT = 10;

/**
 * A cursor as Redis's strtoul-based parser takes it: optional sign, decimal digits (none at
 * all reads as 0), up to 2^64 - 1, a negative one wrapping around. Larder's cursors never pass
 * 2^53, so a cursor beyond that simply ends the walk.
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
  readonly count: number;
  /** null when every element matches (no MATCH, or MATCH "*"). */
  readonly pattern: string | null;
}

/** [MATCH pattern] [COUNT count] from argv[at] on, in any order, the last of each winning. */
export function readScanOptions(argv: Args, at: number): ScanOptions | ReplyError {
  let count = DEFAULT_SCAN_COUNT;
  let pattern: string | null = null;
  for (let i = at; i < argv.length; i += 2) {
    const w = argv[i].toLowerCase();
    if (i + 1 >= argv.length) return SYNTAX;
    if (w === 'count') {
      const n = parseInteger(argv[i + 1]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 1) return SYNTAX;
      count = n;
    } else if (w === 'match') {
      pattern = argv[i + 1] === '*' ? null : argv[i + 1];
    } else {
      return SYNTAX;
    }
  }
  return { count, pattern };
}

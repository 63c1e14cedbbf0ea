// SSCAN (Redis t_set.c sscanCommand over db.c scanGenericCommand).
//
// A hashtable set is walked by insertion rank (see engine/set/set-value.ts): the cursor stays
// valid while the set changes, and a member present for the whole walk is returned exactly
// once. An intset is answered whole in one reply with cursor 0, whatever the cursor and COUNT,
// as Redis does for its compact encodings.

import { SET_KIND, type SetValue } from '../../engine/set/set-value.js';
import { INVALID_CURSOR, isError } from '../../errors.js';
import { globMatch } from '../../../text/glob.js';
import type { Reply } from '../../reply.js';
import { parseCursor, readScanOptions } from '../scan-options.js';
import type { Args, Ctx } from '../spec.js';
import { readTyped } from '../typed.js';

const EMPTY_SCAN: Reply = ['0', []];

// SSCAN key cursor [MATCH pattern] [COUNT count]
export function sscanCommand(ctx: Ctx, argv: Args): Reply {
  const cursor = parseCursor(argv[2]);
  if (cursor === undefined) return INVALID_CURSOR;
  const set = readTyped<SetValue>(ctx.ks, argv[1], SET_KIND);
  if (set === undefined) return EMPTY_SCAN;
  if (isError(set)) return set;
  const opts = readScanOptions(argv, 3);
  if (isError(opts)) return opts;
  const { pattern } = opts;
  const found: string[] = [];
  const keep = (m: string) => {
    if (pattern === null || globMatch(pattern, m)) found.push(m);
  };
  if (set.intset) {
    for (const m of set.members()) keep(m);
    return ['0', found];
  }
  return [String(set.scan(cursor, opts.count, keep)), found];
}

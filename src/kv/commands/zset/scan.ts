// ZSCAN (Redis zscanCommand and scanGenericCommand). As in Redis, a small set (listpack
// encoded) comes back whole in one call with cursor 0, whatever the cursor and COUNT. A larger
// one is walked by insertion rank (see ZSet.scan): a member present for the whole walk is
// returned exactly once.

import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { INVALID_CURSOR, isError } from '../../errors.js';
import { globMatch } from '../../../text/glob.js';
import type { Reply } from '../../reply.js';
import { replyDouble } from '../reply-double.js';
import { parseCursor, readScanOptions } from '../scan-options.js';
import type { Args, Ctx } from '../spec.js';
import { readTyped } from '../typed.js';

// ZSCAN key cursor [MATCH pattern] [COUNT count]
export function zscanCommand(ctx: Ctx, argv: Args): Reply {
  const cursor = parseCursor(argv[2]);
  if (cursor === undefined) return INVALID_CURSOR;
  // The key comes before the options: a missing key answers an empty scan whatever follows.
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  if (z === undefined) return ['0', []];
  const options = readScanOptions(argv, 3);
  if (isError(options)) return options;
  const { pattern } = options;
  const out: string[] = [];
  const visit = (member: string, score: number) => {
    if (pattern !== null && !globMatch(pattern, member)) return;
    out.push(member, replyDouble(score));
  };
  if (z.listpack) {
    for (let x = z.first(); x !== null; x = x.next()) visit(x.member, x.score);
    return ['0', out];
  }
  const next = z.scan(cursor, options.count, visit);
  return [String(next), out];
}

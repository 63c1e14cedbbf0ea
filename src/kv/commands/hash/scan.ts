// HSCAN (Redis t_hash.c hscanCommand over db.c scanGenericCommand), with Redis 7.4's
// NOVALUES. As in Redis, a listpack-sized hash answers whole in one call with cursor 0; a
// larger one pages by cursor (field insertion ranks, see hash-value.ts).

import type { Field } from '../../engine/hash/hash-value.js';
import { INVALID_CURSOR, isError } from '../../errors.js';
import { globMatch } from '../../../text/glob.js';
import type { Reply } from '../../reply.js';
import { parseCursor, readScanOptions } from '../scan-options.js';
import type { Args, Ctx } from '../spec.js';
import { readHash } from './lookup.js';

// HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]
export function hscanCommand(ctx: Ctx, argv: Args): Reply {
  const cursor = parseCursor(argv[2]);
  if (cursor === undefined) return INVALID_CURSOR;
  const h = readHash(ctx, argv[1]);
  // Redis answers a missing key before it reads the options, so they go unchecked then.
  if (h === undefined) return ['0', []];
  if (isError(h)) return h;
  const opts = readScanOptions(argv, 3, ['novalues']);
  if (isError(opts)) return opts;
  const { pattern } = opts;
  const values = !opts.extras.has('novalues');
  const out: string[] = [];
  const visit = (f: Field) => {
    if (pattern !== null && !globMatch(pattern, f.name)) return;
    out.push(f.name);
    if (values) out.push(f.value);
  };
  if (h.compact) {
    for (const f of h.fields()) visit(f);
    return ['0', out];
  }
  return [String(h.scan(cursor, opts.count, visit)), out];
}

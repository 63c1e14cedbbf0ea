// Walking the keyspace (Redis db.c keysCommand, scanGenericCommand, randomkeyCommand). These
// are the wide reads refused to read-only tokens.
//
// SCAN cursors are keyspace insertion ranks (see keyspace.ts), printed as decimal strings: a
// key present for the whole walk is returned exactly once, never twice.

import { INVALID_CURSOR, isError } from '../../errors.js';
import { typeName } from '../../engine/value.js';
import { globMatch } from '../../../text/glob.js';
import type { Reply } from '../../reply.js';
import { parseCursor, readScanOptions } from '../scan-options.js';
import type { Args, Ctx } from '../spec.js';

// KEYS pattern
export function keysCommand(ctx: Ctx, argv: Args): Reply {
  const pattern = argv[1];
  // A lone "*" takes every key, the empty one included, which stringmatchlen would refuse.
  const all = pattern === '*';
  const out: string[] = [];
  for (const key of ctx.ks.keys()) if (all || globMatch(pattern, key)) out.push(key);
  return out;
}

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] [WITHTYPE]
// WITHTYPE is Upstash's: each key is followed by its type, as the SDK's scan({withType}) reads.
export function scanCommand(ctx: Ctx, argv: Args): Reply {
  const cursor = parseCursor(argv[1]);
  if (cursor === undefined) return INVALID_CURSOR;
  const opts = readScanOptions(argv, 2, ['withtype'], ['type']);
  if (isError(opts)) return opts;
  const { count, pattern } = opts;
  // Compared without case; an unknown type matches nothing (Redis 7 does not reject it).
  const type = opts.extras.get('type')?.toLowerCase() ?? null;
  const withType = opts.extras.has('withtype');
  const keys: string[] = [];
  const ks = ctx.ks;
  const next = ks.scan(cursor, count, (s) => {
    const key = ks.keyAt(s);
    if (pattern !== null && !globMatch(pattern, key)) return;
    const t = typeName(ks.valueAt(s));
    if (type !== null && t.toLowerCase() !== type) return;
    keys.push(key);
    if (withType) keys.push(t);
  });
  return [String(next), keys];
}

// RANDOMKEY
export function randomkeyCommand(ctx: Ctx): Reply {
  return ctx.ks.randomKey();
}

// Serializing one key's value and creating a key from it (Redis cluster.c dumpCommand,
// restoreCommand). The payload is Larder's own (engine/value-codec.ts), not Redis's RDB
// format: payloads move between Larder databases, not to or from a real Redis.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { BAD_PAYLOAD, BUSYKEY, INVALID_FREQ, INVALID_IDLETIME, INVALID_TTL, NOT_INTEGER, SYNTAX } from '../../errors.js';
import { decodeValue, encodeValue } from '../../engine/value-codec.js';
import { OK, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';

// DUMP key
export function dumpCommand(ctx: Ctx, argv: Args): Reply {
  const s = ctx.ks.lookup(argv[1]);
  return s === undefined ? null : encodeValue(ctx.ks.valueAt(s));
}

// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]
// A relative ttl is logged as ABSTTL with the absolute time, as Redis propagates it.
export function restoreCommand(ctx: Ctx, argv: Args): Reply {
  let replace = false;
  let absTtl = false;
  let idle = -1;
  let freq = -1;
  for (let i = 4; i < argv.length; i++) {
    const w = argv[i].toLowerCase();
    const hasValue = i + 1 < argv.length;
    if (w === 'replace') {
      replace = true;
    } else if (w === 'absttl') {
      absTtl = true;
    } else if (w === 'idletime' && hasValue && freq === -1) {
      const n = parseInteger(argv[++i]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 0) return INVALID_IDLETIME;
      idle = n;
    } else if (w === 'freq' && hasValue && idle === -1) {
      const n = parseInteger(argv[++i]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 0 || n > 255) return INVALID_FREQ;
      // Accepted and not kept: Larder tracks recency (LRU), not frequency, as Redis does
      // under any policy but an LFU one.
      freq = n;
    } else {
      return SYNTAX;
    }
  }
  const ks = ctx.ks;
  const key = argv[1];
  if (!replace && ks.lookup(key) !== undefined) return BUSYKEY;
  let ttl = parseInteger(argv[2]);
  if (ttl === undefined) return NOT_INTEGER;
  if (ttl < 0) return INVALID_TTL;
  const value = decodeValue(argv[3]);
  if (value === null) return BAD_PAYLOAD;

  const deleted = replace && ks.delete(key);
  const now = ks.now();
  if (ttl !== 0 && !absTtl) ttl += now;
  if (ttl !== 0 && ttl <= now && !ks.loading) {
    // Already expired: nothing is created, and only a replaced key's deletion is logged.
    if (!deleted) return unchanged(ctx, OK);
    ctx.events.notify(KeyEvent.generic, 'del', key);
    ctx.rewrite([['del', key]]);
    return OK;
  }
  const s = ks.insert(key, value, ttl);
  if (idle >= 0) ks.setIdleSecondsAt(s, idle);
  ctx.events.notify(KeyEvent.generic, 'restore', key);
  if (ttl !== 0 && !absTtl) ctx.rewrite([[...argv.slice(0, 2), String(ttl), ...argv.slice(3), 'ABSTTL']]);
  return OK;
}

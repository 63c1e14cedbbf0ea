// How a command's STORE form (ZUNIONSTORE, ZRANGESTORE, GEOSEARCHSTORE, SORT ... STORE, BITOP)
// ends, as Redis ends each of them: a non-empty result replaces the destination and its TTL,
// published under the command's own event; an empty one deletes the destination instead,
// published as `del` only when there was a key to delete.

import { KeyEvent } from '../engine/pubsub/keyspace-events.js';
import type { Value } from '../engine/value.js';
import type { Reply } from '../reply.js';
import { unchanged, type Ctx } from './spec.js';

/** Stores `result` (holding `size` elements) at `dst` with `event` of class `type`; replies `size`. */
export function storeResult(ctx: Ctx, dst: string, result: Value, size: number, type: number, event: string): Reply {
  if (size === 0) return dropDestination(ctx, dst);
  ctx.ks.set(dst, result);
  ctx.events.notify(type, event, dst);
  return size;
}

/** Deletes `dst` for an empty result and replies 0; nothing is logged when there was no key. */
export function dropDestination(ctx: Ctx, dst: string): Reply {
  if (!ctx.ks.delete(dst)) return unchanged(ctx, 0);
  ctx.events.notify(KeyEvent.generic, 'del', dst);
  return 0;
}

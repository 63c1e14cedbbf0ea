// XDELEX and XACKDEL (Redis 8.2): deletion that decides what happens to consumer groups'
// references to the entries. Per id the reply is -1 (no such entry; for XACKDEL: not pending
// in the group), 1 (deleted; for XACKDEL: acknowledged and deleted), or 2 (kept under ACKED
// because a group still has it pending or has not delivered it yet). Both publish XDEL's
// `xdel` when they deleted an entry, as Redis 8.2 does; acknowledging alone publishes nothing.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { StreamId } from '../../engine/stream/stream-id.js';
import type { RefPolicy, StreamValue } from '../../engine/stream/stream-value.js';
import { NUMIDS_MISMATCH, NUMIDS_NOT_POSITIVE, ReplyError, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { parseStrictId } from './ids.js';
import { readStream } from './lookup.js';
import { isRefPolicy } from './ref-policy.js';

/** [KEEPREF | DELREF | ACKED] IDS numids id [id ...], from argv[from] on. */
function readPolicyIds(argv: Args, from: number): { policy: RefPolicy; ids: StreamId[] } | ReplyError {
  let policy: RefPolicy | undefined;
  let ids: StreamId[] | undefined;
  for (let i = from; i < argv.length; i++) {
    const opt = argv[i].toLowerCase();
    if (isRefPolicy(opt) && policy === undefined) policy = opt;
    else if (opt === 'ids' && ids === undefined && i + 1 < argv.length) {
      const n = parseInteger(argv[i + 1]);
      if (n === undefined || n < 1) return NUMIDS_NOT_POSITIVE;
      if (n > argv.length - i - 2) return NUMIDS_MISMATCH;
      ids = [];
      for (const text of argv.slice(i + 2, i + 2 + n)) {
        const id = parseStrictId(text);
        if (id instanceof ReplyError) return id;
        ids.push(id);
      }
      i += 1 + n;
    } else return SYNTAX;
  }
  return ids === undefined ? SYNTAX : { policy: policy ?? 'keepref', ids };
}

/** Deletes the entry as the policy says; 1 when deleted, 2 when kept for a group. */
function deleteEntry(s: StreamValue, id: StreamId, policy: RefPolicy): 1 | 2 | -1 {
  if (policy === 'acked' && s.referenced(id)) return 2;
  if (!s.delete(id)) return -1;
  if (policy === 'delref') s.dropReferences(id);
  return 1;
}

// XDELEX key [KEEPREF | DELREF | ACKED] IDS numids id [id ...]
export function xdelexCommand(ctx: Ctx, argv: Args): Reply {
  const r = readPolicyIds(argv, 2);
  if (r instanceof ReplyError) return r;
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  if (s === undefined) return unchanged(ctx, r.ids.map(() => -1));
  const out = r.ids.map((id) => (s.get(id) === undefined ? -1 : deleteEntry(s, id, r.policy)));
  if (!out.includes(1)) return unchanged(ctx, out);
  ctx.events.notify(KeyEvent.stream, 'xdel', argv[1]);
  return out;
}

// XACKDEL key group [KEEPREF | DELREF | ACKED] IDS numids id [id ...]
export function xackdelCommand(ctx: Ctx, argv: Args): Reply {
  const r = readPolicyIds(argv, 3);
  if (r instanceof ReplyError) return r;
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  const g = s?.groups.get(argv[2]);
  if (s === undefined || g === undefined) return unchanged(ctx, r.ids.map(() => -1));
  let deleted = false;
  const out = r.ids.map((id) => {
    if (!g.ack(id)) return -1;
    // Acknowledged; an entry already gone counts as deleted.
    if (s.get(id) === undefined) return 1;
    const result = deleteEntry(s, id, r.policy);
    deleted ||= result === 1;
    return result;
  });
  if (out.every((n) => n === -1)) return unchanged(ctx, out);
  if (deleted) ctx.events.notify(KeyEvent.stream, 'xdel', argv[1]);
  return out;
}

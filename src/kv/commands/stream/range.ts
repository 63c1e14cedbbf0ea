// Reading and editing entries by id: XRANGE, XREVRANGE, XLEN, XDEL, XSETID.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { MIN_ID } from '../../engine/stream/stream-id.js';
import {
  ENTRIES_ADDED_NEGATIVE,
  NO_SUCH_KEY,
  NOT_INTEGER,
  ReplyError,
  SYNTAX,
  XSETID_ENTRIES_ADDED_SMALL,
  XSETID_SMALLER_THAN_MAXDELETED,
  XSETID_SMALLER_THAN_TOP,
} from '../../errors.js';
import { NULL_ARRAY, OK, type Reply } from '../../reply.js';
import { parseInt64, parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { parseBound, parseStrictId } from './ids.js';
import { entryReply, readStream } from './lookup.js';

// XRANGE key start end [COUNT count]    XREVRANGE key end start [COUNT count]
export function xrangeGeneric(ctx: Ctx, argv: Args, rev: boolean): Reply {
  const start = parseBound(argv[rev ? 3 : 2], false);
  if (start instanceof ReplyError) return start;
  const end = parseBound(argv[rev ? 2 : 3], true);
  if (end instanceof ReplyError) return end;
  let count = -1;
  for (let i = 4; i < argv.length; i++) {
    if (argv[i].toLowerCase() !== 'count' || i + 1 >= argv.length) return SYNTAX;
    const n = parseInteger(argv[++i]);
    if (n === undefined) return NOT_INTEGER;
    count = Math.max(n, 0);
  }
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  if (s === undefined) return [];
  if (count === 0) return NULL_ARRAY;
  const out: Reply[] = [];
  for (const e of s.store.range(start, end, rev)) {
    out.push(entryReply(e));
    if (out.length === count) break;
  }
  return out;
}

// XLEN key
export function xlenCommand(ctx: Ctx, argv: Args): Reply {
  const s = readStream(ctx.ks, argv[1]);
  return s instanceof ReplyError ? s : (s?.length ?? 0);
}

// XDEL key id [id ...]
export function xdelCommand(ctx: Ctx, argv: Args): Reply {
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  if (s === undefined) return unchanged(ctx, 0);
  const ids = [];
  for (let i = 2; i < argv.length; i++) {
    const id = parseStrictId(argv[i]);
    if (id instanceof ReplyError) return id;
    ids.push(id);
  }
  let deleted = 0;
  for (const id of ids) if (s.delete(id)) deleted++;
  if (deleted === 0) return unchanged(ctx, 0);
  ctx.events.notify(KeyEvent.stream, 'xdel', argv[1]);
  return deleted;
}

// XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]
export function xsetidCommand(ctx: Ctx, argv: Args): Reply {
  const id = parseStrictId(argv[2]);
  if (id instanceof ReplyError) return id;
  let entriesAdded = -1n;
  let maxDeleted = MIN_ID;
  for (let i = 3; i < argv.length; i += 2) {
    const opt = argv[i].toLowerCase();
    if (opt === 'entriesadded' && i + 1 < argv.length) {
      const n = parseInt64(argv[i + 1]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 0n) return ENTRIES_ADDED_NEGATIVE;
      entriesAdded = n;
    } else if (opt === 'maxdeletedid' && i + 1 < argv.length) {
      const m = parseStrictId(argv[i + 1]);
      if (m instanceof ReplyError) return m;
      if (id < m) return XSETID_SMALLER_THAN_MAXDELETED;
      maxDeleted = m;
    } else return SYNTAX;
  }
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  if (s === undefined) return NO_SUCH_KEY;
  if (s.length > 0) {
    if (id < s.store.last()!.id) return XSETID_SMALLER_THAN_TOP;
    if (entriesAdded !== -1n && BigInt(s.length) > entriesAdded) return XSETID_ENTRIES_ADDED_SMALL;
  }
  s.lastId = id;
  if (entriesAdded !== -1n) s.entriesAdded = entriesAdded;
  if (maxDeleted !== MIN_ID) s.maxDeletedId = maxDeleted;
  ctx.events.notify(KeyEvent.stream, 'xsetid', argv[1]);
  return OK;
}

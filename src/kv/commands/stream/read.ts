// XREAD and XREADGROUP (Redis's xreadCommand and streamReplyWithRange). A group read logs
// what it did as Redis propagates it: each delivered entry as XCLAIM ... FORCE JUSTID with
// its delivery time and count, the group's position as XGROUP SETID ... ENTRIESREAD, and a
// consumer it created as XGROUP CREATECONSUMER (published as xgroup-createconsumer, its only
// keyspace event).

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ConsumerGroup, INVALID_ENTRIES_READ, type Consumer, type Nack } from '../../engine/stream/consumer-group.js';
import { formatId, MAX_ID, type StreamId } from '../../engine/stream/stream-id.js';
import type { StreamValue } from '../../engine/stream/stream-value.js';
import {
  noKeyOrGroupRead,
  NOT_INTEGER,
  ReplyError,
  SYNTAX,
  XREAD_GROUP_OPTION,
  XREAD_NOACK_OPTION,
  XREAD_GT_WITHOUT_GROUP,
  XREAD_UNBALANCED,
  XREADGROUP_DOLLAR,
  XREADGROUP_NO_GROUP,
} from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import { parseInteger, parseTimeoutMs } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { parseStrictId } from './ids.js';
import { entryReply, readStream } from './lookup.js';
import { claimLog, consumerLog, groupIdLog } from './propagate.js';

interface ReadArgs {
  count: number; // 0: all
  blockMs: number | undefined;
  group: { name: string; consumer: string } | undefined;
  noack: boolean;
  /** argv index of the first key; as many ids follow the keys. */
  keysAt: number;
  streams: number;
}

function readArgs(argv: Args, xreadgroup: boolean): ReadArgs | ReplyError {
  const r: ReadArgs = { count: 0, blockMs: undefined, group: undefined, noack: false, keysAt: 0, streams: 0 };
  for (let i = 1; i < argv.length; i++) {
    const more = argv.length - i - 1;
    const opt = argv[i].toLowerCase();
    if (opt === 'block' && more > 0) {
      const ms = parseTimeoutMs(argv[++i]);
      if (ms instanceof ReplyError) return ms;
      r.blockMs = ms;
    } else if (opt === 'count' && more > 0) {
      const n = parseInteger(argv[++i]);
      if (n === undefined) return NOT_INTEGER;
      r.count = Math.max(n, 0);
    } else if (opt === 'streams' && more > 0) {
      r.keysAt = i + 1;
      if ((argv.length - r.keysAt) % 2 !== 0) return XREAD_UNBALANCED;
      r.streams = (argv.length - r.keysAt) / 2;
      break;
    } else if (opt === 'group' && more >= 2) {
      if (!xreadgroup) return XREAD_GROUP_OPTION;
      r.group = { name: argv[i + 1], consumer: argv[i + 2] };
      i += 2;
    } else if (opt === 'noack') {
      if (!xreadgroup) return XREAD_NOACK_OPTION;
      r.noack = true;
    } else return SYNTAX;
  }
  if (r.keysAt === 0) return SYNTAX;
  if (xreadgroup && r.group === undefined) return XREADGROUP_NO_GROUP;
  return r;
}

/** One stream to read: entries above `after` (MAX_ID: XREADGROUP's '>'). */
interface Target {
  key: string;
  stream: StreamValue | undefined;
  group: ConsumerGroup | undefined;
  after: StreamId;
}

function resolveTargets(ctx: Ctx, argv: Args, r: ReadArgs): Target[] | ReplyError {
  const targets: Target[] = [];
  for (let i = 0; i < r.streams; i++) {
    const key = argv[r.keysAt + i];
    const idText = argv[r.keysAt + r.streams + i];
    const s = readStream(ctx.ks, key);
    if (s instanceof ReplyError) return s;
    let group: ConsumerGroup | undefined;
    if (r.group !== undefined) {
      group = s?.groups.get(r.group.name);
      if (group === undefined) return noKeyOrGroupRead(key, r.group.name);
    }
    let after: StreamId;
    if (idText === '$') {
      if (r.group !== undefined) return XREADGROUP_DOLLAR;
      after = s?.lastId ?? 0n;
    } else if (idText === '>') {
      if (r.group === undefined) return XREAD_GT_WITHOUT_GROUP;
      after = MAX_ID;
    } else {
      const id = parseStrictId(idText);
      if (id instanceof ReplyError) return id;
      after = id;
    }
    targets.push({ key, stream: s, group, after });
  }
  return targets;
}

// XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...]
export function xreadCommand(ctx: Ctx, argv: Args): Reply {
  const r = readArgs(argv, false);
  if (r instanceof ReplyError) return r;
  const targets = resolveTargets(ctx, argv, r);
  if (targets instanceof ReplyError) return targets;
  const out: Reply[] = [];
  for (const t of targets) {
    const s = t.stream;
    if (s === undefined) {
      // Redis looks each stream up again to serve it (xreadCommand's second loop), so a missing
      // one publishes a second keymiss.
      ctx.ks.peek(t.key);
      continue;
    }
    if (s.length === 0 || s.store.last()!.id <= t.after) continue;
    const entries: Reply[] = [];
    for (const e of s.store.range(t.after + 1n, MAX_ID, false)) {
      entries.push(entryReply(e));
      if (entries.length === r.count) break;
    }
    out.push([t.key, entries]);
  }
  if (out.length > 0) return out;
  if (r.blockMs !== undefined && ctx.block !== undefined) {
    // Woken, the read must look past the ids as they are now: '$' is fixed to the last id.
    const retry = [...argv];
    targets.forEach((t, i) => (retry[r.keysAt + r.streams + i] = formatId(t.after)));
    ctx.block({ keys: targets.map((t) => t.key), timeoutMs: r.blockMs, retry });
  }
  return NULL_ARRAY;
}

// XREADGROUP GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id [id ...]
export function xreadgroupCommand(ctx: Ctx, argv: Args): Reply {
  const r = readArgs(argv, true);
  if (r instanceof ReplyError) return r;
  const targets = resolveTargets(ctx, argv, r);
  if (targets instanceof ReplyError) return targets;
  const consumerName = r.group!.consumer;
  const now = ctx.ks.now();
  const log: string[][] = [];
  const out: Reply[] = [];
  for (const t of targets) {
    const s = t.stream!;
    const group = t.group!;
    const history = t.after !== MAX_ID;
    if (!history && (s.length === 0 || s.store.last()!.id <= group.lastId)) continue;
    let consumer = group.consumers.get(consumerName);
    if (consumer === undefined) {
      consumer = group.consumer(consumerName, now);
      log.push(consumerLog(t.key, group, consumerName));
      ctx.events.notify(KeyEvent.stream, 'xgroup-createconsumer', t.key);
    }
    consumer.seenTime = now;
    const entries = history
      ? readHistory(s, consumer, t.after + 1n, r.count, now)
      : deliverNew(s, group, consumer, r.count, r.noack, now, (id, nack) =>
          log.push(claimLog(t.key, group, consumerName, id, nack)),
        );
    if (!history) log.push(groupIdLog(t.key, group));
    out.push([t.key, entries]);
  }
  ctx.rewrite(log);
  if (out.length > 0) return out;
  if (r.blockMs !== undefined && ctx.block !== undefined) {
    ctx.block({ keys: targets.map((t) => t.key), timeoutMs: r.blockMs, retry: argv });
  }
  return NULL_ARRAY;
}

/**
 * New entries for a group (Redis's streamReplyWithRange with a group): each advances the
 * group's last id and read counter and, without NOACK, becomes pending for the consumer.
 */
function deliverNew(
  s: StreamValue,
  group: ConsumerGroup,
  consumer: Consumer,
  count: number,
  noack: boolean,
  now: number,
  delivered: (id: StreamId, nack: Nack) => void,
): Reply[] {
  const out: Reply[] = [];
  for (const e of s.store.range(group.lastId + 1n, MAX_ID, false)) {
    if (group.entriesRead !== INVALID_ENTRIES_READ && !s.hasTombstones(e.id)) group.entriesRead++;
    else if (s.entriesAdded !== 0n) group.entriesRead = s.entriesReadAt(e.id);
    group.lastId = e.id;
    out.push(entryReply(e));
    if (!noack) {
      let nack = group.pel.get(e.id);
      if (nack === undefined) {
        nack = { consumer, deliveryTime: now, deliveryCount: 1 };
        group.pel.set(e.id, nack);
      } else {
        // Delivered before (the group's id was set back): it moves to this consumer.
        nack.consumer.pel.delete(e.id);
        nack.consumer = consumer;
        nack.deliveryTime = now;
        nack.deliveryCount = 1;
      }
      consumer.pel.set(e.id, nack);
      delivered(e.id, nack);
    }
    if (out.length === count) break;
  }
  return out;
}

/** The consumer's own pending entries from `start` on; a deleted entry comes back as [id, nil]. */
function readHistory(s: StreamValue, consumer: Consumer, start: StreamId, count: number, now: number): Reply[] {
  const out: Reply[] = [];
  for (const [id, nack] of consumer.pel.range(start, MAX_ID)) {
    const e = s.get(id);
    if (e === undefined) out.push([formatId(id), NULL_ARRAY]);
    else {
      nack.deliveryTime = now;
      nack.deliveryCount++;
      out.push(entryReply(e));
    }
    if (out.length === count) break;
  }
  return out;
}

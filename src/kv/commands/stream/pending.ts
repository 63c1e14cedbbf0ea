// Pending entries: XPENDING, XCLAIM, XAUTOCLAIM (Redis's xpendingCommand, xclaimCommand,
// xautoclaimCommand). Claims log as XCLAIM ... TIME <absolute> RETRYCOUNT <n> FORCE JUSTID,
// as Redis propagates them, so idle times replay as the same instants.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { ConsumerGroup, Nack } from '../../engine/stream/consumer-group.js';
import { formatId, MAX_ID, type StreamId } from '../../engine/stream/stream-id.js';
import type { StreamValue } from '../../engine/stream/stream-value.js';
import {
  noKeyOrGroup,
  NOT_INTEGER,
  ReplyError,
  SYNTAX,
  XAUTOCLAIM_COUNT,
  XAUTOCLAIM_MIN_IDLE,
  XCLAIM_IDLE,
  XCLAIM_MIN_IDLE,
  XCLAIM_RETRYCOUNT,
  XCLAIM_TIME,
  xclaimUnknownOption,
} from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { parseBound, parseIdArg, parseStrictId } from './ids.js';
import { entryReply, readStream } from './lookup.js';
import { claimLog, consumerLog, groupIdLog } from './propagate.js';

/** The stream and group, or Redis's NOGROUP error naming both. */
function streamGroup(ctx: Ctx, argv: Args): { s: StreamValue; g: ConsumerGroup } | ReplyError {
  return groupIn(readStream(ctx.ks, argv[1]), argv);
}

/** As streamGroup, for the stream argv[1] named, already looked up. */
function groupIn(s: StreamValue | undefined | ReplyError, argv: Args): { s: StreamValue; g: ConsumerGroup } | ReplyError {
  if (s instanceof ReplyError) return s;
  const g = s?.groups.get(argv[2]);
  return s === undefined || g === undefined ? noKeyOrGroup(argv[1], argv[2]) : { s, g };
}

// XPENDING key group [[IDLE min-idle-time] start end count [consumer]]
export function xpendingCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length !== 3 && (argv.length < 6 || argv.length > 9)) return SYNTAX;
  let minIdle = 0;
  let range: { start: StreamId; end: StreamId; count: number; consumer?: string } | undefined;
  if (argv.length >= 6) {
    let at = 3;
    if (argv[3].toLowerCase() === 'idle') {
      const n = parseInteger(argv[4]);
      if (n === undefined) return NOT_INTEGER;
      minIdle = n;
      if (argv.length < 8) return SYNTAX;
      at += 2;
    }
    const count = parseInteger(argv[at + 2]);
    if (count === undefined) return NOT_INTEGER;
    const start = parseBound(argv[at], false);
    if (start instanceof ReplyError) return start;
    const end = parseBound(argv[at + 1], true);
    if (end instanceof ReplyError) return end;
    range = { start, end, count: Math.max(count, 0), consumer: at + 3 < argv.length ? argv[at + 3] : undefined };
  }
  const found = streamGroup(ctx, argv);
  if (found instanceof ReplyError) return found;
  const { g } = found;
  if (range === undefined) {
    if (g.pel.size === 0) return [0, null, null, NULL_ARRAY];
    const perConsumer: Reply[] = [];
    for (const c of [...g.consumers.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (c.pel.size > 0) perConsumer.push([c.name, String(c.pel.size)]);
    }
    return [g.pel.size, formatId(g.pel.first()!), formatId(g.pel.last()!), perConsumer];
  }
  const pel = range.consumer === undefined ? g.pel : g.consumers.get(range.consumer)?.pel;
  const out: Reply[] = [];
  if (pel === undefined || range.count === 0) return out;
  const now = ctx.ks.now();
  for (const [id, nack] of pel.range(range.start, range.end)) {
    const idle = Math.max(now - nack.deliveryTime, 0);
    if (minIdle > 0 && idle < minIdle) continue;
    out.push([formatId(id), nack.consumer.name, idle, nack.deliveryCount]);
    if (out.length === range.count) break;
  }
  return out;
}

/** Moves a pending entry to `consumer` (Redis's claim step); returns the log line for it. */
function claim(g: ConsumerGroup, id: StreamId, nack: Nack, consumerName: string, now: number, key: string): string[] {
  const consumer = g.consumer(consumerName, now);
  if (nack.consumer !== consumer) {
    nack.consumer.pel.delete(id);
    nack.consumer = consumer;
    consumer.pel.set(id, nack);
  }
  consumer.seenTime = now;
  return claimLog(key, g, consumerName, id, nack);
}

/**
 * XCLAIM and XAUTOCLAIM create their consumer on its first claim, as Redis does: logged ahead
 * of the claims, and published as xgroup-createconsumer (their only keyspace event).
 */
function consumerCreated(ctx: Ctx, key: string, g: ConsumerGroup, consumer: string, log: string[][]): void {
  log.unshift(consumerLog(key, g, consumer));
  ctx.events.notify(KeyEvent.stream, 'xgroup-createconsumer', key);
}

// XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-time-milliseconds]
//   [RETRYCOUNT count] [FORCE] [JUSTID] [LASTID lastid]
export function xclaimCommand(ctx: Ctx, argv: Args): Reply {
  const found = streamGroup(ctx, argv);
  if (found instanceof ReplyError) return found;
  const { s, g } = found;
  const minIdleArg = parseInteger(argv[4]);
  if (minIdleArg === undefined) return XCLAIM_MIN_IDLE;
  const minIdle = Math.max(minIdleArg, 0);
  const ids: StreamId[] = [];
  let j = 5;
  for (; j < argv.length; j++) {
    const id = parseIdArg(argv[j], 0n, true);
    if (id instanceof ReplyError) break;
    ids.push(id.id);
  }
  const now = ctx.ks.now();
  let force = false;
  let justId = false;
  let retryCount = -1;
  let deliveryTime = -1;
  let lastId = 0n;
  for (; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    const opt = argv[j].toLowerCase();
    if (opt === 'force') force = true;
    else if (opt === 'justid') justId = true;
    else if ((opt === 'idle' || opt === 'time' || opt === 'retrycount') && more > 0) {
      const n = parseInteger(argv[++j]);
      if (n === undefined) return opt === 'idle' ? XCLAIM_IDLE : opt === 'time' ? XCLAIM_TIME : XCLAIM_RETRYCOUNT;
      if (opt === 'idle') deliveryTime = now - n;
      else if (opt === 'time') deliveryTime = n;
      else retryCount = n;
    } else if (opt === 'lastid' && more > 0) {
      const id = parseStrictId(argv[++j]);
      if (id instanceof ReplyError) return id;
      lastId = id;
    } else return xclaimUnknownOption(argv[j]);
  }
  const log: string[][] = [];
  let lastIdMoved = false;
  if (lastId > g.lastId) {
    g.lastId = lastId;
    lastIdMoved = true;
  }
  if (deliveryTime < 0 || deliveryTime > now) deliveryTime = now;
  const created = !g.consumers.has(argv[3]);
  const out: Reply[] = [];
  for (const id of ids) {
    let nack = g.pel.get(id);
    const entry = s.get(id);
    if (entry === undefined) {
      if (nack !== undefined) {
        log.push(claimLog(argv[1], g, argv[3], id, undefined));
        lastIdMoved = false;
        g.ack(id);
      }
      continue;
    }
    let forced = false;
    if (force && nack === undefined) {
      forced = true;
      nack = { consumer: g.consumer(argv[3], now), deliveryTime, deliveryCount: 1 };
      g.pel.set(id, nack);
      nack.consumer.pel.set(id, nack);
    }
    if (nack === undefined) continue;
    if (!forced && minIdle > 0 && now - nack.deliveryTime < minIdle) continue;
    nack.deliveryTime = deliveryTime;
    if (retryCount >= 0) nack.deliveryCount = retryCount;
    else if (!justId) nack.deliveryCount++;
    log.push(claim(g, id, nack, argv[3], now, argv[1]));
    lastIdMoved = false;
    out.push(justId ? formatId(id) : entryReply(entry));
  }
  if (created && g.consumers.has(argv[3])) consumerCreated(ctx, argv[1], g, argv[3], log);
  if (lastIdMoved) log.push(groupIdLog(argv[1], g));
  ctx.rewrite(log);
  return out;
}

/** Redis caps COUNT so that COUNT * 16 fits a long. */
const MAX_AUTOCLAIM_COUNT = 576460752303423487;
const ATTEMPTS_FACTOR = 10;

// XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]
export function xautoclaimCommand(ctx: Ctx, argv: Args): Reply {
  // Redis looks the stream up before it parses the arguments, so a missing one publishes keymiss
  // even when they are wrong; the errors come in Redis's order all the same.
  const stream = readStream(ctx.ks, argv[1]);
  const minIdleArg = parseInteger(argv[4]);
  if (minIdleArg === undefined) return XAUTOCLAIM_MIN_IDLE;
  const minIdle = Math.max(minIdleArg, 0);
  const start = parseBound(argv[5], false);
  if (start instanceof ReplyError) return start;
  let count = 100;
  let justId = false;
  for (let j = 6; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    if (opt === 'count' && j + 1 < argv.length) {
      const n = parseInteger(argv[++j]);
      if (n === undefined || n < 1 || n > MAX_AUTOCLAIM_COUNT) return XAUTOCLAIM_COUNT;
      count = n;
    } else if (opt === 'justid') justId = true;
    else return SYNTAX;
  }
  const found = groupIn(stream, argv);
  if (found instanceof ReplyError) return found;
  const { s, g } = found;
  const now = ctx.ks.now();
  const created = !g.consumers.has(argv[3]);
  const log: string[][] = [];
  const claimed: Reply[] = [];
  const deleted: Reply[] = [];
  let attempts = count * ATTEMPTS_FACTOR;
  let next: StreamId = 0n;
  const walk = g.pel.range(start, MAX_ID);
  for (let step = walk.next(); !step.done; step = walk.next()) {
    if (attempts-- === 0 || count === 0) {
      next = step.value[0];
      break;
    }
    const [id, nack] = step.value;
    const entry = s.get(id);
    if (entry === undefined) {
      log.push(claimLog(argv[1], g, argv[3], id, undefined));
      g.ack(id);
      deleted.push(formatId(id));
      count--;
      continue;
    }
    if (minIdle > 0 && now - nack.deliveryTime < minIdle) continue;
    nack.deliveryTime = now;
    if (!justId) nack.deliveryCount++;
    log.push(claim(g, id, nack, argv[3], now, argv[1]));
    claimed.push(justId ? formatId(id) : entryReply(entry));
    count--;
  }
  if (created && g.consumers.has(argv[3])) consumerCreated(ctx, argv[1], g, argv[3], log);
  ctx.rewrite(log);
  return [formatId(next), claimed, deleted];
}

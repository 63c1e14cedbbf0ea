// XINFO STREAM / GROUPS / CONSUMERS (Redis 7.0's xinfoCommand). Redis's radix-tree-nodes
// counts its radix tree's inner nodes, which Larder does not have: it answers the node count
// plus one, what Redis answers for an empty or single-node stream.

import { byName, INVALID_ENTRIES_READ, type ConsumerGroup } from '../../engine/stream/consumer-group.js';
import { formatId, MAX_ID } from '../../engine/stream/stream-id.js';
import type { StreamValue } from '../../engine/stream/stream-value.js';
import { NO_SUCH_KEY, noGroupForKey, NOT_INTEGER, ReplyError, subcommandSyntax } from '../../errors.js';
import { Status, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import type { Args, Ctx } from '../spec.js';
import { entryReply, readStream } from './lookup.js';

export const XINFO_HELP: Reply = [
  'XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CONSUMERS <key> <groupname>',
  '    Show consumers of <groupname>.',
  'GROUPS <key>',
  '    Show the stream consumer groups.',
  'STREAM <key> [FULL [COUNT <count>]',
  '    Show information about the stream.',
  'HELP',
  '    Prints this help.',
].map((line) => new Status(line));

function stream(ctx: Ctx, argv: Args): StreamValue | ReplyError {
  const s = readStream(ctx.ks, argv[2]);
  return s === undefined ? NO_SUCH_KEY : s;
}

function entriesRead(g: ConsumerGroup): Reply {
  return g.entriesRead === INVALID_ENTRIES_READ ? null : int64(g.entriesRead);
}

/** A 64-bit counter as a reply: a number while exact. */
function int64(n: bigint | null): Reply {
  return n === null || n > MAX_SAFE || n < -MAX_SAFE ? n : Number(n);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// XINFO STREAM key [FULL [COUNT count]]
export function xinfoStreamCommand(ctx: Ctx, argv: Args): Reply {
  const s = stream(ctx, argv);
  if (s instanceof ReplyError) return s;
  let full = false;
  let count = 10;
  if (argv.length > 3) {
    if (argv[3].toLowerCase() !== 'full') return subcommandSyntax(argv[1], 'xinfo');
    full = true;
    if (argv.length > 4) {
      if (argv.length !== 6 || argv[4].toLowerCase() !== 'count') return subcommandSyntax(argv[1], 'xinfo');
      const n = parseInteger(argv[5]);
      if (n === undefined) return NOT_INTEGER;
      count = n < 0 ? 10 : n;
    }
  }
  const head: Reply[] = [
    'length', s.length,
    'radix-tree-keys', s.store.nodeCount,
    'radix-tree-nodes', s.store.nodeCount + 1,
    'last-generated-id', formatId(s.lastId),
    'max-deleted-entry-id', formatId(s.maxDeletedId),
    'entries-added', int64(s.entriesAdded),
    'recorded-first-entry-id', formatId(s.firstId),
  ];
  if (!full) {
    const first = s.store.first();
    const last = s.store.last();
    return [
      ...head,
      'groups', s.groups.size,
      'first-entry', first === undefined ? null : entryReply(first),
      'last-entry', last === undefined ? null : entryReply(last),
    ];
  }
  const limit = count === 0 ? Infinity : count;
  const entries: Reply[] = [];
  for (const e of s.store.range(0n, MAX_ID, false)) {
    if (entries.length >= limit) break;
    entries.push(entryReply(e));
  }
  const groups = byName(s.groups.values()).map((g): Reply => {
    const pending: Reply[] = [];
    for (const [id, n] of g.pel.range(0n, MAX_ID)) {
      if (pending.length >= limit) break;
      pending.push([formatId(id), n.consumer.name, n.deliveryTime, n.deliveryCount]);
    }
    const consumers = byName(g.consumers.values()).map((c): Reply => {
      const own: Reply[] = [];
      for (const [id, n] of c.pel.range(0n, MAX_ID)) {
        if (own.length >= limit) break;
        own.push([formatId(id), n.deliveryTime, n.deliveryCount]);
      }
      return ['name', c.name, 'seen-time', c.seenTime, 'pel-count', c.pel.size, 'pending', own];
    });
    return [
      'name', g.name,
      'last-delivered-id', formatId(g.lastId),
      'entries-read', entriesRead(g),
      'lag', int64(s.lag(g)),
      'pel-count', g.pel.size,
      'pending', pending,
      'consumers', consumers,
    ];
  });
  return [...head, 'entries', entries, 'groups', groups];
}

// XINFO GROUPS key
export function xinfoGroupsCommand(ctx: Ctx, argv: Args): Reply {
  const s = stream(ctx, argv);
  if (s instanceof ReplyError) return s;
  return byName(s.groups.values()).map((g) => [
    'name', g.name,
    'consumers', g.consumers.size,
    'pending', g.pel.size,
    'last-delivered-id', formatId(g.lastId),
    'entries-read', entriesRead(g),
    'lag', int64(s.lag(g)),
  ]);
}

// XINFO CONSUMERS key group
export function xinfoConsumersCommand(ctx: Ctx, argv: Args): Reply {
  const s = stream(ctx, argv);
  if (s instanceof ReplyError) return s;
  const g = s.groups.get(argv[3]);
  if (g === undefined) return noGroupForKey(argv[2], argv[3]);
  const now = ctx.ks.now();
  return byName(g.consumers.values()).map((c) => ['name', c.name, 'pending', c.pel.size, 'idle', Math.max(now - c.seenTime, 0)]);
}

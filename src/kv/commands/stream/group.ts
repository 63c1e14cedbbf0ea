// Consumer group administration: XGROUP's subcommands and XACK (Redis's xgroupCommand,
// xackCommand).

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ConsumerGroup, INVALID_ENTRIES_READ } from '../../engine/stream/consumer-group.js';
import { StreamValue } from '../../engine/stream/stream-value.js';
import type { StreamId } from '../../engine/stream/stream-id.js';
import {
  BUSYGROUP,
  ENTRIESREAD_INVALID,
  noGroupForKey,
  NOT_INTEGER,
  ReplyError,
  subcommandSyntax,
  XGROUP_NO_KEY,
} from '../../errors.js';
import { OK, Status, type Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { parseId, parseStrictId } from './ids.js';
import { readStream } from './lookup.js';

export const XGROUP_HELP: Reply = [
  'XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CREATE <key> <groupname> <id|$> [option]',
  '    Create a new consumer group. Options are:',
  '    * MKSTREAM',
  '      Create the empty stream if it does not exist.',
  '    * ENTRIESREAD entries_read',
  "      Set the group's entries_read counter (internal use).",
  'CREATECONSUMER <key> <groupname> <consumer>',
  '    Create a new consumer in the specified group.',
  'DELCONSUMER <key> <groupname> <consumer>',
  '    Remove the specified consumer.',
  'DESTROY <key> <groupname>',
  '    Remove the specified group.',
  'SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]',
  '    Set the current group ID and entries_read counter.',
  'HELP',
  '    Prints this help.',
].map((line) => new Status(line));

function entriesRead(text: string): bigint | ReplyError {
  const n = parseInt64(text);
  if (n === undefined) return NOT_INTEGER;
  return n < 0n && n !== INVALID_ENTRIES_READ ? ENTRIESREAD_INVALID : n;
}

/** The stream and group a subcommand works on; MKSTREAM may leave the stream to be created. */
function lookup(ctx: Ctx, argv: Args, mkstream: boolean, needGroup: boolean): { s: StreamValue | undefined; g: ConsumerGroup | undefined } | ReplyError {
  const s = readStream(ctx.ks, argv[2]);
  if (s instanceof ReplyError) return s;
  if (mkstream) return { s, g: s?.groups.get(argv[3]) };
  if (s === undefined) return XGROUP_NO_KEY;
  const g = s.groups.get(argv[3]);
  if (g === undefined && needGroup) return noGroupForKey(argv[2], argv[3]);
  return { s, g };
}

// XGROUP CREATE key group <id | $> [MKSTREAM] [ENTRIESREAD entries-read]
export function xgroupCreateCommand(ctx: Ctx, argv: Args): Reply {
  let mkstream = false;
  let read = INVALID_ENTRIES_READ;
  for (let i = 5; i < argv.length; ) {
    const opt = argv[i].toLowerCase();
    if (opt === 'mkstream') {
      mkstream = true;
      i++;
    } else if (opt === 'entriesread' && i + 1 < argv.length) {
      const n = entriesRead(argv[i + 1]);
      if (n instanceof ReplyError) return n;
      read = n;
      i += 2;
    } else return subcommandSyntax(argv[1], 'xgroup');
  }
  const found = lookup(ctx, argv, mkstream, false);
  if (found instanceof ReplyError) return found;
  if (argv.length > 8) return subcommandSyntax(argv[1], 'xgroup');
  let id: StreamId | ReplyError;
  if (argv[4] === '$') id = found.s?.lastId ?? 0n;
  else id = parseStrictId(argv[4]);
  if (id instanceof ReplyError) return id;
  const s = found.s ?? new StreamValue();
  if (found.s === undefined) ctx.ks.insert(argv[2], s, 0);
  if (s.groups.has(argv[3])) return BUSYGROUP;
  s.groups.set(argv[3], new ConsumerGroup(argv[3], id, read));
  ctx.events.notify(KeyEvent.stream, 'xgroup-create', argv[2]);
  return OK;
}

// XGROUP SETID key group <id | $> [ENTRIESREAD entries-read]
export function xgroupSetidCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length !== 5 && argv.length !== 7) return subcommandSyntax(argv[1], 'xgroup');
  let read = INVALID_ENTRIES_READ;
  if (argv.length === 7) {
    if (argv[5].toLowerCase() !== 'entriesread') return subcommandSyntax(argv[1], 'xgroup');
    const n = entriesRead(argv[6]);
    if (n instanceof ReplyError) return n;
    read = n;
  }
  const found = lookup(ctx, argv, false, true);
  if (found instanceof ReplyError) return found;
  const s = found.s!;
  const g = found.g!;
  const id = argv[4] === '$' ? s.lastId : parseId(argv[4]);
  if (id instanceof ReplyError) return id;
  g.lastId = id;
  g.entriesRead = read;
  ctx.events.notify(KeyEvent.stream, 'xgroup-setid', argv[2]);
  return OK;
}

// XGROUP DESTROY key group
export function xgroupDestroyCommand(ctx: Ctx, argv: Args): Reply {
  const found = lookup(ctx, argv, false, false);
  if (found instanceof ReplyError) return found;
  if (!found.s!.groups.delete(argv[3])) return unchanged(ctx, 0);
  ctx.events.notify(KeyEvent.stream, 'xgroup-destroy', argv[2]);
  return 1;
}

// XGROUP CREATECONSUMER key group consumer
export function xgroupCreateconsumerCommand(ctx: Ctx, argv: Args): Reply {
  const found = lookup(ctx, argv, false, true);
  if (found instanceof ReplyError) return found;
  const g = found.g!;
  if (g.consumers.has(argv[4])) return unchanged(ctx, 0);
  g.consumer(argv[4], ctx.ks.now());
  ctx.events.notify(KeyEvent.stream, 'xgroup-createconsumer', argv[2]);
  return 1;
}

// XGROUP DELCONSUMER key group consumer
export function xgroupDelconsumerCommand(ctx: Ctx, argv: Args): Reply {
  const found = lookup(ctx, argv, false, true);
  if (found instanceof ReplyError) return found;
  const g = found.g!;
  if (!g.consumers.has(argv[4])) return unchanged(ctx, 0);
  const pending = g.deleteConsumer(argv[4]);
  ctx.events.notify(KeyEvent.stream, 'xgroup-delconsumer', argv[2]);
  return pending;
}

// XACK key group id [id ...]
export function xackCommand(ctx: Ctx, argv: Args): Reply {
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  const g = s?.groups.get(argv[2]);
  if (g === undefined) return unchanged(ctx, 0);
  const ids: StreamId[] = [];
  for (let i = 3; i < argv.length; i++) {
    const id = parseStrictId(argv[i]);
    if (id instanceof ReplyError) return id;
    ids.push(id);
  }
  let acked = 0;
  for (const id of ids) if (g.ack(id)) acked++;
  return acked === 0 ? unchanged(ctx, 0) : acked;
}

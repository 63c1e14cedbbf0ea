// Pub/sub commands (Redis pubsub.c). Over REST there is no connection to push messages on:
// PUBLISH and PUBSUB answer as Redis does, while SUBSCRIBE, PSUBSCRIBE and SSUBSCRIBE run only
// for a streaming client (the /subscribe, /psubscribe and /ssubscribe event streams, which set
// ctx.client) and are refused as plain commands (admission reads their 'stream' flag), as Upstash refuses them. A streaming client
// unsubscribes by closing its connection, so the UNSUBSCRIBE family is refused by name.
//
// PUBLISH changes no data: it is neither logged nor replayed, and bumps no sync token.

import { subcommandSyntax } from '../errors.js';
import type { SubscriptionKind } from '../engine/pubsub/hub.js';
import { Status, type Reply } from '../reply.js';
import { container, family, NO_KEYS, refused, streamClient, type Args, type ChannelSpec, type CommandSpec, type Ctx, type Handler } from './spec.js';

// SPUBLISH and SSUBSCRIBE name their shard channel in a key spec flagged not_key in Redis, which
// ACL key patterns skip. Larder's key specs have no such flag, so it declares no keys: COMMAND
// INFO shows 0 0 0 where Redis shows 1 1 1 (1 -1 1 for SSUBSCRIBE).

const ONE_CHANNEL: ChannelSpec = { first: 1, last: 1 };
const ALL_CHANNELS: ChannelSpec = { first: 1, last: -1 };
const ALL_PATTERNS: ChannelSpec = { first: 1, last: -1, pattern: true };

export default family('pubsub', 'pubsub', [
  { name: 'publish', arity: 3, flags: ['fast'], keys: NO_KEYS, channels: ONE_CHANNEL, run: publishCommand },
  { name: 'spublish', arity: 3, flags: ['fast'], keys: NO_KEYS, channels: ONE_CHANNEL, run: spublishCommand },
  container('pubsub', [
    { name: 'channels', arity: -2, flags: [], keys: NO_KEYS, run: (ctx, argv) => channelsCommand(ctx, argv, 'channel') },
    { name: 'numsub', arity: -2, flags: [], keys: NO_KEYS, run: (ctx, argv) => numsubCommand(ctx, argv, 'channel') },
    { name: 'numpat', arity: 2, flags: [], keys: NO_KEYS, run: numpatCommand },
    { name: 'shardchannels', arity: -2, flags: [], keys: NO_KEYS, run: (ctx, argv) => channelsCommand(ctx, argv, 'shard') },
    { name: 'shardnumsub', arity: -2, flags: [], keys: NO_KEYS, run: (ctx, argv) => numsubCommand(ctx, argv, 'shard') },
    { name: 'help', arity: 2, flags: [], keys: NO_KEYS, run: helpCommand },
  ]),
  { name: 'subscribe', arity: -2, flags: ['stream'], keys: NO_KEYS, channels: ALL_CHANNELS, run: subscribing('channel') },
  { name: 'psubscribe', arity: -2, flags: ['stream'], keys: NO_KEYS, channels: ALL_PATTERNS, run: subscribing('pattern') },
  { name: 'ssubscribe', arity: -2, flags: ['stream'], keys: NO_KEYS, channels: ALL_CHANNELS, run: subscribing('shard') },
  ...['unsubscribe', 'punsubscribe', 'sunsubscribe'].map(
    (name): CommandSpec => ({ name, arity: -1, flags: ['unsupported'], keys: NO_KEYS, run: refused }),
  ),
]);

// PUBLISH channel message
function publishCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.pubsub.publish(argv[1], argv[2]);
}

// SPUBLISH shardchannel message
function spublishCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.pubsub.spublish(argv[1], argv[2]);
}

// PUBSUB CHANNELS [pattern], PUBSUB SHARDCHANNELS [pattern]
function channelsCommand(ctx: Ctx, argv: Args, kind: 'channel' | 'shard'): Reply {
  if (argv.length > 3) return subcommandSyntax(argv[1], argv[0]);
  return ctx.pubsub.names(kind, argv[2]);
}

// PUBSUB NUMSUB [channel ...], PUBSUB SHARDNUMSUB [shardchannel ...]: [channel, count, ...]
function numsubCommand(ctx: Ctx, argv: Args, kind: 'channel' | 'shard'): Reply {
  const reply: Reply[] = [];
  for (let i = 2; i < argv.length; i++) reply.push(argv[i], ctx.pubsub.count(kind, argv[i]));
  return reply;
}

// PUBSUB NUMPAT
function numpatCommand(ctx: Ctx): Reply {
  return ctx.pubsub.patternCount;
}

// SUBSCRIBE channel [channel ...], PSUBSCRIBE pattern [pattern ...], SSUBSCRIBE shardchannel [...]
// Each subscription is confirmed to the client as Redis confirms it; the reply itself is unused.
function subscribing(kind: SubscriptionKind): Handler {
  return (ctx, argv) => {
    const client = streamClient(ctx);
    for (let i = 1; i < argv.length; i++) ctx.pubsub.subscribe(kind, argv[i], client);
    return null;
  };
}

const HELP: readonly Status[] = [
  'PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CHANNELS [<pattern>]',
  "    Return the currently active channels matching a <pattern> (default: '*').",
  'NUMPAT',
  '    Return number of subscriptions to patterns.',
  'NUMSUB [<channel> ...]',
  '    Return the number of subscribers for the specified channels, excluding',
  '    pattern subscriptions(default: no channels).',
  'SHARDCHANNELS [<pattern>]',
  "    Return the currently active shard level channels matching a <pattern> (default: '*').",
  'SHARDNUMSUB [<shardchannel> ...]',
  '    Return the number of subscribers for the specified shard level channel(s)',
  'HELP',
  '    Prints this help.',
].map((line) => new Status(line));

// PUBSUB HELP
function helpCommand(): Reply {
  return HELP;
}

// Server commands (Redis server.c, db.c, config.c). Larder answers what can be answered for a
// REST database; administration that acts on a Redis process (saving, replication,
// shutdown, debugging) is declared so it is refused by name.

import { configSetFailed, configUnknownOption, SYNTAX, wrongArity, type ReplyError } from '../errors.js';
import { formatEventClasses, parseEventClasses } from '../engine/pubsub/keyspace-events.js';
import { globMatch } from '../../text/glob.js';
import { OK, type Reply } from '../reply.js';
import { commandCommand } from './introspection/command.js';
import { infoText, remoteInfo } from './introspection/info.js';
import { memoryUsageCommand } from './introspection/memory.js';
import { container, family, NO_KEYS, refused, streamClient, type Args, type CommandSpec, type Ctx } from './spec.js';

const REFUSED = ['save', 'bgsave', 'bgrewriteaof', 'shutdown', 'debug', 'replicaof', 'slaveof', 'sync', 'psync', 'swapdb', 'failover'];

export default family('server', null, [
  { name: 'dbsize', arity: 1, flags: ['readonly', 'fast'], keys: NO_KEYS, acl: ['keyspace'], run: dbsizeCommand },
  { name: 'flushdb', arity: -1, flags: ['write', 'dangerous'], keys: NO_KEYS, acl: ['keyspace'], run: flushCommand },
  // FLUSHALL empties this one database: on a remote server, whose other databases it would empty too, it goes as FLUSHDB.
  {
    name: 'flushall',
    arity: -1,
    flags: ['write', 'dangerous'],
    keys: NO_KEYS,
    acl: ['keyspace'],
    remoteArgs: (argv) => ['FLUSHDB', ...argv.slice(1)],
    run: flushCommand,
  },
  { name: 'time', arity: 1, flags: ['fast'], keys: NO_KEYS, run: timeCommand },
  {
    name: 'info',
    arity: -1,
    flags: ['dangerous'],
    keys: NO_KEYS,
    remoteReply: (reply, db) => (typeof reply === 'string' ? remoteInfo(reply, db) : reply),
    run: (ctx, argv) => infoText(ctx, argv.slice(1)),
  },
  { name: 'command', arity: -1, flags: [], keys: NO_KEYS, acl: ['connection'], run: commandCommand },
  // Only GET: declared as the one subcommand, so admission refuses the others before a remote
  // backend could send them (CONFIG SET on the Redis behind Larder).
  container('config', [
    { name: 'get', arity: -3, flags: ['admin'], keys: NO_KEYS, remoteArgs: configGetRemoteArgs, run: configGetCommand },
    // Only notify-keyspace-events, as Upstash permits: a remote server gets nothing else.
    { name: 'set', arity: -4, flags: ['admin', 'noscript'], keys: NO_KEYS, admits: configSetAdmits, run: configSetCommand },
  ]),
  // Only USAGE: the other subcommands describe a Redis process, not a key.
  container('memory', [{ name: 'usage', arity: -3, flags: ['readonly'], keys: { first: 2, last: 2, step: 1 }, run: memoryUsageCommand }]),
  { name: 'monitor', arity: 1, flags: ['admin', 'stream'], keys: NO_KEYS, run: monitorCommand },
  ...REFUSED.map(
    (name): CommandSpec => ({ name, arity: -1, flags: ['admin', 'unsupported'], keys: NO_KEYS, run: refused }),
  ),
]);

// MONITOR: only a streaming client (the /monitor event stream) can monitor; Upstash refuses it
// over HTTP. Every command run after it goes to the client as a line (Database.run).
function monitorCommand(ctx: Ctx): Reply {
  const client = streamClient(ctx);
  ctx.pubsub.monitor(client);
  client.send(['OK']);
  return null;
}

// DBSIZE
function dbsizeCommand(ctx: Ctx): Reply {
  return ctx.ks.size;
}

// FLUSHDB [ASYNC | SYNC], FLUSHALL [ASYNC | SYNC]
function flushCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 2 || (argv.length === 2 && !['async', 'sync'].includes(argv[1].toLowerCase()))) return SYNTAX;
  ctx.ks.clear();
  return OK;
}

// TIME: [unix seconds, microseconds], both as bulk strings
function timeCommand(ctx: Ctx): Reply {
  const ms = ctx.ks.now();
  return [String(Math.floor(ms / 1000)), String((ms % 1000) * 1000)];
}

/** The settings CONFIG GET shows: fixed facts of an embedded database, in Redis's names. */
const CONFIG: readonly [string, string][] = [
  ['databases', '1'],
  ['maxmemory', '0'],
  ['maxmemory-policy', 'noeviction'],
  ['appendonly', 'yes'],
  ['save', ''],
  ['timeout', '0'],
];

// CONFIG GET parameter [parameter ...]   (glob patterns, any case; other subcommands unknown)
function configGetCommand(ctx: Ctx, argv: Args): Reply {
  const out: string[] = [];
  const settings: [string, string][] = [...CONFIG, [EVENTS_PARAMETER, formatEventClasses(ctx.events.flags)]];
  for (const [name, value] of settings) {
    if (matchesAny(argv, name)) out.push(name, value);
  }
  return out;
}

const EVENTS_PARAMETER = 'notify-keyspace-events';
const SHOWN = [...CONFIG.map(([name]) => name), EVENTS_PARAMETER];

/** Whether one of CONFIG GET's patterns (argv[2] on) matches a setting's name. */
const matchesAny = (argv: Args, name: string) => argv.some((pattern, i) => i >= 2 && globMatch(pattern, name, true));

/**
 * CONFIG GET as a remote server is sent it: the names of the settings shown here that the
 * patterns match, so the server's others (requirepass, masterauth, its paths) are never shown;
 * '' when none match, a name no setting has.
 */
function configGetRemoteArgs(argv: Args): Args {
  const names = SHOWN.filter((name) => matchesAny(argv, name));
  return ['CONFIG', 'GET', ...(names.length === 0 ? [''] : names)];
}

/**
 * CONFIG SET parameter value [parameter value ...], checked at admission in Redis's order: the
 * pairs, every name known, none twice, then the values.
 */
function configSetAdmits(argv: Args): ReplyError | null {
  if (argv.length % 2 !== 0) return wrongArity('config|set');
  for (let i = 2; i < argv.length; i += 2) if (argv[i].toLowerCase() !== EVENTS_PARAMETER) return configUnknownOption(argv[i]);
  if (argv.length > 4) return configSetFailed(EVENTS_PARAMETER, 'duplicate parameter');
  if (parseEventClasses(argv[3]) === null) return configSetFailed(EVENTS_PARAMETER, "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
  return null;
}

// CONFIG SET notify-keyspace-events classes (admitted by configSetAdmits). Logged, so the
// classes come back after a restart (and in the snapshot's header).
function configSetCommand(ctx: Ctx, argv: Args): Reply {
  ctx.events.flags = parseEventClasses(argv[3])!;
  ctx.rewrite([argv]);
  return OK;
}

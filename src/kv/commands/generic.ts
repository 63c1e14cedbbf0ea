// Keyspace commands that work on keys of any type (Redis db.c, expire.c, object.c and the
// DUMP/RESTORE part of cluster.c). The declarations and the one-line handlers live here; the
// larger groups live in generic/.

import { KeyEvent } from '../engine/pubsub/keyspace-events.js';
import { typeName } from '../engine/value.js';
import { Status, type Reply } from '../reply.js';
import { dumpCommand, restoreCommand } from './generic/dump.js';
import { expireGeneric, persistCommand, ttlGeneric } from './generic/expire.js';
import { objectCommand } from './generic/object.js';
import { copyCommand, copyRemoteArgs, renameGeneric } from './generic/rename.js';
import { keysCommand, randomkeyCommand, scanCommand } from './generic/scan.js';
import { waitaofCommand, waitCommand } from './generic/wait.js';
import { ALL_KEYS, family, NO_KEYS, ONE_KEY, refused, unchanged, type Args, type Ctx } from './spec.js';

const TWO_KEYS = { first: 1, last: 2, step: 1 };

export default family('generic', 'keyspace', [
  { name: 'del', arity: -2, flags: ['write'], keys: ALL_KEYS, run: delCommand },
  { name: 'unlink', arity: -2, flags: ['write', 'fast'], keys: ALL_KEYS, run: delCommand },
  { name: 'exists', arity: -2, flags: ['readonly', 'fast'], keys: ALL_KEYS, run: existsCommand },
  { name: 'touch', arity: -2, flags: ['readonly', 'fast'], keys: ALL_KEYS, run: touchCommand },
  { name: 'type', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: typeCommand },
  {
    name: 'expire',
    arity: -3,
    flags: ['write', 'fast'],
    keys: ONE_KEY,
    run: (ctx, argv) => expireGeneric(ctx, argv, 'expire', 1000, true),
  },
  {
    name: 'pexpire',
    arity: -3,
    flags: ['write', 'fast'],
    keys: ONE_KEY,
    run: (ctx, argv) => expireGeneric(ctx, argv, 'pexpire', 1, true),
  },
  {
    name: 'expireat',
    arity: -3,
    flags: ['write', 'fast'],
    keys: ONE_KEY,
    run: (ctx, argv) => expireGeneric(ctx, argv, 'expireat', 1000, false),
  },
  {
    name: 'pexpireat',
    arity: -3,
    flags: ['write', 'fast'],
    keys: ONE_KEY,
    run: (ctx, argv) => expireGeneric(ctx, argv, 'pexpireat', 1, false),
  },
  { name: 'ttl', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: (ctx, a) => ttlGeneric(ctx, a[1], false, false) },
  { name: 'pttl', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: (ctx, a) => ttlGeneric(ctx, a[1], true, false) },
  {
    name: 'expiretime',
    arity: 2,
    flags: ['readonly', 'fast'],
    keys: ONE_KEY,
    run: (ctx, a) => ttlGeneric(ctx, a[1], false, true),
  },
  {
    name: 'pexpiretime',
    arity: 2,
    flags: ['readonly', 'fast'],
    keys: ONE_KEY,
    run: (ctx, a) => ttlGeneric(ctx, a[1], true, true),
  },
  { name: 'persist', arity: 2, flags: ['write', 'fast'], keys: ONE_KEY, run: persistCommand },
  { name: 'rename', arity: 3, flags: ['write'], keys: TWO_KEYS, run: (ctx, a) => renameGeneric(ctx, a, false) },
  { name: 'renamenx', arity: 3, flags: ['write', 'fast'], keys: TWO_KEYS, run: (ctx, a) => renameGeneric(ctx, a, true) },
  {
    name: 'copy',
    arity: -3,
    flags: ['write', 'readLookups'],
    keys: TWO_KEYS,
    deviates: "returns 0 when source and destination are the same key, where Redis answers 'ERR source and destination objects are the same'",
    remoteArgs: copyRemoteArgs,
    run: copyCommand,
  },
  { name: 'keys', arity: 2, flags: ['readonly', 'wideRead', 'dangerous'], keys: NO_KEYS, run: keysCommand },
  { name: 'scan', arity: -2, flags: ['readonly', 'wideRead', 'spansNodes'], keys: NO_KEYS, run: scanCommand },
  { name: 'randomkey', arity: 1, flags: ['readonly', 'wideRead'], keys: NO_KEYS, run: randomkeyCommand },
  { name: 'dump', arity: 2, flags: ['readonly'], keys: ONE_KEY, run: dumpCommand },
  { name: 'restore', arity: -4, flags: ['write', 'dangerous', 'restoresPayload'], keys: ONE_KEY, run: restoreCommand },
  { name: 'object', arity: -2, flags: ['readonly'], keys: { first: 2, last: 2, step: 1 }, run: objectCommand },
  // One database per name: nothing to move keys to.
  { name: 'move', arity: 3, flags: ['write', 'fast', 'unsupported'], keys: ONE_KEY, run: refused },
  { name: 'migrate', arity: -6, flags: ['write', 'dangerous', 'unsupported'], keys: NO_KEYS, run: refused },
  // On a remote server they would hold the shared connection, and count its writes alone.
  { name: 'wait', arity: 3, flags: ['noscript', 'embedded'], keys: NO_KEYS, acl: ['connection'], run: waitCommand },
  // Redis 7.2: @blocking, so it waits only as a single command (in a script it answers at once).
  { name: 'waitaof', arity: 4, flags: ['embedded'], keys: NO_KEYS, acl: ['connection', 'blocking'], run: waitaofCommand },
]);

// DEL key [key ...], UNLINK key [key ...]
function delCommand(ctx: Ctx, argv: Args): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) {
    if (!ctx.ks.delete(argv[i])) continue;
    ctx.events.notify(KeyEvent.generic, 'del', argv[i]);
    n++;
  }
  return n === 0 ? unchanged(ctx, 0) : n;
}

// EXISTS key [key ...]   (a key named twice counts twice)
function existsCommand(ctx: Ctx, argv: Args): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) if (ctx.ks.peek(argv[i]) !== undefined) n++;
  return n;
}

// TOUCH key [key ...]
function touchCommand(ctx: Ctx, argv: Args): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) if (ctx.ks.lookup(argv[i]) !== undefined) n++;
  return n;
}

const NONE = new Status('none');
const TYPE_STATUS = new Map<string, Status>();

// TYPE key
function typeCommand(ctx: Ctx, argv: Args): Reply {
  const s = ctx.ks.peek(argv[1]);
  if (s === undefined) return NONE;
  const name = typeName(ctx.ks.valueAt(s));
  let status = TYPE_STATUS.get(name);
  if (status === undefined) TYPE_STATUS.set(name, (status = new Status(name)));
  return status;
}

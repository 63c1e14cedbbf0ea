// Reading and writing fields (Redis t_hash.c): HSET, HMSET, HSETNX, HGET, HMGET, HDEL,
// HEXISTS, HLEN, HSTRLEN, HGETALL, HKEYS, HVALS. A field written by HSET loses its TTL.
// HSET, HMSET and HSETNX publish hset, HDEL hdel, as Redis's do.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { isError, wrongArity, type ReplyError } from '../../errors.js';
import { OK, type Reply } from '../../reply.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { removedFrom } from '../typed.js';
import { readHash, writeHash } from './lookup.js';

// HSET key field value [field value ...]
export function hsetCommand(ctx: Ctx, argv: Args): Reply {
  return setFields(ctx, argv, 'hset');
}

// HMSET key field value [field value ...]
export function hmsetCommand(ctx: Ctx, argv: Args): Reply {
  const created = setFields(ctx, argv, 'hmset');
  return isError(created) ? created : OK;
}

/** Sets every pair; how many fields are new. */
function setFields(ctx: Ctx, argv: Args, name: string): number | ReplyError {
  if (argv.length % 2 === 1) return wrongArity(name);
  const h = writeHash(ctx, argv[1]);
  if (isError(h)) return h;
  let created = 0;
  for (let i = 2; i < argv.length; i += 2) if (h.set(argv[i], argv[i + 1])) created++;
  ctx.events.notify(KeyEvent.hash, 'hset', argv[1]);
  return created;
}

// HSETNX key field value
export function hsetnxCommand(ctx: Ctx, argv: Args): Reply {
  const h = writeHash(ctx, argv[1]);
  if (isError(h)) return h;
  if (h.get(argv[2]) !== undefined) return unchanged(ctx, 0);
  h.set(argv[2], argv[3]);
  ctx.events.notify(KeyEvent.hash, 'hset', argv[1]);
  return 1;
}

// HGET key field
export function hgetCommand(ctx: Ctx, argv: Args): Reply {
  const h = readHash(ctx, argv[1]);
  if (h === undefined || isError(h)) return h ?? null;
  return h.get(argv[2])?.value ?? null;
}

// HMGET key field [field ...]
export function hmgetCommand(ctx: Ctx, argv: Args): Reply {
  const h = readHash(ctx, argv[1]);
  if (isError(h)) return h;
  const out: (string | null)[] = [];
  for (let i = 2; i < argv.length; i++) out.push(h?.get(argv[i])?.value ?? null);
  return out;
}

// HDEL key field [field ...]
export function hdelCommand(ctx: Ctx, argv: Args): Reply {
  const key = argv[1];
  const h = readHash(ctx, key);
  if (h === undefined || isError(h)) return h ?? unchanged(ctx, 0);
  let deleted = 0;
  for (let i = 2; i < argv.length; i++) if (h.delete(argv[i])) deleted++;
  if (deleted === 0) return unchanged(ctx, 0);
  removedFrom(ctx, KeyEvent.hash, 'hdel', key, h.size);
  return deleted;
}

// HEXISTS key field
export function hexistsCommand(ctx: Ctx, argv: Args): Reply {
  const h = readHash(ctx, argv[1]);
  if (h === undefined || isError(h)) return h ?? 0;
  return h.get(argv[2]) === undefined ? 0 : 1;
}

// HLEN key
export function hlenCommand(ctx: Ctx, argv: Args): Reply {
  const h = readHash(ctx, argv[1]);
  if (h === undefined || isError(h)) return h ?? 0;
  return h.size;
}

// HSTRLEN key field
export function hstrlenCommand(ctx: Ctx, argv: Args): Reply {
  const h = readHash(ctx, argv[1]);
  if (h === undefined || isError(h)) return h ?? 0;
  return h.get(argv[2])?.value.length ?? 0;
}

// HGETALL key
export function hgetallCommand(ctx: Ctx, argv: Args): Reply {
  return listFields(ctx, argv[1], true, true);
}

// HKEYS key
export function hkeysCommand(ctx: Ctx, argv: Args): Reply {
  return listFields(ctx, argv[1], true, false);
}

// HVALS key
export function hvalsCommand(ctx: Ctx, argv: Args): Reply {
  return listFields(ctx, argv[1], false, true);
}

/** Names, values or both of every field, in the hash's order (Redis's genericHgetallCommand). */
function listFields(ctx: Ctx, key: string, names: boolean, values: boolean): Reply {
  const h = readHash(ctx, key);
  if (h === undefined || isError(h)) return h ?? [];
  const out: string[] = [];
  for (const f of h.fields()) {
    if (names) out.push(f.name);
    if (values) out.push(f.value);
  }
  return out;
}

// Moving and copying a value to another key (Redis db.c renameGenericCommand, copyCommand).
// Both carry the expiry along.

import { DB_OUT_OF_RANGE, isError, NO_SUCH_KEY, NOT_INTEGER, SYNTAX, type ReplyError } from '../../errors.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { cloneValue } from '../../engine/value.js';
import { OK, type Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** RENAME key newkey (OK), RENAMENX key newkey (1, or 0 when newkey exists). */
export function renameGeneric(ctx: Ctx, argv: Args, nx: boolean): Reply {
  const ks = ctx.ks;
  const from = argv[1];
  const to = argv[2];
  const s = ks.lookup(from);
  if (s === undefined) return NO_SUCH_KEY;
  if (from === to || (nx && ks.lookup(to) !== undefined)) return unchanged(ctx, nx ? 0 : OK);
  ks.delete(to);
  ks.rename(s, to);
  ctx.events.notify(KeyEvent.generic, 'rename_from', from);
  ctx.events.notify(KeyEvent.generic, 'rename_to', to);
  return nx ? 1 : OK;
}

/**
 * COPY's options from argv[3] on: REPLACE, and DB, which may name only index 0: one database
 * per name, as in Redis configured with `databases 1`.
 */
function copyOptions(argv: Args): { replace: boolean } | ReplyError {
  let replace = false;
  for (let i = 3; i < argv.length; i++) {
    const w = argv[i].toLowerCase();
    if (w === 'replace') {
      replace = true;
    } else if (w === 'db' && i + 1 < argv.length) {
      const db = parseInteger(argv[++i]);
      if (db === undefined || db < INT32_MIN || db > INT32_MAX) return NOT_INTEGER;
      if (db !== 0) return DB_OUT_OF_RANGE;
    } else {
      return SYNTAX;
    }
  }
  return { replace };
}

/**
 * COPY as a remote server is sent it: without `DB 0` (this database), refused with another
 * index, which on the server names another database; malformed options go as they are, for
 * the server to answer as it runs.
 */
export function copyRemoteArgs(argv: Args): Args | ReplyError {
  const o = copyOptions(argv);
  if (o === DB_OUT_OF_RANGE) return o;
  if (isError(o)) return argv;
  return o.replace ? [...argv.slice(0, 3), 'REPLACE'] : argv.slice(0, 3);
}

// COPY source destination [DB destination-db] [REPLACE]
export function copyCommand(ctx: Ctx, argv: Args): Reply {
  const o = copyOptions(argv);
  if (isError(o)) return o;
  const replace = o.replace;
  const from = argv[1];
  const to = argv[2];
  // COPY returns 0 when source and destination are the same key, where Redis errors.
  // Upstash does this and the SDK's copy test expects it (recorded in `deviates` too).
  if (from === to) return unchanged(ctx, 0);
  const ks = ctx.ks;
  const s = ks.lookup(from);
  if (s === undefined) return unchanged(ctx, 0);
  // The source is read (a missing one publishes keymiss), the destination looked up to be
  // written, which publishes nothing (Redis's lookupKeyRead, then lookupKeyWrite).
  ks.reading = false;
  if (ks.lookup(to) !== undefined) {
    if (!replace) return unchanged(ctx, 0);
    ks.delete(to);
  }
  ks.insert(to, cloneValue(ks.valueAt(s)), ks.expiryAt(s));
  ctx.events.notify(KeyEvent.generic, 'copy_to', to);
  return 1;
}

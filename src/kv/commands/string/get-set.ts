// Reading and writing whole string values: GET, SET and its variants, GETEX, GETDEL, MGET, MSET,
// MSETNX, MSETEX (Redis t_string.c, setGenericCommand and around it; SET's comparing conditions
// and MSETEX are Redis 8.4's, see compare.ts). Writes that depend on the clock
// are logged in Redis's absolute form; writes that change nothing are not logged.

import { textOf } from '../../engine/editable-string.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { Keyspace, Slot } from '../../engine/keyspace.js';
import { isError, NOT_INTEGER, NUMKEYS_NOT_POSITIVE, NUMKEYS_OVER_ARGS, SYNTAX, WRONGTYPE, wrongArity, type ReplyError } from '../../errors.js';
import { OK, type Reply } from '../../reply.js';
import { ArgReader, parseInteger } from '../args.js';
import { expiryAt, isTimed, readExpiry, type Expiry, type ExpiryWord } from '../expiry-options.js';
import { NOTHING, unchanged, type Args, type Ctx } from '../spec.js';
import { compares, conditionHolds, readComparison, type Condition } from './compare.js';
import { getString, stringAt, stringSlot } from './lookup.js';

const SET_EXPIRY: readonly ExpiryWord[] = ['ex', 'px', 'exat', 'pxat', 'keepttl'];
const GETEX_EXPIRY: readonly ExpiryWord[] = ['ex', 'px', 'exat', 'pxat', 'persist'];

// GET key
export function getCommand(ctx: Ctx, argv: Args): Reply {
  return getString(ctx.ks, argv[1]);
}

// SET key value [NX | XX | IFEQ value | IFNE value | IFDEQ digest | IFDNE digest] [GET]
//   [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]
export function setCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length === 3) {
    ctx.ks.set(argv[1], argv[2]);
    ctx.events.notify(KeyEvent.string, 'set', argv[1]);
    return OK;
  }
  const r = new ArgReader(argv, 3);
  let cond: Condition | undefined;
  let get = false;
  let expiry: Expiry | null = null;
  while (!r.done && r.error === null) {
    const word = r.word('nx', 'xx', 'get');
    if (word === 'get') {
      get = true;
    } else if (word !== undefined) {
      if (cond !== undefined && cond.word !== word) r.fail(SYNTAX);
      cond = { word };
    } else {
      const comparison = readComparison(r);
      if (comparison !== undefined) {
        if (cond !== undefined) r.fail(SYNTAX);
        cond = comparison;
        continue;
      }
      const e = readExpiry(r, SET_EXPIRY, expiry);
      if (e === undefined) r.fail(SYNTAX);
      else expiry = e;
    }
  }
  return r.error ?? setGeneric(ctx, 'set', argv[1], argv[2], cond, get, expiry);
}

// SETNX key value
export function setnxCommand(ctx: Ctx, argv: Args): Reply {
  if (ctx.ks.lookup(argv[1]) !== undefined) return unchanged(ctx, 0);
  ctx.ks.insert(argv[1], argv[2], 0);
  ctx.events.notify(KeyEvent.string, 'set', argv[1]);
  return 1;
}

// SETEX key seconds value
export function setexCommand(ctx: Ctx, argv: Args): Reply {
  return setGeneric(ctx, 'setex', argv[1], argv[3], undefined, false, { word: 'ex', time: argv[2] });
}

// PSETEX key milliseconds value
export function psetexCommand(ctx: Ctx, argv: Args): Reply {
  return setGeneric(ctx, 'psetex', argv[1], argv[3], undefined, false, { word: 'px', time: argv[2] });
}

/**
 * Redis's setGenericCommand. Order of checks as Redis: the expiry time, then the old value's
 * type (for GET or a comparing condition), then the condition. `command` names the command in
 * errors. A write that went ahead after a comparison is logged without it; NX and XX are
 * logged as given, as Redis propagates them.
 */
function setGeneric(
  ctx: Ctx,
  command: string,
  key: string,
  value: string,
  cond: Condition | undefined,
  get: boolean,
  expiry: Expiry | null,
): Reply {
  const ks = ctx.ks;
  const at = deadline(expiry, ks.now(), command);
  if (isError(at)) return at;
  // With GET the key is read first, as GET reads it (Redis's getGenericCommand): a missing one
  // publishes keymiss.
  if (get) ks.reading = true;
  const s = ks.lookup(key);
  let old: string | null = null;
  if ((get || compares(cond)) && s !== undefined) {
    const stored = textOf(ks.valueAt(s));
    if (stored === undefined) return WRONGTYPE;
    old = stored;
  }
  if (cond !== undefined && !conditionHolds(cond, s !== undefined, old ?? undefined)) {
    return unchanged(ctx, get ? old : null);
  }
  const logged = store(ctx, s, key, value, at, expiry?.word === 'keepttl');
  if (at !== 0 || get || compares(cond)) ctx.rewrite([logged]);
  return get ? old : OK;
}

/** The absolute expiry `expiry` names in ms (0: none), or why it is no time. */
function deadline(expiry: Expiry | null, now: number, command: string): number | bigint | ReplyError {
  return isTimed(expiry) ? expiryAt(expiry, now, command) : 0;
}

/**
 * SET's write of `value` at `key` (live slot `s`, if any), expiring at `at` (0: never) or, with
 * `keepTtl`, when it did, with its events (`set`, then `expire` for a new time); answers the
 * unconditional SET that logs it.
 */
function store(ctx: Ctx, s: Slot | undefined, key: string, value: string, at: number | bigint, keepTtl: boolean): Args {
  const ks = ctx.ks;
  put(ks, s, key, value, keepTtl && s !== undefined ? ks.expiryAt(s) : Number(at));
  ctx.events.notify(KeyEvent.string, 'set', key);
  if (at !== 0) ctx.events.notify(KeyEvent.generic, 'expire', key);
  return at !== 0 ? ['set', key, value, 'pxat', String(at)] : keepTtl ? ['set', key, value, 'keepttl'] : ['set', key, value];
}

/** Stores `value` at `key`, whose live slot (if any) is `s`, expiring at `exp` (0: never). */
function put(ks: Keyspace, s: Slot | undefined, key: string, value: string, exp: number): void {
  if (s === undefined) {
    ks.insert(key, value, exp);
  } else {
    ks.setValueAt(s, value);
    ks.setExpiry(s, exp);
  }
}

// GETSET key value
export function getsetCommand(ctx: Ctx, argv: Args): Reply {
  const s = stringSlot(ctx.ks, argv[1]);
  if (isError(s)) return s;
  const old = stringAt(ctx.ks, s) ?? null;
  put(ctx.ks, s, argv[1], argv[2], 0);
  ctx.events.notify(KeyEvent.string, 'set', argv[1]);
  ctx.rewrite([['set', argv[1], argv[2]]]);
  return old;
}

// GETDEL key
export function getdelCommand(ctx: Ctx, argv: Args): Reply {
  const old = getString(ctx.ks, argv[1]);
  if (typeof old !== 'string') return unchanged(ctx, old);
  ctx.ks.delete(argv[1]);
  ctx.events.notify(KeyEvent.generic, 'del', argv[1]);
  ctx.rewrite([['del', argv[1]]]);
  return old;
}

// GETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST]
export function getexCommand(ctx: Ctx, argv: Args): Reply {
  const r = new ArgReader(argv, 2);
  let expiry: Expiry | null = null;
  while (!r.done && r.error === null) {
    const e = readExpiry(r, GETEX_EXPIRY, expiry);
    if (e === undefined) r.fail(SYNTAX);
    else expiry = e;
  }
  if (r.error !== null) return r.error;
  const ks = ctx.ks;
  const key = argv[1];
  const s = stringSlot(ks, key);
  ctx.rewrite(NOTHING);
  if (s === undefined) return null;
  if (isError(s)) return s;
  const value = stringAt(ks, s);
  if (isTimed(expiry)) {
    // Redis checks the time only once it has found the key.
    const at = expiryAt(expiry, ks.now(), 'getex');
    if (isError(at)) return at;
    if (Number(at) <= ks.now()) {
      // Only EXAT/PXAT can be past: the key goes at once, and is logged as deleted.
      ks.delete(key);
      ctx.events.notify(KeyEvent.generic, 'del', key);
      ctx.rewrite([['del', key]]);
    } else {
      ks.setExpiry(s, Number(at));
      ctx.events.notify(KeyEvent.generic, 'expire', key);
      ctx.rewrite([['pexpireat', key, String(at)]]);
    }
  } else if (expiry?.word === 'persist' && ks.expiryAt(s) !== 0) {
    ks.setExpiry(s, 0);
    ctx.events.notify(KeyEvent.generic, 'persist', key);
    ctx.rewrite([['persist', key]]);
  }
  return value;
}

// MGET key [key ...]
export function mgetCommand(ctx: Ctx, argv: Args): Reply {
  const out: Reply[] = new Array(argv.length - 1);
  for (let i = 1; i < argv.length; i++) {
    const v = ctx.ks.get(argv[i]);
    out[i - 1] = v === undefined ? null : (textOf(v) ?? null);
  }
  return out;
}

// MSET key value [key value ...]
export function msetCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length % 2 === 0) return wrongArity('mset');
  setAll(ctx, argv);
  return OK;
}

// MSETEX numkeys key value [key value ...] [NX | XX] [EX seconds | PX milliseconds |
//   EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]: 1 when written, 0 when
// NX or XX held for not every key. A deadline already past deletes the keys (and answers 1).
export function msetexCommand(ctx: Ctx, argv: Args): Reply {
  const n = parseInteger(argv[1]);
  if (n === undefined) return NOT_INTEGER;
  if (n < 1) return NUMKEYS_NOT_POSITIVE;
  const end = 2 + 2 * n;
  if (end > argv.length) return NUMKEYS_OVER_ARGS;
  const r = new ArgReader(argv, end);
  let cond: 'nx' | 'xx' | undefined;
  let expiry: Expiry | null = null;
  while (!r.done && r.error === null) {
    const word = r.word('nx', 'xx');
    if (word !== undefined) {
      if (cond !== undefined) r.fail(SYNTAX);
      cond = word;
      continue;
    }
    const e = readExpiry(r, SET_EXPIRY, expiry);
    if (e === undefined) r.fail(SYNTAX);
    else expiry = e;
  }
  if (r.error !== null) return r.error;
  const ks = ctx.ks;
  const at = deadline(expiry, ks.now(), 'msetex');
  if (isError(at)) return at;
  for (let i = 2; i < end; i += 2) {
    const exists = ks.lookup(argv[i]) !== undefined;
    if (cond === 'nx' ? exists : cond === 'xx' && !exists) return unchanged(ctx, 0);
  }
  const past = at !== 0 && Number(at) <= ks.now();
  const log: Args[] = [];
  for (let i = 2; i < end; i += 2) {
    if (past) {
      if (!ks.delete(argv[i])) continue;
      ctx.events.notify(KeyEvent.generic, 'del', argv[i]);
      log.push(['del', argv[i]]);
    } else {
      log.push(store(ctx, ks.lookup(argv[i]), argv[i], argv[i + 1], at, expiry?.word === 'keepttl'));
    }
  }
  ctx.rewrite(log);
  return 1;
}

// MSETNX key value [key value ...]
export function msetnxCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length % 2 === 0) return wrongArity('msetnx');
  for (let i = 1; i < argv.length; i += 2) {
    if (ctx.ks.lookup(argv[i]) !== undefined) return unchanged(ctx, 0);
  }
  setAll(ctx, argv);
  return 1;
}

/** MSET's and MSETNX's writes: each pair from argv[1] on, with its `set` event. */
function setAll(ctx: Ctx, argv: Args): void {
  for (let i = 1; i < argv.length; i += 2) {
    ctx.ks.set(argv[i], argv[i + 1]);
    ctx.events.notify(KeyEvent.string, 'set', argv[i]);
  }
}

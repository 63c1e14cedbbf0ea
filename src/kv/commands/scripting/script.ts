// SCRIPT LOAD, EXISTS, FLUSH, KILL (Redis eval.c scriptCommand). SCRIPT LOAD'd scripts persist:
// the first load of a body is logged (SCRIPT LOAD is not a write, so it asks to be), SCRIPT
// FLUSH too, and snapshots keep them.

import { NOTBUSY, ReplyError, SCRIPT_FLUSH_OPTION } from '../../errors.js';
import { OK, type Reply } from '../../reply.js';
import type { Args, Ctx } from '../spec.js';

// SCRIPT LOAD script
export function scriptLoadCommand(ctx: Ctx, argv: Args): Reply {
  const script = ctx.scripting.cache(argv[2]);
  if (script instanceof ReplyError) return script;
  if (!script.persisted) {
    script.persisted = true;
    ctx.rewrite([argv]);
  }
  return script.sha;
}

// SCRIPT EXISTS sha1 [sha1 ...]
export function scriptExistsCommand(ctx: Ctx, argv: Args): Reply {
  return argv.slice(2).map((sha) => (ctx.scripting.scripts.get(sha) === undefined ? 0 : 1));
}

// SCRIPT FLUSH [ASYNC | SYNC]
export function scriptFlushCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3 || (argv.length === 3 && !['async', 'sync'].includes(argv[2].toLowerCase()))) return SCRIPT_FLUSH_OPTION;
  ctx.scripting.flushScripts();
  ctx.rewrite([['SCRIPT', 'FLUSH']]);
  return OK;
}

// SCRIPT KILL, FUNCTION KILL: a script runs to its end or its time limit before the next
// command is read, so none is ever running when one of these arrives.
export function scriptKillCommand(): Reply {
  return NOTBUSY;
}

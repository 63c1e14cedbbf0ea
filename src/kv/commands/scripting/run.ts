// Running scripts and functions: EVAL, EVALSHA, FCALL and their read-only forms (Redis eval.c
// evalGenericCommand, functions.c fcallCommandGeneric).

import {
  BAD_NUMKEYS,
  FUNCTION_NOT_FOUND,
  NOSCRIPT,
  NOT_INTEGER,
  NUMKEYS_NEGATIVE,
  NUMKEYS_TOO_MANY,
  ReplyError,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import type { Args, Ctx } from '../spec.js';

/** argv[3..] split by numkeys (argv[2]) into keys and arguments. */
function splitKeys(argv: Args, notInteger: ReplyError): { keys: Args; args: Args } | ReplyError {
  const n = parseInteger(argv[2]);
  if (n === undefined) return notInteger;
  if (n > argv.length - 3) return NUMKEYS_TOO_MANY;
  if (n < 0) return NUMKEYS_NEGATIVE;
  return { keys: argv.slice(3, 3 + n), args: argv.slice(3 + n) };
}

function runScript(ctx: Ctx, argv: Args, bySha: boolean, readOnly: boolean): Reply {
  const split = splitKeys(argv, NOT_INTEGER);
  if (split instanceof ReplyError) return split;
  const script = bySha ? (ctx.scripting.scripts.get(argv[1]) ?? NOSCRIPT) : ctx.scripting.cache(argv[1]);
  if (script instanceof ReplyError) return script;
  return ctx.scripting.runScript(script, split.keys, split.args, readOnly);
}

// EVAL script numkeys [key ...] [arg ...]
export const evalCommand = (ctx: Ctx, argv: Args) => runScript(ctx, argv, false, false);
// EVALSHA sha1 numkeys [key ...] [arg ...]
export const evalshaCommand = (ctx: Ctx, argv: Args) => runScript(ctx, argv, true, false);
// EVAL_RO script numkeys [key ...] [arg ...]
export const evalRoCommand = (ctx: Ctx, argv: Args) => runScript(ctx, argv, false, true);
// EVALSHA_RO sha1 numkeys [key ...] [arg ...]
export const evalshaRoCommand = (ctx: Ctx, argv: Args) => runScript(ctx, argv, true, true);

function runFunction(ctx: Ctx, argv: Args, readOnly: boolean): Reply {
  const fn = ctx.scripting.functions.get(argv[1]);
  if (fn === undefined) return FUNCTION_NOT_FOUND;
  const split = splitKeys(argv, BAD_NUMKEYS);
  if (split instanceof ReplyError) return split;
  return ctx.scripting.runFunction(fn, split.keys, split.args, readOnly);
}

// FCALL function numkeys [key ...] [arg ...]
export const fcallCommand = (ctx: Ctx, argv: Args) => runFunction(ctx, argv, false);
// FCALL_RO function numkeys [key ...] [arg ...]: a function without the no-writes flag runs
// too, as on Upstash, and its writes fail (Redis refuses to call it).
export const fcallRoCommand = (ctx: Ctx, argv: Args) => runFunction(ctx, argv, true);

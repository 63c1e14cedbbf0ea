// Admission: may this caller run this command with these arguments? One function, read by
// every path that runs commands (single, pipeline, multi-exec, scripts, remote backend), and
// it reads nothing but the table.

import {
  noPermCommand,
  NOPERM_CHANNEL,
  NOPERM_KEY,
  ReplyError,
  SCRIPT_ACL_CHANNEL,
  SCRIPT_ACL_COMMAND,
  SCRIPT_ACL_KEY,
  SCRIPT_NOT_ALLOWED,
  SCRIPT_UNKNOWN_COMMAND,
  SCRIPT_WRITE_IN_READONLY,
  SCRIPT_WRONG_ARITY,
  unknownCommand,
  unknownSubcommand,
  unsupported,
  wrongArity,
} from '../errors.js';
import { keysOf, NOSCRIPT, NOT_FOR_READ_ONLY, STREAM, UNSUPPORTED, WRITE, type Args, type Caller, type Command } from './spec.js';

/** How a command is asked for: as a command (alone, in a batch, from a script) or as an event stream (/subscribe, /monitor). */
export type AskedAs = 'command' | 'stream';

/**
 * The command to run (a container's resolved subcommand), or why the caller may not run it.
 * A stream-only command asked for as a command is unsupported, so it discards a multi-exec
 * as a whole on every backend.
 */
export function admit(cmd: Command | undefined, argv: Args, caller: Caller, askedAs: AskedAs): Command | ReplyError {
  const resolved = resolve(cmd, argv);
  if (resolved instanceof ReplyError) return resolved;
  if (caller.readOnly && resolved.bits & NOT_FOR_READ_ONLY) return noPermCommand(resolved.name);
  const denied = caller.acl === null ? null : caller.acl.check(resolved, argv, keysOf(resolved, argv));
  if (denied !== null) return denied;
  if (resolved.bits & STREAM && askedAs !== 'stream') return unsupported(resolved.name);
  return resolved.admits?.(argv) ?? resolved;
}

/**
 * The command argv runs once it is known, supported and of the right arity: for a container
 * (ACL, CONFIG) the subcommand argv[1] names, checked the same way. ACL DRYRUN reads it too.
 */
export function resolve(cmd: Command | undefined, argv: Args): Command | ReplyError {
  if (cmd === undefined) return unknownCommand(argv);
  if (cmd.bits & UNSUPPORTED) return unsupported(cmd.name);
  if (cmd.arity > 0 ? argv.length !== cmd.arity : argv.length < -cmd.arity) return wrongArity(cmd.name);
  if (cmd.subcommands === undefined) return cmd;
  const sub = cmd.subcommands.get(argv[1].toLowerCase());
  return sub === undefined ? unknownSubcommand(argv[1], cmd.name) : resolve(sub, argv);
}

/**
 * Admission of a command a script runs (redis.call), in Redis's order (script.c scriptCall):
 * known, arity, allowed in scripts, then as `admit`, with a read-only script (EVAL_RO, a
 * no-writes function, a read-only token) refusing writes. Errors carry the texts Redis gives
 * inside scripts.
 */
export function admitFromScript(cmd: Command | undefined, argv: Args, caller: Caller, readOnly: boolean): Command | ReplyError {
  if (cmd === undefined) return SCRIPT_UNKNOWN_COMMAND;
  if (cmd.arity > 0 ? argv.length !== cmd.arity : argv.length < -cmd.arity) return SCRIPT_WRONG_ARITY;
  if (cmd.bits & NOSCRIPT) return SCRIPT_NOT_ALLOWED;
  const resolved = resolve(cmd, argv);
  if (resolved instanceof ReplyError) return resolved;
  if (resolved.bits & NOSCRIPT) return SCRIPT_NOT_ALLOWED;
  if (resolved.bits & WRITE && (readOnly || caller.readOnly)) return SCRIPT_WRITE_IN_READONLY;
  const admitted = admit(cmd, argv, caller, 'command');
  if (!(admitted instanceof ReplyError) || !admitted.text.startsWith('NOPERM')) return admitted;
  return admitted === NOPERM_KEY ? SCRIPT_ACL_KEY : admitted === NOPERM_CHANNEL ? SCRIPT_ACL_CHANNEL : SCRIPT_ACL_COMMAND;
}

/**
 * redis.acl_check_cmd: whether the caller may run argv by its ACL user and token (not by
 * arity, which Redis does not check here either); null for a command or subcommand that does
 * not exist.
 */
export function permitsFromScript(cmd: Command | undefined, argv: Args, caller: Caller): boolean | null {
  const resolved = cmd?.subcommands !== undefined && argv.length > 1 ? cmd.subcommands.get(argv[1].toLowerCase()) : cmd;
  if (resolved === undefined) return null;
  if (caller.readOnly && resolved.bits & NOT_FOR_READ_ONLY) return false;
  return caller.acl === null || caller.acl.check(resolved, argv, keysOf(resolved, argv)) === null;
}

// Admission: may this caller run this command with these arguments? One function, read by
// every path that runs commands (single, pipeline, multi-exec, scripts, remote backend), and
// it reads nothing but the table.

import {
  noPermCommand,
  ReplyError,
  unknownCommand,
  unknownSubcommand,
  unsupported,
  wrongArity,
} from '../errors.js';
import { ADMIN, keysOf, UNSUPPORTED, WIDE_READ, WRITE, type Args, type Caller, type Command } from './spec.js';

/** The command to run (a container's resolved subcommand), or why the caller may not run it. */
export function admit(cmd: Command | undefined, argv: Args, caller: Caller): Command | ReplyError {
  const resolved = resolve(cmd, argv);
  if (resolved instanceof ReplyError) return resolved;
  // Read-only tokens read data: no writes, no keyspace walks, no administration (ACL SETUSER).
  if (caller.readOnly && resolved.bits & (WRITE | WIDE_READ | ADMIN)) return noPermCommand(resolved.name);
  return (caller.acl === null ? null : caller.acl.check(resolved, argv, keysOf(resolved, argv))) ?? resolved;
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

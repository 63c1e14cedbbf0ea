// Admission: may this caller run this command with these arguments? One function, read by
// every path that runs commands (single, pipeline, multi-exec, scripts, remote backend), and
// it reads nothing but the table.

import { noPermCommand, unknownCommand, unsupported, wrongArity, type ReplyError } from '../errors.js';
import { keysOf, UNSUPPORTED, WIDE_READ, WRITE, type Args, type Caller, type Command } from './spec.js';

export function admit(cmd: Command | undefined, argv: Args, caller: Caller): ReplyError | null {
  if (cmd === undefined) return unknownCommand(argv);
  if (cmd.bits & UNSUPPORTED) return unsupported(cmd.name);
  if (cmd.arity > 0 ? argv.length !== cmd.arity : argv.length < -cmd.arity) return wrongArity(cmd.name);
  if (caller.readOnly && cmd.bits & (WRITE | WIDE_READ)) return noPermCommand(cmd.name);
  return caller.acl === null ? null : caller.acl.check(cmd, argv, keysOf(cmd, argv));
}

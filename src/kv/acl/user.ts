// An ACL user: which commands it may run and which keys it may touch.

import { noPermCommand, type ReplyError } from '../errors.js';
import type { Args, Command } from '../commands/spec.js';

export class AclUser {
  enabled = true;
  constructor(readonly name: string) {}

  /** null when the user may run `cmd` on `keys`; the NOPERM error otherwise. */
  check(cmd: Command, _argv: Args, _keys: readonly string[]): ReplyError | null {
    return this.enabled ? null : noPermCommand(cmd.name);
  }
}

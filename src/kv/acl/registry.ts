// Every token of one database and the ACL users behind them.

import type { Caller } from '../commands/spec.js';

export class AclRegistry {
  private readonly tokens = new Map<string, Caller>();

  constructor(standardToken: string, readOnlyToken: string) {
    this.tokens.set(standardToken, { user: 'default', readOnly: false, acl: null });
    this.tokens.set(readOnlyToken, { user: 'default', readOnly: true, acl: null });
  }

  /** The caller a token authenticates, or undefined when it is unknown. */
  callerFor(token: string): Caller | undefined {
    return this.tokens.get(token);
  }
}

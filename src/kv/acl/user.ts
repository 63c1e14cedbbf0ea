// An ACL user (Redis 7): on or off, its password hashes, and its selectors: the root one and
// any extra '(...)' ones. A command runs when one selector allows it.

import { createHash } from 'node:crypto';
import type { AclUserView, Args, Caller, Command, CommandList, CommandRules } from '../commands/spec.js';
import { AclRule, noPermCommand, NOPERM_CHANNEL, NOPERM_KEY, WRONG_PASS, type AclRuleReason, type ReplyError } from '../errors.js';
import type { Reply } from '../reply.js';
import { DENIED_COMMAND, DENIED_KEY, Selector, type Denial } from './selector.js';

/** SHA-256 of a password's bytes, in lower-case hex: how Redis keeps passwords. */
export function hashPassword(password: string): string {
  return createHash('sha256').update(password, 'latin1').digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;

export class AclUser implements CommandRules, AclUserView {
  enabled = false;
  nopass = false;
  /** RESTORE payload checking; Redis keeps the flag, Larder only reports it. */
  sanitize: 'sanitize-payload' | 'skip-sanitize-payload' | null = null;
  passwords: string[] = [];
  root: Selector;
  selectors: Selector[] = [];
  /** The caller every token of this user runs as. */
  readonly caller: Caller;

  /** A new user is off, with no passwords, keys, channels or commands. */
  constructor(
    readonly name: string,
    private readonly commands: CommandList,
  ) {
    this.root = new Selector(commands);
    this.caller = { user: name, readOnly: false, acl: this };
  }

  /** A copy to stage changes on: a failing rule must leave the user as it was. */
  clone(): AclUser {
    const u = new AclUser(this.name, this.commands);
    u.enabled = this.enabled;
    u.nopass = this.nopass;
    u.sanitize = this.sanitize;
    u.passwords = [...this.passwords];
    u.root = this.root.clone();
    u.selectors = this.selectors.map((s) => s.clone());
    return u;
  }

  /** Takes over a staged copy's state, keeping this object (and the callers holding it). */
  assign(from: AclUser): void {
    this.enabled = from.enabled;
    this.nopass = from.nopass;
    this.sanitize = from.sanitize;
    this.passwords = from.passwords;
    this.root = from.root;
    this.selectors = from.selectors;
  }

  /** Whether a password with this hash authenticates as this user, on or off. */
  acceptsHash(hash: string): boolean {
    return this.nopass || this.passwords.includes(hash);
  }

  /** Whether `hash` is one of its passwords: nopass does not count. */
  hasPassword(hash: string): boolean {
    return this.passwords.includes(hash);
  }

  /** Applies one rule (a '(...)' selector arrives as one rule); the reason it is invalid otherwise. */
  apply(op: string): AclRuleReason | null {
    if (op === '') return null;
    switch (op.toLowerCase()) {
      case 'on':
        this.enabled = true;
        return null;
      case 'off':
        this.enabled = false;
        return null;
      case 'nopass':
        this.nopass = true;
        this.passwords = [];
        return null;
      case 'resetpass':
        this.nopass = false;
        this.passwords = [];
        return null;
      case 'sanitize-payload':
      case 'skip-sanitize-payload':
        this.sanitize = op.toLowerCase() as 'sanitize-payload' | 'skip-sanitize-payload';
        return null;
      case 'clearselectors':
        this.selectors = [];
        return null;
      case 'reset':
        for (const rule of ['resetpass', 'resetkeys', 'resetchannels', 'off', 'sanitize-payload', 'clearselectors', '-@all']) {
          this.apply(rule);
        }
        return null;
    }
    switch (op[0]) {
      case '>':
        return this.addHash(hashPassword(op.slice(1)));
      case '#':
        return HASH.test(op.slice(1)) ? this.addHash(op.slice(1)) : AclRule.BAD_HASH;
      case '<':
        return this.removeHash(hashPassword(op.slice(1)));
      case '!':
        return HASH.test(op.slice(1)) ? this.removeHash(op.slice(1)) : AclRule.BAD_HASH;
      case '(':
        return op.endsWith(')') ? this.addSelector(op.slice(1, -1)) : AclRule.SYNTAX;
      default:
        return this.root.apply(op);
    }
  }

  /** null when the user may run `cmd` with `argv` on `keys`; the error to answer otherwise. */
  check(cmd: Command, argv: Args, keys: readonly string[]): ReplyError | null {
    // A token outlives an 'off': its user is refused as AUTH refuses it.
    if (!this.enabled) return WRONG_PASS;
    const denial = this.deny(cmd, argv, keys);
    if (denial === null) return null;
    return denial.rank === DENIED_COMMAND ? noPermCommand(cmd.name) : denial.rank === DENIED_KEY ? NOPERM_KEY : NOPERM_CHANNEL;
  }

  /** Why no selector allows the command, as Redis picks it: the highest rank, then the latest key. */
  deny(cmd: Command, argv: Args, keys: readonly string[]): Denial | null {
    let worst: Denial | null = null;
    for (const s of [this.root, ...this.selectors]) {
      const d = s.deny(cmd, argv, keys);
      if (d === null) return null;
      if (worst === null || d.rank > worst.rank || (d.rank === worst.rank && d.index > worst.index)) worst = d;
    }
    return worst;
  }

  /** Whether some selector may read every key (Redis ACLUserCheckKeyPerm on '*'). */
  readsAnyKey(): boolean {
    return this.root.readsAnyKey() || this.selectors.some((s) => s.readsAnyKey());
  }

  /** Whether some selector allows every command on every key and channel. */
  allowsEverything(): boolean {
    return this.root.allowsEverything() || this.selectors.some((s) => s.allowsEverything());
  }

  /** Each selector (the root first) as rules naming every command it allows (Selector.byCommand). */
  selectorsByCommand(): string[][] {
    return [this.root.byCommand(), ...this.selectors.map((s) => s.byCommand())];
  }

  /** The rules that rebuild this user, as ACL LIST shows them after 'user <name>'. */
  describe(): string[] {
    return [
      this.enabled ? 'on' : 'off',
      ...(this.nopass ? ['nopass'] : []),
      ...(this.sanitize === null ? [] : [this.sanitize]),
      ...this.passwords.map((h) => `#${h}`),
      ...this.root.describe(),
      ...this.selectors.map((s) => `(${s.describe().join(' ')})`),
    ];
  }

  /** ACL GETUSER's reply. */
  fields(): Reply {
    const flags = [this.enabled ? 'on' : 'off', ...(this.nopass ? ['nopass'] : [])];
    if (this.sanitize !== null) flags.push(this.sanitize);
    return [
      'flags',
      flags,
      'passwords',
      [...this.passwords],
      ...this.root.fields(),
      'selectors',
      this.selectors.map((s) => s.fields()),
    ];
  }

  private addHash(hash: string): null {
    if (!this.passwords.includes(hash)) this.passwords.push(hash);
    this.nopass = false;
    return null;
  }

  private removeHash(hash: string): AclRuleReason | null {
    const at = this.passwords.indexOf(hash);
    if (at === -1) return AclRule.NO_SUCH_PASSWORD;
    this.passwords.splice(at, 1);
    return null;
  }

  private addSelector(rules: string): AclRuleReason | null {
    const s = new Selector(this.commands);
    for (const rule of rules.split(/[ \t\n\r]+/)) {
      const reason = rule === '' ? null : s.apply(rule);
      if (reason !== null) return reason;
    }
    this.selectors.push(s);
    return null;
  }
}

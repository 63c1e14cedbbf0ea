// One ACL selector (Redis 7 aclSelector): the commands, keys and channels it allows. A user has
// a root selector and any number of extra ones; a command runs when one of them allows it.
// Rules apply in order, as ACL SETUSER sends them. A selector is only ever changed on a draft
// copy of its user (see registry.ts), so a failed SETUSER leaves nothing half applied.

import { CATEGORIES, READONLY, WRITE, type Args, type Command, type CommandList } from '../commands/spec.js';
import { AclRule, type AclRuleReason } from '../errors.js';
import { globMatch } from '../../text/glob.js';

// Key pattern permissions (%R~, %W~; ~ is both).
const READ = 1;
const WRITE_KEYS = 2;
const READ_WRITE = 3;

/** Why a command was refused, ranked as Redis picks one among selectors (ACL_DENIED_*). */
export const DENIED_COMMAND = 1;
export const DENIED_KEY = 2;
export const DENIED_CHANNEL = 4;
export interface Denial {
  readonly rank: number;
  /** Which key failed, for ranking: the later key wins between equal ranks. */
  readonly index: number;
  /** The command's full name, the key or the channel. */
  readonly object: string;
}

interface KeyPattern {
  readonly pattern: string;
  perms: number;
}

/** Redis refuses spaces and NULs in names and patterns (ACLStringHasSpaces, C isspace). */
export const hasSpaces = (s: string) => /[ \t\n\v\f\r\0]/.test(s);

export class Selector {
  private keys: KeyPattern[] = [];
  private allKeys = false;
  private channels: string[] = [];
  private allChannels = false;
  /** Full names of the commands allowed: 'get', 'acl|setuser'. */
  private allowed = new Set<string>();
  /** Commands allowed only with these (lower-case) first arguments: +select|0. */
  private firstArgs = new Map<string, Set<string>>();
  /** Set by +@all and cleared only by -@all: the description starts from +@all. */
  private fromAll = false;
  /** Command rules in order, minus those a later rule on the same name overrode (Redis 7.2). */
  private rules: string[] = [];

  /** `commands`: the table the rules name commands and categories from. */
  constructor(private readonly commands: CommandList) {}

  clone(): Selector {
    const s = new Selector(this.commands);
    s.keys = this.keys.map((k) => ({ ...k }));
    s.allKeys = this.allKeys;
    s.channels = [...this.channels];
    s.allChannels = this.allChannels;
    s.allowed = new Set(this.allowed);
    s.firstArgs = new Map([...this.firstArgs].map(([name, args]) => [name, new Set(args)]));
    s.fromAll = this.fromAll;
    s.rules = [...this.rules];
    return s;
  }

  /** Applies one rule; the reason it is invalid otherwise. */
  apply(op: string): AclRuleReason | null {
    const lower = op.toLowerCase();
    switch (lower) {
      case 'allkeys':
        this.allKeys = true;
        this.keys = [];
        return null;
      case 'resetkeys':
        this.allKeys = false;
        this.keys = [];
        return null;
      case 'allchannels':
        this.allChannels = true;
        this.channels = [];
        return null;
      case 'resetchannels':
        this.allChannels = false;
        this.channels = [];
        return null;
      case 'allcommands':
      case '+@all':
        this.setAll(true);
        return null;
      case 'nocommands':
      case '-@all':
        this.setAll(false);
        return null;
    }
    switch (op[0]) {
      case '~':
      case '%':
        return this.addKeyPattern(op);
      case '&':
        return this.addChannel(op.slice(1));
      case '+':
      case '-':
        return op[1] === '@' ? this.applyCategory(lower.slice(2), op[0] === '+') : this.applyCommand(lower.slice(1), op[0] === '+');
      default:
        return AclRule.SYNTAX;
    }
  }

  /** Why this selector refuses `cmd` with `argv` on `keys`, or null when it allows it. */
  deny(cmd: Command, argv: Args, keys: readonly string[]): Denial | null {
    if (!this.allowed.has(cmd.name) && !(argv.length > 1 && this.firstArgs.get(cmd.name)?.has(argv[1].toLowerCase()))) {
      return { rank: DENIED_COMMAND, index: 0, object: cmd.name };
    }
    return this.denyKeys(cmd, keys) ?? this.denyChannels(cmd, argv);
  }

  private denyKeys(cmd: Command, keys: readonly string[]): Denial | null {
    if (this.allKeys) return null;
    // Redis reads the permission from each key spec's flags; the command's bits stand in.
    const need = cmd.bits & WRITE ? WRITE_KEYS : cmd.bits & READONLY ? READ : 0;
    for (let i = 0; i < keys.length; i++) {
      if (!this.keys.some((k) => (k.perms & need) === need && globMatch(k.pattern, keys[i]))) {
        return { rank: DENIED_KEY, index: i, object: keys[i] };
      }
    }
    return null;
  }

  /** A channel matches an allowed pattern; a subscribed pattern must be one (ACLCheckChannelAgainstList). */
  private denyChannels(cmd: Command, argv: Args): Denial | null {
    const spec = cmd.channels;
    if (spec === undefined || this.allChannels) return null;
    const last = spec.last < 0 ? argv.length + spec.last : spec.last;
    for (let i = spec.first; i <= last; i++) {
      const channel = argv[i];
      if (!this.channels.some((c) => (spec.pattern ? c === channel : globMatch(c, channel)))) {
        return { rank: DENIED_CHANNEL, index: i, object: channel };
      }
    }
    return null;
  }

  /** Whether every key may be read (Redis checks the pattern '*' itself: SORT's BY and GET). */
  readsAnyKey(): boolean {
    return this.allKeys || this.keys.some((k) => (k.perms & READ) === READ && globMatch(k.pattern, '*'));
  }

  /** Whether every command may run on every key and channel; `every` holds subcommands too. */
  allowsEverything(): boolean {
    return this.allKeys && this.allChannels && this.allowed.size === this.commands.every.length;
  }

  /** ACL LIST's words for this selector: keys, channels, then commands. */
  describe(): string[] {
    return [...this.keyWords(), ...this.channelWords(), ...this.commandWords()];
  }

  /**
   * Its keys and channels, then each command it allows by full name after `-@all` (name order):
   * rules for a server whose categories hold other commands than Larder's table.
   */
  byCommand(): string[] {
    const firstArgs = [...this.firstArgs].flatMap(([name, args]) => [...args].map((arg) => `+${name}|${arg}`));
    return [...this.keyWords(), ...this.channelWords(), '-@all', ...[...this.allowed].sort().map((name) => `+${name}`), ...firstArgs.sort()];
  }

  /** ACL GETUSER's fields for this selector. */
  fields(): string[] {
    const channels = this.allChannels ? '&*' : this.channels.map((c) => `&${c}`).join(' ');
    return ['commands', this.commandWords().join(' '), 'keys', this.keyWords().join(' '), 'channels', channels];
  }

  private keyWords(): string[] {
    if (this.allKeys) return ['~*'];
    return this.keys.map((k) => (k.perms === READ_WRITE ? '~' : k.perms === READ ? '%R~' : '%W~') + k.pattern);
  }

  private channelWords(): string[] {
    return this.allChannels ? ['&*'] : ['resetchannels', ...this.channels.map((c) => `&${c}`)];
  }

  private commandWords(): string[] {
    return [this.fromAll ? '+@all' : '-@all', ...this.rules];
  }

  private addKeyPattern(op: string): AclRuleReason | null {
    if (this.allKeys) return AclRule.KEYS_AFTER_ALL;
    let perms = READ_WRITE;
    let at = 1;
    if (op[0] === '%') {
      perms = 0;
      for (; at < op.length; at++) {
        const c = op[at].toUpperCase();
        if (c === 'R' && !(perms & READ)) perms |= READ;
        else if (c === 'W' && !(perms & WRITE_KEYS)) perms |= WRITE_KEYS;
        else if (c === '~') {
          at++;
          break;
        } else return AclRule.SYNTAX;
      }
      if (perms === 0) return AclRule.SYNTAX;
    }
    const pattern = op.slice(at);
    if (hasSpaces(pattern)) return AclRule.SYNTAX;
    if (pattern === '*' && perms === READ_WRITE) {
      this.allKeys = true;
      this.keys = [];
      return null;
    }
    const same = this.keys.find((k) => k.pattern === pattern);
    if (same === undefined) this.keys.push({ pattern, perms });
    else same.perms |= perms;
    return null;
  }

  private addChannel(pattern: string): AclRuleReason | null {
    if (this.allChannels) return AclRule.CHANNELS_AFTER_ALL;
    if (hasSpaces(pattern)) return AclRule.SYNTAX;
    if (pattern === '*') {
      this.allChannels = true;
      this.channels = [];
    } else if (!this.channels.includes(pattern)) {
      this.channels.push(pattern);
    }
    return null;
  }

  private setAll(allow: boolean): void {
    this.allowed = allow ? new Set(this.commands.every.map((c) => c.name)) : new Set();
    this.fromAll = allow;
    this.firstArgs.clear();
    this.rules = [];
  }

  // +@category / -@category: every command in it, and each container's subcommands in it.
  private applyCategory(category: string, allow: boolean): AclRuleReason | null {
    if (!CATEGORIES.has(category)) return AclRule.UNKNOWN;
    for (const cmd of this.commands.every) {
      if (cmd.categories.has(category)) this.permit(cmd, allow);
    }
    this.record(`@${category}`, allow);
    return null;
  }

  // +cmd, -cmd, +container|sub, -container|sub, and +cmd|firstarg (deprecated in Redis, still honoured).
  private applyCommand(name: string, allow: boolean): AclRuleReason | null {
    const bar = name.lastIndexOf('|');
    if (!allow || bar === -1) {
      const cmd = this.findCommand(name);
      if (cmd === undefined) return AclRule.UNKNOWN;
      this.permit(cmd, allow);
      this.record(cmd.name, allow);
      return null;
    }
    const cmd = this.findCommand(name.slice(0, bar));
    const arg = name.slice(bar + 1);
    if (cmd === undefined) return AclRule.UNKNOWN;
    if (cmd.name.includes('|')) return AclRule.SUBCOMMAND_FIRST_ARG;
    if (arg === '') return AclRule.SYNTAX;
    if (cmd.subcommands !== undefined) {
      const sub = cmd.subcommands.get(arg);
      if (sub === undefined) return AclRule.UNKNOWN;
      this.permit(sub, true);
    } else {
      const args = this.firstArgs.get(cmd.name) ?? new Set();
      this.firstArgs.set(cmd.name, args.add(arg));
    }
    this.record(name, true);
    return null;
  }

  /** Allows or refuses a command and, for a container, all its subcommands (ACLChangeSelectorPerm). */
  private permit(cmd: Command, allow: boolean): void {
    for (const c of [cmd, ...(cmd.subcommands?.values() ?? [])]) {
      if (allow) this.allowed.add(c.name);
      else this.allowed.delete(c.name);
    }
    this.firstArgs.delete(cmd.name);
  }

  /** Appends a rule, dropping earlier ones on the same name and, for a command, its subcommands. */
  private record(name: string, allow: boolean): void {
    this.rules = this.rules.filter((r) => r.slice(1) !== name && !r.startsWith(`${name}|`, 1));
    this.rules.push((allow ? '+' : '-') + name);
  }

  /** A command or 'container|sub' by its lower-case full name. */
  private findCommand(name: string): Command | undefined {
    const [base, sub, extra] = name.split('|');
    if (extra !== undefined) return undefined;
    const cmd = this.commands.lookup(base);
    return sub === undefined ? cmd : cmd?.subcommands?.get(sub);
  }
}

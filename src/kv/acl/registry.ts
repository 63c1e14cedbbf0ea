// Every token of one database and the ACL users behind them. The database's own two tokens
// are fixed (config or secrets.json) and run as 'default' without ACL checks; ACL RESTTOKEN adds
// one token per user and password, kept with the users in acl.json (store.ts). ACL GENTOKEN's
// tokens (Upstash's extension) are kept nowhere: each wraps a user name and a password, and
// authenticates while that user has the token itself as a password (`>token`), never by nopass.
//
// Invariant: every ACL token's password is still accepted by its user, so a token dies with its
// user or its password. Users change in place, so requests already holding a user's caller see
// the change at once, as Redis connections do. Only commands change this state, one at a time,
// each saved before it answers (undone when the disk refuses it). Where `--workers` share
// acl.json, a change starts from the file's state and a request from another process's last
// change (store.ts).

import { randomBytes } from 'node:crypto';
import { newToken } from '../../config/secrets.js';
import type { AclUsers, Args, Caller, CommandList } from '../commands/spec.js';
import { ACL_BAD_USERNAME, ACL_DELETE_DEFAULT, ACL_WEAK_PASSWORD, restTokenRefused, type ReplyError } from '../errors.js';
import { applyRules, splitRules } from './rules.js';
import { hasSpaces } from './selector.js';
import type { AclState, AclStore } from './store.js';
import { AclUser, hashPassword } from './user.js';

const DEFAULT_USER = 'default';
const DEFAULT_RULES = ['on', 'nopass', '~*', '&*', '+@all'];

/** A user declared in the config file: `kv.databases.<db>.users`. */
export interface ConfiguredUser {
  readonly name: string;
  readonly rules: string;
}

interface Grant {
  readonly user: string;
  /** SHA-256 of the password the token was made with. */
  readonly hash: string;
}

export class AclRegistry implements AclUsers {
  private readonly fixed = new Map<string, Caller>();
  private readonly users = new Map<string, AclUser>();
  private readonly grants = new Map<string, Grant>();
  private readonly fromConfig = new Set<string>();
  private readonly removedListeners: ((names: readonly string[]) => void)[] = [];
  /** acl.json's stamp as this process last read or wrote it. */
  private stamp: string | null = null;

  constructor(
    standardToken: string,
    readOnlyToken: string,
    private readonly commands: CommandList,
    private readonly store: AclStore | null = null,
  ) {
    this.fixed.set(standardToken, { user: DEFAULT_USER, readOnly: false, acl: null });
    this.fixed.set(readOnlyToken, { user: DEFAULT_USER, readOnly: true, acl: null });
    this.users.set(DEFAULT_USER, this.build(DEFAULT_USER, DEFAULT_RULES, 'default user'));
  }

  /**
   * Loads the saved users and tokens, then the users the config declares: those replace saved
   * ones of the same name, and users a previous config declared but this one does not are
   * removed. Throws on rules that do not apply, naming the user.
   */
  load(configured: readonly ConfiguredUser[]): void {
    this.refresh(true);
    this.change(() => {
      for (const name of this.fromConfig) {
        if (!configured.some((c) => c.name === name)) this.remove(name);
      }
      for (const c of configured) {
        this.users.set(c.name, this.build(c.name, splitRules(c.rules), `config user '${c.name}'`));
        this.fromConfig.add(c.name);
      }
      this.prune();
    });
  }

  /** The caller a token authenticates, or undefined when it is unknown or revoked. */
  callerFor(token: string): Caller | undefined {
    const fixed = this.fixed.get(token);
    if (fixed !== undefined) return fixed;
    this.refresh();
    const grant = this.grants.get(token);
    if (grant !== undefined) return this.users.get(grant.user)?.caller;
    const wrapped = unwrapToken(token);
    const user = wrapped === null ? undefined : this.users.get(wrapped.name);
    return user?.hasPassword(hashPassword(token)) ? user.caller : undefined;
  }

  /**
   * ACL GENTOKEN: a token wrapping `name` and `password` (a random one when none is given);
   * set as the user's password (`>token`) it is also a REST token for that user. Creates nothing.
   */
  genToken(name: string, password?: string): string | ReplyError {
    if (hasSpaces(name)) return ACL_BAD_USERNAME;
    if (password !== undefined && !strongEnough(password)) return ACL_WEAK_PASSWORD;
    return wrapToken(name, password ?? randomBytes(32).toString('base64url'));
  }

  user(name: string): AclUser | undefined {
    this.refresh();
    return this.users.get(name);
  }

  /** Every user, by name in byte order (as Redis keeps them). */
  list(): AclUser[] {
    this.refresh();
    return [...this.users.values()].sort(byName);
  }

  /** ACL SETUSER: creates or changes a user; all rules apply or none. */
  setUser(name: string, rules: Args): ReplyError | null {
    if (hasSpaces(name)) return ACL_BAD_USERNAME;
    let error: ReplyError | null = null;
    this.change(() => {
      const user = this.users.get(name);
      const draft = user?.clone() ?? new AclUser(name, this.commands);
      error = applyRules(draft, rules);
      if (error !== null) return;
      if (user === undefined) this.users.set(name, draft);
      else user.assign(draft);
      this.prune();
    });
    return error;
  }

  /** ACL DELUSER: how many of `names` existed; their tokens are revoked. */
  deleteUsers(names: Args): number | ReplyError {
    if (names.includes(DEFAULT_USER)) return ACL_DELETE_DEFAULT;
    const gone: string[] = [];
    this.change(() => {
      for (const name of names) if (this.remove(name)) gone.push(name);
    });
    if (gone.length > 0) for (const listener of this.removedListeners) listener(gone);
    return gone.length;
  }

  /** Calls `listener` with the users each ACL DELUSER removed, once that is saved. */
  onUsersRemoved(listener: (names: readonly string[]) => void): void {
    this.removedListeners.push(listener);
  }

  /**
   * ACL RESTTOKEN: the token that runs as `name`, given its password. The same user and
   * password get the same token back.
   */
  restToken(name: string, password: string): string | ReplyError {
    let token: string | ReplyError = restTokenRefused(name);
    this.change(() => {
      const user = this.users.get(name);
      if (user === undefined || !user.enabled) return;
      // A user whose password is a GENTOKEN token may also give the password it wraps.
      const hash = [password, wrapToken(name, password)].map(hashPassword).find((h) => user.acceptsHash(h));
      if (hash === undefined) return;
      for (const [known, grant] of this.grants) {
        if (grant.user === name && grant.hash === hash) {
          token = known;
          return;
        }
      }
      token = newToken();
      this.grants.set(token, { user: name, hash });
    });
    return token;
  }

  /** Deletes a user (the default user is put back as it starts) and revokes its tokens. */
  private remove(name: string): boolean {
    const user = this.users.get(name);
    if (user === undefined) return false;
    // Requests already running as this user are refused from now on.
    user.apply('reset');
    if (name === DEFAULT_USER) this.users.set(name, this.build(name, DEFAULT_RULES, 'default user'));
    else this.users.delete(name);
    this.fromConfig.delete(name);
    this.prune();
    return true;
  }

  /** Revokes the tokens whose user is gone or no longer takes their password. */
  private prune(): void {
    for (const [token, grant] of this.grants) {
      if (!this.users.get(grant.user)?.acceptsHash(grant.hash)) this.grants.delete(token);
    }
  }

  /**
   * Runs `apply`, a change of users or tokens, on the latest saved state and saves the result
   * before anyone sees it answered. A save that fails (a full disk: the server answers 503)
   * undoes the change and throws.
   */
  private change(apply: () => void): void {
    const store = this.store;
    if (store === null) return apply();
    store.exclusive(() => {
      this.refresh();
      const before = this.state();
      apply();
      const after = this.state();
      if (JSON.stringify(after) === JSON.stringify(before)) return;
      try {
        this.stamp = store.save(after);
      } catch (e) {
        this.adopt(before, store.path);
        throw e;
      }
    });
  }

  /** Reads acl.json again when another process changed it since (or at start, `always`). */
  private refresh(always = false): void {
    const store = this.store;
    if (store === null || !(always || store.shared)) return;
    if (!always && store.stamp() === this.stamp) return;
    const saved = store.load();
    if (saved === null) return;
    this.adopt(saved.state, store.path);
    this.stamp = saved.stamp;
  }

  /** Takes over a saved state; users change in place, so callers holding them see it at once. */
  private adopt(state: AclState, where: string): void {
    const names = new Set(state.users.map((u) => u.name));
    for (const name of [...this.users.keys()]) if (!names.has(name)) this.remove(name);
    this.fromConfig.clear();
    for (const u of state.users) {
      const built = this.build(u.name, u.rules, `${where}: user '${u.name}'`);
      const user = this.users.get(u.name);
      if (user === undefined) this.users.set(u.name, built);
      else user.assign(built);
      if (u.config) this.fromConfig.add(u.name);
    }
    this.grants.clear();
    for (const t of state.tokens) this.grants.set(t.token, { user: t.user, hash: t.hash });
  }

  private state(): AclState {
    return {
      users: [...this.users.values()].sort(byName).map((u) => ({
        name: u.name,
        rules: u.describe(),
        ...(this.fromConfig.has(u.name) ? { config: true as const } : {}),
      })),
      tokens: [...this.grants].map(([token, g]) => ({ token, user: g.user, hash: g.hash })),
    };
  }

  /** A user built from rules at start; invalid rules stop the start. */
  private build(name: string, rules: readonly string[], where: string): AclUser {
    if (hasSpaces(name)) throw new Error(`${where}: ${ACL_BAD_USERNAME.text}`);
    const user = new AclUser(name, this.commands);
    const error = applyRules(user, rules);
    if (error !== null) throw new Error(`${where}: ${error.text}`);
    return user;
  }
}

function byName(a: AclUser, b: AclUser): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** GENTOKEN's token: the user name and the password, base64url (a name has no NUL, see hasSpaces). */
function wrapToken(name: string, password: string): string {
  return Buffer.from(`${name}\0${password}`, 'latin1').toString('base64url');
}

function unwrapToken(token: string): { name: string; password: string } | null {
  const text = Buffer.from(token, 'base64url').toString('latin1');
  const nul = text.indexOf('\0');
  return nul <= 0 ? null : { name: text.slice(0, nul), password: text.slice(nul + 1) };
}

/**
 * Larder's reading of "checked for minimum entropy": at least 64 bits by the classes of
 * characters used (lower, upper, digits, other printable, other bytes) and 8 different characters.
 */
function strongEnough(password: string): boolean {
  const pool =
    (/[a-z]/.test(password) ? 26 : 0) +
    (/[A-Z]/.test(password) ? 26 : 0) +
    (/[0-9]/.test(password) ? 10 : 0) +
    (/[!-/:-@[-`{-~]/.test(password) ? 32 : 0) +
    (/[^!-~]/.test(password) ? 128 : 0);
  return password.length * Math.log2(pool) >= 64 && new Set(password).size >= 8;
}

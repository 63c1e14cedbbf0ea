// The Redis ACL users that run the scripts of Larder's limited ACL users on a remote server.
// A script runs there with its connection's rights, so the scripts of a Larder user limited to
// some keys, channels or commands go on a connection of their own, authenticated as a Redis
// user with the same keys and channels and, named one by one, the commands the user may run
// that Larder runs and the server knows, minus those reaching past the database (COPY and
// FLUSHALL reach the server's other databases, and Larder runs no SELECT, SWAPDB or MOVE;
// RESTORE's payload is not checked in full unless the server is set to: backend.ts): the server
// then checks each call as the embedded engine does.
//
// Every Larder process in front of the server makes the same Redis user for the same rules: it
// is named by a hash of the database's token, the Larder user and the rules, and its password
// is derived from the token. It is made on first use with ACL SETUSER (on every node of a
// Cluster; Larder's connection must be allowed ACL), and again after the server lost it (a
// restart without an ACL file); the same user's Redis users for older rules are removed then,
// and all of them when ACL DELUSER removes the user.

import { createHash, createHmac } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { EMBEDDED, GATEWAY, STREAM, UNSUPPORTED, type Command, type CommandRules } from '../commands/spec.js';
import { lookupCommand } from '../commands/table.js';
import { ReplyError, scriptUserRefused } from '../errors.js';
import type { RemoteClient } from './connection.js';

/** Commands Larder runs whose script forms reach past the database: other databases (COPY ... DB, FLUSHALL), the server (RESTORE). */
const REACH_PAST_DATABASE = new Set(['copy', 'flushall', 'restore']);
/** Commands Larder does not send to a remote server as they are. */
const NOT_SENT = UNSUPPORTED | EMBEDDED | GATEWAY | STREAM;
const NAME_PREFIX = 'larder-script:';
const READY_TIMEOUT_MS = 5000;
/** How many users' derived Redis users are remembered before starting over (rules change rarely). */
const MAX_REMEMBERED = 10_000;
/** A connection whose user the server no longer knows. */
export const LOST_AUTH = /^(NOAUTH|WRONGPASS) /;

/** What the server's ACL knows (lower case): its commands, subcommands ('config|get') and those that have them. */
interface ServerAcl {
  readonly commands: ReadonlySet<string>;
  readonly containers: ReadonlySet<string>;
}

interface ScriptUser {
  readonly name: string;
  /** Shared by every user of this Larder user and database: its older Redis users start with it. */
  readonly family: string;
  readonly password: string;
  readonly rules: string[];
}

/** A Redis user's connection as it opens, and the family it belongs to. */
interface Opened {
  readonly family: string;
  readonly conn: Promise<Redis | Cluster | ReplyError>;
}

export class ScriptUsers {
  /** By Redis user name: at most one per family, that of the Larder user's latest rules. */
  private readonly connections = new Map<string, Opened>();
  /** The Redis user of a Larder user's rules, by the user's name and description. */
  private readonly users = new Map<string, ScriptUser>();
  private server: Promise<ServerAcl> | undefined;

  /** `secret`: the database's token, the same in every Larder process serving it. */
  constructor(
    private readonly remote: RemoteClient,
    private readonly dbName: string,
    private readonly secret: string,
  ) {}

  /** The connection `rules`' scripts run on, or why there is none. */
  async connection(userName: string, rules: CommandRules): Promise<Redis | Cluster | ReplyError> {
    const user = await this.scriptUser(userName, rules);
    const opened = this.connections.get(user.name);
    if (opened !== undefined) return opened.conn;
    // The user's rules changed: its connection as the Redis user of its older rules goes.
    for (const [name, other] of this.connections) if (other.family === user.family) this.drop(name);
    const conn = this.open(userName, user);
    this.connections.set(user.name, { family: user.family, conn });
    void conn.then((c) => c instanceof ReplyError && this.connections.delete(user.name));
    return conn;
  }

  /**
   * Removes the Redis users of Larder users that are gone, and their connections. Nobody waits
   * for it: a server that refuses leaves them, unusable without the token they derive from.
   */
  remove(userNames: readonly string[]): void {
    const families = userNames.map((u) => this.family(u));
    for (const [name, opened] of this.connections) if (families.includes(opened.family)) this.drop(name);
    void this.onEveryNode((node) => deleteUsers(node, (name) => families.some((f) => name.startsWith(f)))).catch(() => {});
  }

  /** Drops a connection that failed as its user (the server lost it): the next script makes it again. */
  forget(conn: Redis | Cluster): void {
    for (const [name, opened] of this.connections) void opened.conn.then((c) => c === conn && this.drop(name));
  }

  async close(): Promise<void> {
    const open = await Promise.all([...this.connections.values()].map((o) => o.conn));
    this.connections.clear();
    await Promise.all(open.map((c) => (c instanceof ReplyError ? undefined : c.quit().catch(() => c.disconnect()))));
  }

  private drop(name: string): void {
    const opened = this.connections.get(name);
    this.connections.delete(name);
    void opened?.conn.then((c) => c instanceof ReplyError || c.disconnect());
  }

  private serverAcl(): Promise<ServerAcl> {
    this.server ??= this.remote.main.call('COMMAND').then(commandNames, (e: unknown) => {
      this.server = undefined;
      throw e;
    });
    return this.server;
  }

  /** The Redis user of `rules`, known by their short description; listing each command is done once per change. */
  private async scriptUser(userName: string, rules: CommandRules): Promise<ScriptUser> {
    const key = `${userName} ${rules.describe().join(' ')}`;
    let user = this.users.get(key);
    if (user === undefined) {
      const selectors = rules.selectorsByCommand(); // as described, before the rules can change
      const server = await this.serverAcl();
      if (this.users.size >= MAX_REMEMBERED) this.users.clear();
      user = this.derive(userName, selectors, server);
      this.users.set(key, user);
    }
    return user;
  }

  private derive(userName: string, selectors: readonly string[][], server: ServerAcl): ScriptUser {
    const [root, ...others] = selectors.map((words) => words.filter((w) => sentRule(w, server)));
    // What the connection sends itself: it selects its database as it opens, wraps a transaction
    // in MULTI and EXEC (refused inside scripts), and as a Cluster client reads the slot map.
    const own = [`+select|${this.remote.target.db ?? 0}`, '+multi', '+exec', ...(this.remote.target.cluster ? ['+cluster|slots'] : [])];
    const rules = [...root, ...own, ...others.map((words) => `(${words.join(' ')})`)];
    const family = this.family(userName);
    const name = family + digest([this.secret, ...rules]).slice(0, 16);
    const password = createHmac('sha256', this.secret).update(name).digest('hex');
    return { name, family, password, rules };
  }

  /** What the names of a Larder user's Redis users start with. */
  private family(userName: string): string {
    return NAME_PREFIX + userName + ':' + digest([this.secret, this.dbName, userName]).slice(0, 12) + ':';
  }

  /** Runs `step` on every node (the one server standalone), one after the other. */
  private async onEveryNode(step: (node: Redis | Cluster) => Promise<void>): Promise<void> {
    const main = this.remote.main;
    for (const node of 'nodes' in main ? main.nodes('all') : [main]) await step(node);
  }

  private async open(userName: string, user: ScriptUser): Promise<Redis | Cluster | ReplyError> {
    const made = await this.make(user);
    if (made !== null) return scriptUserRefused(userName, made);
    const conn = this.remote.authenticated(user.name, user.password);
    const ready = await untilReady(conn);
    if (ready !== null) {
      conn.disconnect();
      return scriptUserRefused(userName, ready);
    }
    // The server lost the user (a restart) and refuses it as the connection opens again.
    conn.on('error', (e: Error) => LOST_AUTH.test(e.message) && this.forget(conn));
    return conn;
  }

  /** ACL SETUSER on every node, then the user's older Redis users removed; the server's refusal, if any. */
  private async make(user: ScriptUser): Promise<string | null> {
    const hash = createHash('sha256').update(user.password).digest('hex');
    try {
      await this.onEveryNode(async (node) => {
        await node.call('ACL', 'SETUSER', user.name, 'reset', 'on', `#${hash}`, ...user.rules);
        await deleteUsers(node, (name) => name.startsWith(user.family) && name !== user.name);
      });
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
}

/** ACL DELUSER of the node's users that `gone` picks. */
async function deleteUsers(node: Redis | Cluster, gone: (name: string) => boolean): Promise<void> {
  const names = ((await node.call('ACL', 'USERS')) as unknown[]).map(String).filter(gone);
  if (names.length > 0) await node.call('ACL', 'DELUSER', ...names);
}

/**
 * Whether a rule goes to the server: key and channel rules, -@all, and a `+command` (or
 * `+command|subcommand`, or `+command|firstarg` of one without subcommands) that Larder sends
 * to a remote server as it is, that reaches no further than the database, and that the server knows. A
 * container's own name is left out: its subcommands are named one by one.
 */
function sentRule(word: string, server: ServerAcl): boolean {
  if (word[0] !== '+') return true;
  const name = word.slice(1);
  const [base, arg] = name.split('|');
  const cmd = larderCommand(base, arg);
  if (cmd === undefined || cmd.subcommands !== undefined || cmd.bits & NOT_SENT || REACH_PAST_DATABASE.has(name)) return false;
  return server.commands.has(name) || (server.commands.has(base) && !server.containers.has(base));
}

/** The command a rule names: a container's subcommand, or the command itself (also for a first argument). */
function larderCommand(base: string, arg: string | undefined): Command | undefined {
  const cmd = lookupCommand(base);
  return arg !== undefined && cmd?.subcommands !== undefined ? cmd.subcommands.get(arg) : cmd;
}

/** The names in COMMAND's reply: each entry's, and its subcommands' in its tenth field. */
function commandNames(table: unknown): ServerAcl {
  const commands = new Set<string>();
  const containers = new Set<string>();
  for (const entry of table as unknown[][]) {
    const name = lower(entry[0]);
    commands.add(name);
    const subs = entry[9];
    if (!Array.isArray(subs) || subs.length === 0) continue;
    containers.add(name);
    for (const s of subs as unknown[][]) commands.add(lower(s[0]));
  }
  return { commands, containers };
}

const lower = (v: unknown) => String(v).toLowerCase();

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/** null once the connection is ready; why not otherwise. */
function untilReady(conn: Redis | Cluster): Promise<string | null> {
  if (conn.status === 'ready') return Promise.resolve(null);
  return new Promise((resolve) => {
    let last = 'not ready in time';
    const onError = (e: Error) => (last = e.message);
    const done = (why: string | null) => {
      clearTimeout(timer);
      conn.off('error', onError);
      resolve(why);
    };
    const timer = setTimeout(() => done(last), READY_TIMEOUT_MS);
    conn.on('error', onError);
    conn.once('ready', () => done(null));
  });
}

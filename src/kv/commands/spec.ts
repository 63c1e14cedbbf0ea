// The shape of the command table. Each family file declares its commands as data; table.ts
// assembles them once. Everything that asks "what kind of command is this" (read-only tokens,
// ACL categories, transactions, the log, cluster routing) reads the compiled Command.

import type { Keyspace } from '../engine/keyspace.js';
import type { PubSubClient, PubSubHub } from '../engine/pubsub/hub.js';
import type { KeyspaceEvents } from '../engine/pubsub/keyspace-events.js';
import type { Scripting } from '../engine/scripting/scripting.js';
import type { Args } from '../argv.js';
import type { ReplyError } from '../errors.js';
import type { Reply } from '../reply.js';
import type { SearchRegistry } from '../search/registry.js';

export type { Args };

export type Flag =
  | 'write' //         changes data: logged, refused to read-only tokens, bumps the sync token
  | 'readonly' //      reads data
  | 'fast' //          O(1) or O(log n); otherwise @slow
  | 'admin' //         server administration: @admin and @dangerous
  | 'dangerous' //     @dangerous without being admin (KEYS, FLUSHALL, ...)
  | 'wideRead' //      walks the keyspace (KEYS, SCAN, RANDOMKEY): refused to read-only tokens
  | 'changesServer' // changes server state without touching keys (SCRIPT FLUSH, ACL RESTTOKEN): refused to read-only tokens
  | 'noscript' //      refused inside scripts (EVAL, MULTI, ...), as Redis's CMD_NOSCRIPT
  | 'unsupported' //   known name, refused; discards a multi-exec as a whole
  | 'gateway' //       acts on Larder's own state (ACL users, REST tokens): a remote backend runs it in Larder
  | 'stream' //        runs only as an event stream (/subscribe, /monitor): refused as a plain command,
  //                   and so discards a multi-exec as a whole, as 'unsupported' does
  | 'embedded' //      needs the embedded engine (SEARCH.*): a remote backend refuses it
  | 'readLookups' //   a write that looks its keys up as a read does (Redis's lookupKeyRead), so a
  //                   key it misses publishes keymiss (GETDEL, SINTERSTORE's sources): see READ_LOOKUPS
  | 'spansNodes' //    a cursor walk over the whole keyspace (SCAN): in a Cluster it visits each master in turn
  | 'runsScript' //    runs a Lua script or function (EVAL, FCALL): a remote server runs it with its connection's rights
  | 'restoresPayload'; // makes a key from a serialized value (RESTORE): see RESTORES_PAYLOAD

/** Where the keys sit in argv (argv[0] is the name). Read by ACL key patterns and cluster routing. */
export type KeySpec =
  | { first: number; last: number; step: number; keyword?: KeywordKeys } // last < 0 counts from the end
  | { countAt: number; dest?: number; step?: number } // argv[countAt] says how many keys follow it,
  //                                                  each `step` apart (MSETEX: 2, key value ...);
  //                                                  argv[dest], if given, is a key too (ZUNIONSTORE)
  | { halfAfter: string; from: number } //             the first half of the arguments after the word
  //                                                  (from argv[from] on): XREAD ... STREAMS k1 k2 id1 id2
  | null;

/**
 * Where a command's channels sit in argv, from argv[first] to argv[last] (last < 0 counts from
 * the end); `pattern` when they are patterns (PSUBSCRIBE), which an ACL pattern allows only
 * when they are the same text (Redis getChannelsFromCommand).
 */
export interface ChannelSpec {
  readonly first: number;
  readonly last: number;
  readonly pattern?: true;
}

/** Keys found by keyword (Redis's begin_search keyword): the argument after each of `names` from argv[from] on (GEORADIUS ... STORE key). */
export interface KeywordKeys {
  readonly from: number;
  readonly names: readonly string[];
}

/** Who runs a command. */
export interface Caller {
  /** The ACL user the token belongs to; 'default' for the database's own tokens. */
  readonly user: string;
  readonly readOnly: boolean;
  /** null: the standard token, no ACL restrictions. */
  readonly acl: CommandRules | null;
}

/** What admission asks of a caller's ACL rules (acl/user.ts's AclUser). */
export interface CommandRules {
  /** null when the rules let the caller run `cmd` on `keys`; the NOPERM error otherwise. */
  check(cmd: Command, argv: Args, keys: readonly string[]): ReplyError | null;
  /** Whether the caller may read every key (SORT's BY and GET patterns need it). */
  readsAnyKey(): boolean;
  /** Whether the caller may run every command on every key and channel (a script on a remote server may). */
  allowsEverything(): boolean;
  /** The rules that rebuild the user, as ACL LIST shows them: a few words, which change when its rules do. */
  describe(): string[];
  /** Each selector as rules naming every command it allows (a remote server's ACL takes them for the caller's scripts). */
  selectorsByCommand(): string[][];
}

/** The ACL users and tokens the ACL commands manage (acl/registry.ts's AclRegistry). */
export interface AclUsers {
  user(name: string): AclUserView | undefined;
  list(): readonly AclUserView[];
  setUser(name: string, rules: Args): ReplyError | null;
  deleteUsers(names: Args): number | ReplyError;
  restToken(name: string, password: string): string | ReplyError;
  genToken(name: string, password?: string): string | ReplyError;
}

/** One ACL user as ACL GETUSER, LIST and DRYRUN read it (acl/user.ts's AclUser). */
export interface AclUserView {
  readonly name: string;
  /** The rules that rebuild the user, as ACL LIST shows them. */
  describe(): string[];
  /** ACL GETUSER's reply. */
  fields(): Reply;
  /** Why the user may not run `cmd` on `keys` (the refused command or key, and its rank), or null. */
  deny(cmd: Command, argv: Args, keys: readonly string[]): { readonly rank: number; readonly object: string } | null;
}

/**
 * The assembled table, handed to what reads it whole: COMMAND, ACL CAT and DRYRUN (through
 * Ctx) and the ACL rules (+@category, -cmd). table.ts builds it; the families it imports, and
 * acl/, are handed it rather than importing table.ts.
 */
export interface CommandList {
  /** The top-level commands by lower-case name, in table order. */
  readonly byName: ReadonlyMap<string, Command>;
  /** Every command and container subcommand ('acl|setuser'), in table order. */
  readonly every: readonly Command[];
  /** A command by the name as sent, in any case. */
  lookup(name: string): Command | undefined;
}

/** Redis's ACL categories, in ACL CAT's and COMMAND INFO's order ('all' is implied, not listed). */
export const CATEGORIES: ReadonlySet<string> = new Set([
  'keyspace', 'read', 'write', 'set', 'sortedset', 'list', 'hash', 'string', 'bitmap', 'hyperloglog', 'geo',
  'stream', 'pubsub', 'admin', 'fast', 'slow', 'blocking', 'dangerous', 'connection', 'transaction', 'scripting',
]);

/** What a handler may touch beyond its arguments. */
export interface Ctx {
  readonly ks: Keyspace;
  readonly caller: Caller;
  readonly acl: AclUsers;
  readonly server: ServerStats;
  /** The command table, for COMMAND and ACL: table.ts imports the families, so they cannot import it. */
  readonly commands: CommandList;
  readonly pubsub: PubSubHub;
  /** Keyspace notifications: a write tells it each event, as Redis's notifyKeyspaceEvent. */
  readonly events: KeyspaceEvents;
  /** The streaming client (an SSE connection) running SUBSCRIBE or MONITOR; null over request/response. */
  readonly client: PubSubClient | null;
  /** Scripts and function libraries (EVAL, FUNCTION, FCALL). */
  readonly scripting: Scripting;
  /** The database's search indexes (SEARCH.*). */
  readonly search: SearchRegistry;
  /**
   * Replaces what the log records for this write (Redis's command rewriting): relative times
   * become absolute, random choices become the elements chosen. An empty list logs nothing.
   * A list, not rest arguments: a command may log more entries than a call takes arguments
   * (XREADGROUP delivering 200k entries).
   * A read command calls it only when it did change stored bytes (PFCOUNT caching its
   * estimate), to have those commands logged, as Redis propagates such a read.
   */
  rewrite(argvs: readonly Args[]): void;
  /**
   * Present only where a command may wait (a single command run by the database; not in a
   * pipeline, transaction or script). A read that found nothing calls it and returns its
   * timeout reply: the database then waits for a write to one of the keys, or the timeout,
   * and runs `retry` in its place (XREAD BLOCK).
   */
  readonly block?: (req: BlockRequest) => void;
  /**
   * Present where `block` is. WAITAOF calls it and returns the reply of a timeout: the database
   * then waits until every write so far is on the disk, or the timeout, and answers in its place.
   */
  readonly awaitDisk?: (req: DiskWait) => void;
  /** Whether every write committed so far is on the disk (WAITAOF's local count). */
  writesSynced(): boolean;
  /** Whether the command runs inside a transaction (MULTI/EXEC) or a script: SEARCH.QUERY then requires NOCONTENT. */
  readonly inTransaction: boolean;
}

/** What a blocked read waits for (see Ctx.block). */
export interface BlockRequest {
  readonly keys: readonly string[];
  /** 0: as long as the database allows (its maxBlockMs). */
  readonly timeoutMs: number;
  /** The command to run once woken: the same read, with ids fixed ('$' resolved). */
  readonly retry: Args;
}

/** What WAITAOF waits for (see Ctx.awaitDisk). */
export interface DiskWait {
  /** 0: as long as the database allows (its maxBlockMs). */
  readonly timeoutMs: number;
  /** The reply once every write is on the disk (true), or at the timeout (false). */
  answer(synced: boolean): Reply;
}

export interface ServerStats {
  readonly dbName: string;
  readonly startedAt: number;
  readonly commandsProcessed: number;
  readonly runtime: string;
}

export type Handler = (ctx: Ctx, argv: Args) => Reply;

export interface CommandSpec {
  name: string; //              lower case; the table key
  arity: number; //             Redis rule: N exact, -N at least N, name included
  flags: readonly Flag[];
  keys: KeySpec;
  /** The channels it publishes or subscribes to, which ACL channel patterns must allow. */
  channels?: ChannelSpec;
  acl?: readonly string[]; //   categories beyond the family's and those implied by flags
  deviates?: string; //         where Upstash differs from Redis; the differential tests read this
  /** The read-only variant a read-only token runs instead (EVAL: EVAL_RO), on a remote backend. */
  readOnlyForm?: string;
  /** Where a Lua script's body is in argv (EVAL, SCRIPT LOAD), for a remote backend to adapt it. */
  scriptBodyAt?: number;
  /**
   * Checks the arguments at admission, on every engine, before anything runs: what a remote
   * server may be sent (CONFIG SET: only notify-keyspace-events reaches it).
   */
  admits?: (argv: Args) => ReplyError | null;
  /**
   * What a remote server is sent for it, or why it is refused there, where the server would
   * reach past this one database as the command runs: FLUSHALL flushes the server's every
   * database, COPY's DB option names another, and the server checks SORT's BY and GET patterns
   * against Larder's connection, not the caller's user. The embedded engine checks these as it
   * runs, so a refusal is an error met as it runs: in a transaction it stands at its place.
   */
  remoteArgs?: (argv: Args, caller: Caller) => Args | ReplyError;
  /**
   * What the client is answered for a remote server's reply (not an error), where it shows past
   * this database, the server's index `db` (INFO: the server's paths, its other indexes).
   */
  remoteReply?: (reply: Reply, db: number) => Reply;
  /** Set by `container` only: the subcommands argv[1] names. */
  subcommands?: readonly CommandSpec[];
  run: Handler;
}

export interface Family {
  /** The family's ACL category (without '@'), or null for mixed families. */
  readonly category: string | null;
  readonly name: string;
  readonly commands: readonly CommandSpec[];
}

export function family(name: string, category: string | null, commands: CommandSpec[]): Family {
  return { name, category, commands };
}

// Command flag bits, computed once per command.
export const WRITE = 1;
export const READONLY = 2;
export const FAST = 4;
export const WIDE_READ = 8;
export const UNSUPPORTED = 16;
export const ADMIN = 32;
export const NOSCRIPT = 64;
export const GATEWAY = 128;
export const STREAM = 256;
export const CHANGES_SERVER = 512;
/** Set when the table is built on every command a read-only token may not run: write, wideRead, admin or changesServer. */
export const NOT_FOR_READ_ONLY = 1024;
export const EMBEDDED = 2048;
/** Set when the table is built on every @blocking command (XREAD, BLPOP): it may wait for a write, on a connection of its own on a remote backend. */
export const BLOCKING = 4096;
export const SPANS_NODES = 8192;
/**
 * Set when the table is built on every readonly command and every 'readLookups' one: its
 * lookups are reads, each key they miss publishing keymiss (the keyspace's `reading`).
 */
export const READ_LOOKUPS = 16384;
/** Set when the table is built on every 'runsScript' command: a remote backend runs a limited ACL user's as that user's own Redis user. */
export const RUNS_SCRIPT = 32768;
/**
 * Set when the table is built on every 'restoresPayload' command: a remote server reads the
 * payload as its own, and is sent it only if it checks payloads in full (a crafted one may
 * crash the server every database on it shares).
 */
export const RESTORES_PAYLOAD = 65536;

export interface Command extends Omit<CommandSpec, 'subcommands'> {
  readonly bits: number;
  /** Every ACL category, implied ones included, without '@'. */
  readonly categories: ReadonlySet<string>;
  /** A container's subcommands by lower-case name, each compiled as '<container>|<sub>'. */
  readonly subcommands?: ReadonlyMap<string, Command>;
}

/**
 * A command whose first argument names a subcommand (ACL SETUSER, CONFIG GET), as Redis
 * declares them. Each subcommand has its own arity, flags and categories, and is compiled
 * into its own Command named '<name>|<sub>': admission resolves argv[1] to that one, checks it
 * (read-only tokens, ACL rules such as -acl|setuser) and the database runs and logs it.
 */
export function container(name: string, subcommands: CommandSpec[]): CommandSpec {
  return {
    name,
    arity: -2,
    flags: [],
    keys: NO_KEYS,
    subcommands,
    run: () => {
      throw new Error(`'${name}' runs through its resolved subcommand (admit/resolve), never itself`);
    },
  };
}

export const ONE_KEY: KeySpec = { first: 1, last: 1, step: 1 };
export const ALL_KEYS: KeySpec = { first: 1, last: -1, step: 1 };
export const NO_KEYS: KeySpec = null;

/** The keys a command touches, by its key spec. */
export function keysOf(cmd: Pick<Command, 'keys'>, argv: Args): string[] {
  const spec = cmd.keys;
  if (spec === null) return [];
  if ('halfAfter' in spec) {
    for (let i = spec.from; i < argv.length; i++) {
      if (argv[i].toLowerCase() === spec.halfAfter) return argv.slice(i + 1, i + 1 + Math.floor((argv.length - i - 1) / 2));
    }
    return [];
  }
  if ('countAt' in spec) {
    const n = Number(argv[spec.countAt]);
    const step = spec.step ?? 1;
    const keys: string[] = [];
    for (let i = 0, at = spec.countAt + 1; Number.isInteger(n) && i < n && at < argv.length; i++, at += step) keys.push(argv[at]);
    return spec.dest === undefined ? keys : [argv[spec.dest], ...keys];
  }
  const last = spec.last < 0 ? argv.length + spec.last : spec.last;
  const keys: string[] = [];
  for (let i = spec.first; i <= last && i < argv.length; i += spec.step) keys.push(argv[i]);
  if (spec.keyword !== undefined) {
    for (let i = spec.keyword.from; i < argv.length - 1; i++) {
      if (spec.keyword.names.includes(argv[i].toLowerCase())) keys.push(argv[i + 1]);
    }
  }
  return keys;
}

/** The streaming client a 'stream' command runs for: admission runs such a command for nothing else. */
export function streamClient(ctx: Ctx): PubSubClient {
  if (ctx.client === null) throw new Error('a stream command ran without a streaming client (admit refuses that)');
  return ctx.client;
}

/** A handler for a command that is declared only so it can be refused by name. */
export const refused: Handler = () => null;

/** What a write that changed nothing logs (one list for all: a write must not allocate to log nothing). */
export const NOTHING: readonly Args[] = Object.freeze([]);

/** The reply of a write that changed nothing: it logs nothing, as Redis propagates only changes. */
export function unchanged(ctx: Ctx, reply: Reply): Reply {
  ctx.rewrite(NOTHING);
  return reply;
}

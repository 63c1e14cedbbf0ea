// One embedded database: a keyspace, its log, its ACL users. Runs commands through the table.
// Every command runs synchronously to completion on the JS thread, so a transaction is atomic
// by construction.

import type { AclRegistry } from './acl/registry.js';
import type { KvBackend } from './backend.js';
import { admit, admitFromScript, permitsFromScript, resolve } from './commands/admit.js';
import { ADMIN, BLOCKING, keysOf, READ_LOOKUPS, WRITE, type Args, type BlockRequest, type Caller, type Command, type Ctx, type DiskWait, type ServerStats } from './commands/spec.js';
import { COMMANDS, lookupCommand } from './commands/table.js';
import { isError, ReplyError } from './errors.js';
import type { Reply } from './reply.js';
import { KeyWaiters } from './engine/key-waiters.js';
import { Keyspace, type Clock } from './engine/keyspace.js';
import type { Journal } from './engine/persistence.js';
import { monitorLine, PubSubHub, type PubSubClient } from './engine/pubsub/hub.js';
import { KeyEvent, KeyspaceEvents } from './engine/pubsub/keyspace-events.js';
import { Scripting, type ScriptLimits } from './engine/scripting/scripting.js';
import { SearchRegistry } from './search/registry.js';

const NO_JOURNAL: Journal = {
  record() {},
  seal() {},
  commit: () => null,
  writeFailure: () => null,
  synced: () => true,
  sync: () => Promise.resolve(null),
};

export const SYSTEM_CALLER: Caller = { user: 'default', readOnly: false, acl: null };

/** A script's limits when none are configured (the config schema's defaults too). */
export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { timeMs: 5000, memoryBytes: 256 * 1024 * 1024 };

export class Database implements Ctx, KvBackend, ServerStats {
  readonly ks: Keyspace;
  readonly scripting: Scripting;
  readonly search: SearchRegistry;
  caller: Caller = SYSTEM_CALLER;
  journal: Journal = NO_JOURNAL;
  readonly commands = COMMANDS;
  readonly pubsub = new PubSubHub();
  readonly events = new KeyspaceEvents(this.pubsub);
  client: PubSubClient | null = null;
  readonly startedAt: number;
  commandsProcessed = 0;
  private writes = 0;
  private rewritten: readonly Args[] | null = null;
  /** The longest a blocked read waits (XREAD BLOCK); config kv.maxBlockMs. */
  maxBlockMs = 30_000;
  /** Set only while a single command runs: only it may block (see Ctx.block). */
  block: ((req: BlockRequest) => void) | undefined = undefined;
  /** Set where `block` is (see Ctx.awaitDisk). */
  awaitDisk: ((req: DiskWait) => void) | undefined = undefined;
  /** True while a transaction or a script runs its commands (see Ctx.inTransaction). */
  inTransaction = false;
  private blocked: BlockRequest | null = null;
  private diskWait: DiskWait | null = null;
  private readonly waiters = new KeyWaiters();
  private readonly requestBlock = (req: BlockRequest): void => {
    this.blocked = req;
  };
  private readonly requestDiskWait = (req: DiskWait): void => {
    this.diskWait = req;
  };

  constructor(
    readonly dbName: string,
    readonly acl: AclRegistry,
    readonly runtime: string,
    clock: Clock = Date.now,
    scriptLimits = DEFAULT_SCRIPT_LIMITS,
  ) {
    this.ks = new Keyspace(
      clock,
      (argv, emptied) => {
        this.journal.record(argv);
        if (this.search.active) this.search.keyChanged(argv[1]); // argv: DEL key, or HDEL key field...
        if (argv[0] === 'del') return this.events.notify(KeyEvent.expired, 'expired', argv[1]);
        this.events.notify(KeyEvent.hash, 'hexpired', argv[1]); // a hash's fields ran out
        if (emptied) this.events.notify(KeyEvent.generic, 'del', argv[1]);
      },
      (key) => this.events.notify(KeyEvent.newKey, 'new', key),
      (key) => this.events.notify(KeyEvent.keyMiss, 'keymiss', key),
    );
    this.search = new SearchRegistry(this.ks);
    this.startedAt = clock();
    this.scripting = new Scripting(
      { run: (argv, readOnly) => this.runFromScript(argv, readOnly), permits: (argv) => permitsFromScript(lookupCommand(argv[0]), argv, this.caller) },
      scriptLimits,
    );
  }

  get server(): ServerStats {
    return this;
  }

  rewrite(argvs: readonly Args[]): void {
    this.rewritten = argvs;
  }

  writesSynced(): boolean {
    return this.journal.synced();
  }

  execute(argv: Args, caller: Caller): Reply | Promise<Reply> {
    const reply = this.runBlockable(argv, caller);
    const blocked = this.blocked;
    if (blocked !== null) {
      this.blocked = null;
      return this.waitAndRetry(blocked, caller, reply);
    }
    const diskWait = this.diskWait;
    if (diskWait === null) return reply;
    this.diskWait = null;
    return this.waitForDisk(diskWait, reply);
  }

  /**
   * Runs one command; a @blocking one (XREAD, XREADGROUP) may ask to block, and its request is
   * left in `blocked`. Only such a command gets Ctx.block, so nothing it runs (a script's
   * redis.call) can block in its place.
   */
  private runBlockable(argv: Args, caller: Caller): Reply {
    const admitted = admit(lookupCommand(argv[0]), argv, caller, 'command');
    if (admitted instanceof ReplyError) return admitted;
    const writesBefore = this.writes;
    let reply: Reply;
    try {
      if (admitted.bits & BLOCKING) {
        this.block = this.requestBlock;
        this.awaitDisk = this.requestDiskWait;
      }
      reply = this.run(admitted, argv, caller);
    } finally {
      this.block = this.awaitDisk = undefined;
      this.journal.seal();
    }
    const failed = this.journal.commit();
    return failed !== null && this.writes !== writesBefore ? failed : reply;
  }

  /**
   * A blocked read: waits for a write to one of its keys, re-runs it, and waits again while
   * it still finds nothing, until the deadline; then answers its timeout reply.
   */
  private async waitAndRetry(first: BlockRequest, caller: Caller, timeoutReply: Reply): Promise<Reply> {
    const deadline = this.ks.now() + this.waitMs(first.timeoutMs);
    let req = first;
    for (;;) {
      const left = deadline - this.ks.now();
      if (left <= 0 || !(await this.waiters.wait(req.keys, left))) return timeoutReply;
      const reply = this.runBlockable(req.retry, caller);
      if (this.blocked === null) return reply;
      req = this.blocked;
      this.blocked = null;
    }
  }

  /**
   * WAITAOF: answers once an fdatasync covers every write so far (of every caller, as Upstash
   * waits), or its timeout reply at the timeout; the error of a disk that refused them.
   */
  private async waitForDisk(req: DiskWait, timeoutReply: Reply): Promise<Reply> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Reply>((resolve) => {
      timer = setTimeout(resolve, this.waitMs(req.timeoutMs), timeoutReply);
    });
    const synced = this.journal.sync().then((failed) => failed ?? req.answer(true));
    try {
      return await Promise.race([synced, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** How long a command asking to wait `timeoutMs` (0: without end) may wait. */
  private waitMs(timeoutMs: number): number {
    return timeoutMs === 0 ? this.maxBlockMs : Math.min(timeoutMs, this.maxBlockMs);
  }

  pipeline(commands: readonly Args[], caller: Caller): Reply[] {
    const wrote: boolean[] = [];
    const replies = commands.map((argv) => {
      const writesBefore = this.writes;
      const r = this.runOne(argv, caller);
      wrote.push(this.writes !== writesBefore);
      this.journal.seal();
      return r;
    });
    return this.committed(replies, wrote);
  }

  transaction(commands: readonly Args[], caller: Caller): Reply[] | ReplyError {
    const cmds: Command[] = [];
    for (const argv of commands) {
      const admitted = admit(lookupCommand(argv[0]), argv, caller, 'command');
      if (admitted instanceof ReplyError) return admitted;
      cmds.push(admitted);
    }
    const wrote: boolean[] = [];
    this.inTransaction = true;
    let replies: Reply[];
    try {
      replies = commands.map((argv, i) => {
        const writesBefore = this.writes;
        const r = this.run(cmds[i], argv, caller);
        wrote.push(this.writes !== writesBefore);
        return r;
      });
    } finally {
      this.inTransaction = false;
    }
    this.journal.seal();
    return this.committed(replies, wrote);
  }

  /**
   * Commits what was sealed. When the disk refuses it, the commands that wrote (`wrote`: a
   * script counts by the writes it made) answer the failure, since what they wrote is not
   * durable; the others keep their replies, even when a lazily expired key's deletion they
   * logged waits with the rest. runBlockable does the same for one command.
   */
  private committed(replies: Reply[], wrote: readonly boolean[]): Reply[] {
    const failed = this.journal.commit();
    if (failed === null) return replies;
    return replies.map((r, i) => (wrote[i] ? failed : r));
  }

  /**
   * Runs SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE or MONITOR for a streaming client: admitted like any
   * command, its confirmations go to the client. Returns what ends the client's subscriptions.
   */
  stream(argv: Args, caller: Caller, client: PubSubClient): (() => void) | ReplyError {
    const admitted = admit(lookupCommand(argv[0]), argv, caller, 'stream');
    if (admitted instanceof ReplyError) return admitted;
    this.client = client;
    try {
      const reply = this.run(admitted, argv, caller);
      if (reply instanceof ReplyError) return reply;
    } finally {
      this.client = null;
    }
    return () => this.pubsub.drop(client);
  }

  syncToken(): string {
    return String(this.writes);
  }

  /**
   * Re-runs a logged command while loading: no admission, no logging, no expiry. Returns the
   * error it met, which a deterministic log never produces; the loader counts and reports them.
   */
  replay(argv: Args): ReplyError | null {
    const cmd = resolve(lookupCommand(argv[0]), argv);
    if (cmd instanceof ReplyError) return cmd;
    const reply = cmd.run(this, argv);
    this.rewritten = null;
    // The indexes are rebuilt after the load; what a SKIPINITIALSCAN index skipped must still learn of each write.
    if (cmd.bits & WRITE && this.search.active && !isError(reply)) this.syncSearch(cmd, argv);
    this.ks.fold();
    return isError(reply) ? reply : null;
  }

  /** One round of active expiry; the deletions are logged like any write. */
  expireCycle(): void {
    if (this.ks.expireCycle() === 0) return;
    this.journal.seal();
    this.journal.commit();
  }

  /** Ends every subscription and monitor (their streams close) and answers blocked reads. */
  async close(): Promise<void> {
    this.pubsub.dropAll();
    this.waiters.cancelAll();
  }

  private runOne(argv: Args, caller: Caller): Reply {
    const admitted = admit(lookupCommand(argv[0]), argv, caller, 'command');
    return admitted instanceof ReplyError ? admitted : this.run(admitted, argv, caller);
  }

  /**
   * A command a script runs (redis.call), as the script's caller. It is logged like any
   * command, into the frame of the command running the script, so the script's effects are
   * replayed, all or none, instead of the script.
   */
  private runFromScript(argv: Args, readOnly: boolean): Reply {
    const caller = this.caller;
    const admitted = admitFromScript(lookupCommand(argv[0]), argv, caller, readOnly);
    if (admitted instanceof ReplyError) return admitted;
    const outer = this.inTransaction;
    this.inTransaction = true;
    try {
      return this.run(admitted, argv, caller);
    } finally {
      this.inTransaction = outer;
    }
  }

  /**
   * The one place search indexes learn of writes: every key a write declares is re-read
   * (values change in place, so the keyspace alone cannot tell), and a write that left the
   * keyspace empty (FLUSHDB, FLUSHALL) empties them. Scripts and transactions run each of
   * their commands through `run`, so they are covered; expiry goes through the Keyspace's
   * onExpired above.
   */
  private syncSearch(cmd: Command, argv: Args): void {
    if (this.ks.size === 0) this.search.cleared();
    else for (const key of keysOf(cmd, argv)) this.search.keyChanged(key);
  }

  private run(cmd: Command, argv: Args, caller: Caller): Reply {
    // A write the log could not keep is refused before it changes anything; reads go on.
    if (cmd.bits & WRITE) {
      const refused = this.journal.writeFailure();
      if (refused !== null) return refused;
    }
    this.caller = caller;
    this.commandsProcessed++;
    this.ks.reading = (cmd.bits & READ_LOOKUPS) !== 0;
    const reply = cmd.run(this, argv);
    // As Redis, monitors see every command that ran, administration left out.
    if (this.pubsub.monitors !== null && !(cmd.bits & ADMIN)) this.pubsub.feed(monitorLine(this.ks.now(), argv));
    const logged = this.rewritten;
    if (cmd.bits & WRITE && !(reply instanceof ReplyError)) {
      if (logged === null) this.journal.record(argv);
      else for (const a of logged) this.journal.record(a);
      this.writes++;
      // Only a write that changed something wakes blocked reads: a blocked XREADGROUP's own
      // empty retry is a write too, and two of them would otherwise wake each other forever.
      if (!this.waiters.idle && (logged === null || logged.length > 0)) {
        for (const key of keysOf(cmd, argv)) this.waiters.notify(key);
      }
      if (this.search.active) this.syncSearch(cmd, argv);
    } else if (!(cmd.bits & WRITE) && logged !== null) {
      // A read that changed bytes after all (PFCOUNT caching its estimate) asked to be logged.
      for (const a of logged) this.journal.record(a);
    }
    this.rewritten = null;
    this.ks.fold(); // last: the search indexes above read what the command wrote
    return reply;
  }
}

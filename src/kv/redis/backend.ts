// A database kept on a remote Redis or Valkey, standalone or Cluster. Larder admits every
// command from the shared table first (unknown, unsupported, arity, read-only tokens, ACL), so
// nothing refused ever reaches the server; what is admitted is forwarded as bytes and the
// server's reply (or error text) comes back unchanged.
//
// Single commands and pipelines sent on the shared connection in one turn of the event loop
// leave in one write (write-batching.ts: auto-pipelining). On a standalone server, a single
// command is written by Larder and queued on ioredis's reply queue (direct-send.ts), without an
// ioredis Command. Pipelines go as one ioredis pipeline (one round trip per node). In a
// Cluster, a keyless command the server tips as run on every node (DBSIZE, FLUSHALL, KEYS,
// SCRIPT LOAD: see shard-policy.ts) is sent to each and their replies merged, and SCAN walks the masters in
// turn (cluster-scan.ts), also inside a pipeline, which such a command splits so what comes
// before it has run when it starts; a transaction sends it to its one node. Commands reach
// ioredis with the slot Larder found (toCommand). A transaction runs MULTI..EXEC as one
// pipeline, on a connection it holds alone (standalone), or on the connection to the node
// owning its slot (Cluster), which ioredis writes in one piece: no other request's commands
// come between MULTI and EXEC. The scripts of a limited ACL user run on a connection of their
// own, as a Redis user with that user's rules (script-users.ts): the server checks a script's
// calls against its connection's user. State is touched from the JS thread only.

import { Cluster, Command as RedisCommand, Redis, ReplyError as RedisReplyError, type Pipeline } from 'ioredis';
import type { AclRegistry } from '../acl/registry.js';
import type { KvBackend, PubSubClient } from '../backend.js';
import { admit } from '../commands/admit.js';
import { ADMIN, BLOCKING, EMBEDDED, GATEWAY, keysOf, RESTORES_PAYLOAD, RUNS_SCRIPT, SPANS_NODES, WRITE, type Args, type Caller, type Command } from '../commands/spec.js';
import { lookupCommand } from '../commands/table.js';
import { backendUnavailable, CROSSSLOT, EXECABORT, needsEmbeddedEngine, REMOTE_MONITOR, ReplyError, restoreUnchecked } from '../errors.js';
import type { Reply } from '../reply.js';
import { GatewayCtx } from './gateway-ctx.js';
import { mergeReplies, policyOf, readShardPolicies, type ShardPolicies, type ShardPolicy } from './shard-policy.js';
import { commonSlot, keySlot } from './key-slot.js';
import { nextCursor, scanStep, type ScanStep } from './cluster-scan.js';
import type { RemoteClient } from './connection.js';
import { toReply } from './reply-conversion.js';
import { remoteForm } from './script-forms.js';
import { blockTimeoutAt, boundedBlock, withoutBlock } from './blocking-read.js';
import { TransactionPool } from './transaction-pool.js';
import { WriteBatching } from './write-batching.js';
import { DirectSend } from './direct-send.js';
import { LOST_AUTH, ScriptUsers } from './script-users.js';
import { isAscii } from '../bytes.js';

/** A command admitted to run, with its place in the request. */
interface Admitted {
  readonly at: number;
  readonly cmd: Command;
  /** The command as it goes to the server (remote script forms, bounded blocking). */
  readonly sent: Args;
  /** In a Cluster: the slot of its keys, and the first of them. */
  readonly slot: number | undefined;
  readonly key: Buffer | undefined;
  /** A blocking read, run on a connection of its own (blocking-read.ts). */
  readonly alone: boolean;
  /**
   * What the server must not be sent (the table's remoteArgs), as the error it stands as: one
   * the command meets as it runs, so in a transaction it takes its place and the rest runs.
   */
  readonly refused: ReplyError | null;
}

/** How a command is run: alone, in a pipeline or transaction, or as an event stream. */
type RunAs = 'single' | 'batch' | 'stream';

export class RedisBackend implements KvBackend {
  private writes = 0;
  /** Whether `remote.started` has settled, so a command need not wait for it. */
  private started = false;
  private readonly pool: TransactionPool | null;
  private readonly cluster: boolean;
  private readonly gateway: GatewayCtx;
  private readonly batching: WriteBatching;
  /** The hot path of a standalone server's shared connection (direct-send.ts); null for a Cluster. */
  private readonly direct: DirectSend | null;
  /** The Cluster's command tips, read once it answers (`policyFor`). */
  private policies: Promise<ShardPolicies> | undefined;
  private readonly scriptUsers: ScriptUsers;

  constructor(
    readonly acl: AclRegistry,
    private readonly remote: RemoteClient,
    transactionConnections: number,
    dbName: string,
    runtime: string,
    private readonly maxBlockMs: number,
    /** The database's token: what its limited users' Redis users are derived from (script-users.ts). */
    secret: string,
  ) {
    this.cluster = remote.main instanceof Cluster;
    this.gateway = new GatewayCtx(acl, dbName, runtime);
    this.batching = new WriteBatching(remote.main);
    this.direct = remote.main instanceof Redis ? new DirectSend(remote.main) : null;
    this.pool = this.cluster ? null : new TransactionPool(transactionConnections, () => remote.dedicated());
    this.scriptUsers = new ScriptUsers(remote, dbName, secret);
    acl.onUsersRemoved((names) => this.scriptUsers.remove(names));
    void remote.started.then(() => (this.started = true));
  }

  /**
   * The common case, a command for the shared connection once it has been up, costs one
   * promise: refusals and Larder's own commands answer at once, and the rest takes `sendAlone`.
   */
  execute(argv: Args, caller: Caller): Reply | Promise<Reply> {
    const a = this.admit(argv, caller, 0, 'single');
    if (a instanceof ReplyError) return a;
    if (a.refused !== null) return a.refused;
    if (a.cmd.bits & GATEWAY) return this.gateway.run(a.cmd, argv, caller);
    if (a.cmd.bits & RESTORES_PAYLOAD) return this.payloadRefusal([a]).then((refused) => refused ?? this.sendAlone(a));
    if (limitedScript(a.cmd, caller)) return this.asScriptUser(a, caller).then((r) => this.counted(a.cmd, r), (e: unknown) => this.failure(e, a));
    if (!this.started || a.alone || (this.cluster && a.slot === undefined)) return this.sendAlone(a);
    this.batching.hold();
    const direct = this.direct;
    if (direct !== null && direct.ready()) {
      return new Promise((resolve) =>
        direct.send(a.sent, (value, failed) => resolve(failed ? this.failure(value, a) : this.counted(a.cmd, toReply(value)))),
      );
    }
    return (this.remote.main.sendCommand(toCommand(a)) as Promise<unknown>).then(
      (value) => this.counted(a.cmd, toReply(value)),
      (e: unknown) => this.failure(e, a),
    );
  }

  /** One command before the first connection is up, a blocking read, or a Cluster command without a slot. */
  private async sendAlone(a: Admitted): Promise<Reply> {
    await this.remote.started;
    if (a.alone) return this.alone(a);
    try {
      const spread = this.cluster && a.slot === undefined ? await this.spreadFor(a) : undefined;
      if (spread !== undefined) return this.counted(a.cmd, await spread());
      this.batching.hold();
      return this.counted(a.cmd, toReply(await this.remote.main.sendCommand(toCommand(a))));
    } catch (e) {
      return this.failure(e, a);
    }
  }

  async pipeline(commands: readonly Args[], caller: Caller): Promise<Reply[]> {
    const replies: Reply[] = new Array(commands.length);
    const batch: Admitted[] = [];
    for (let i = 0; i < commands.length; i++) {
      const a = this.admit(commands[i], caller, i, 'batch');
      if (a instanceof ReplyError) replies[i] = a;
      else if (a.refused !== null) replies[i] = a.refused;
      else if (a.cmd.bits & GATEWAY) replies[i] = this.gateway.run(a.cmd, commands[i], caller);
      else batch.push(a);
    }
    await this.remote.started;
    let segment: Admitted[] = [];
    const refused = await this.payloadRefusal(batch);
    for (const a of batch) {
      if (refused !== null && a.cmd.bits & RESTORES_PAYLOAD) {
        replies[a.at] = refused;
        continue;
      }
      // What runs apart from the shared connection: a limited user's script, a keyless command spanning a Cluster.
      const apart = limitedScript(a.cmd, caller) ? () => this.asScriptUser(a, caller) : this.cluster && a.slot === undefined ? await this.spreadFor(a) : undefined;
      if (apart === undefined) {
        segment.push(a);
        continue;
      }
      await this.sendPipeline(segment, replies);
      segment = [];
      try {
        replies[a.at] = this.counted(a.cmd, await apart());
      } catch (e) {
        replies[a.at] = this.failure(e, a);
      }
    }
    await this.sendPipeline(segment, replies);
    return replies;
  }

  /** Sends `batch` as one pipeline (per slot in a Cluster) and puts each reply at its place. */
  private async sendPipeline(batch: readonly Admitted[], replies: Reply[]): Promise<void> {
    // ioredis sends a Cluster pipeline to one node: split it by slot (keyless commands go with the first).
    const groups = this.cluster ? bySlot(batch) : [batch];
    await Promise.all(groups.map((group) => this.sendGroup(group, replies, this.cluster)));
  }

  /**
   * One pipeline to one node. The commands a Cluster node redirected (MOVED or ASK: their slot
   * moved, or ioredis's slot map was not complete yet) did not run; they go again, in order,
   * as a pipeline of their slot alone, which ioredis follows to the right node. ioredis does
   * not follow a redirected pipeline by itself when other commands in it ran (a keyless ECHO)
   * or it holds a write.
   */
  private async sendGroup(group: readonly Admitted[], replies: Reply[], redirectable: boolean): Promise<void> {
    if (group.length === 0) return;
    const p = this.remote.main.pipeline() as unknown as Pipeline; // its typings omit sendCommand
    for (const a of group) p.sendCommand(toCommand(a));
    this.batching.hold();
    let results: [Error | null, unknown][];
    try {
      results = (await p.exec()) ?? [];
    } catch (e) {
      const f = this.failure(e);
      for (const a of group) replies[a.at] = f;
      return;
    }
    const redirected: Admitted[] = [];
    group.forEach((a, j) => {
      const [err, value] = results[j] ?? [new Error('no reply'), null];
      if (redirectable && err !== null && REDIRECT.test(err.message)) redirected.push(a);
      else replies[a.at] = err === null ? this.counted(a.cmd, toReply(value)) : this.failure(err, a);
    });
    await this.sendGroup(redirected, replies, false);
  }

  async transaction(commands: readonly Args[], caller: Caller): Promise<Reply[] | ReplyError> {
    const batch: Admitted[] = [];
    for (let i = 0; i < commands.length; i++) {
      const a = this.admit(commands[i], caller, i, 'batch');
      if (a instanceof ReplyError) return a;
      batch.push(a);
    }
    if (this.cluster && new Set(batch.flatMap((a) => (a.slot === undefined ? [] : [a.slot]))).size > 1) return CROSSSLOT;
    // Larder's own commands (ACL) run here, in place; they cannot be part of the server's MULTI.
    // What the server may not be sent stands as its error, as one failing there would.
    const local = new Map<number, Reply>();
    const refused = await this.payloadRefusal(batch);
    for (const a of batch) {
      if (a.refused !== null) local.set(a.at, a.refused);
      else if (refused !== null && a.cmd.bits & RESTORES_PAYLOAD) local.set(a.at, refused);
      else if (a.cmd.bits & GATEWAY) local.set(a.at, this.gateway.run(a.cmd, commands[a.at], caller));
    }
    const sent = batch.filter((a) => !local.has(a.at));
    if (sent.length === 0) return batch.map((a) => local.get(a.at)!);
    await this.remote.started;
    const run = async (conn: Redis | Cluster): Promise<Reply[] | ReplyError> => {
      const m = conn.multi() as unknown as Pipeline;
      for (const a of sent) m.sendCommand(toCommand(a));
      let results: [Error | null, unknown][] | null;
      try {
        results = await m.exec();
      } catch (e) {
        return this.failure(e);
      }
      // EXEC answers null when a WATCHed key changed; a REST transaction watches nothing.
      if (results === null) return EXECABORT;
      let j = 0;
      return batch.map((a) => {
        if (local.has(a.at)) return local.get(a.at)!;
        const [err, value] = results[j++];
        return err === null ? this.counted(a.cmd, toReply(value)) : this.failure(err, a);
      });
    };
    // A limited user's script in it: the whole transaction runs as that user's Redis user (one MULTI..EXEC write).
    if (sent.some((a) => limitedScript(a.cmd, caller))) {
      const conn = await this.scriptUsers.connection(caller.user, caller.acl!).catch((e: unknown) => this.failure(e));
      return conn instanceof ReplyError ? conn : run(conn);
    }
    return this.pool === null ? run(this.remote.main) : this.pool.use(run);
  }

  /**
   * SUBSCRIBE, PSUBSCRIBE and SSUBSCRIBE, each client on a connection of its own (in a Cluster,
   * to the node serving the first channel's slot: any node hears every PUBLISH, and a shard
   * channel is heard on its own). A Cluster's nodes publish keyspace notifications for their
   * own keys alone, so a subscription that may hear them also subscribes on every other master,
   * passing on only those. The events are the embedded hub's; the returned function closes the
   * connections, which ends their subscriptions on the server. MONITOR is refused: the
   * server's would show every client of the server, Larder's commands and others'.
   */
  async stream(argv: Args, caller: Caller, client: PubSubClient): Promise<(() => void) | ReplyError> {
    const a = this.admit(argv, caller, 0, 'stream');
    if (a instanceof ReplyError) return a;
    if (a.refused !== null) return a.refused;
    if (a.cmd.bits & ADMIN) return REMOTE_MONITOR;
    await this.remote.started;
    const slot = this.cluster ? keySlot(argv[1]) : 0;
    const conn = this.remote.single(slot);
    if (conn instanceof ReplyError) return conn;
    const others = a.cmd.name !== 'ssubscribe' && argv.slice(1).some(mayNameKeyspaceChannels) ? this.remote.otherMasters(slot) : [];
    const conns = [conn, ...others];
    // The server confirms every subscription before any event, but ioredis settles the
    // command a tick after emitting what followed it in the same read: events wait for it.
    let held: string[][] | null = [];
    const forward = (event: string[]) => (held === null ? client.send(event) : held.push(event));
    // Channels, patterns and messages arrive as byte strings (resp2-decoder.ts).
    conn.on('messageBuffer', (channel: string, message: string) => forward(['message', channel, message]));
    conn.on('smessageBuffer', (channel: string, message: string) => forward(['smessage', channel, message]));
    conn.on('pmessageBuffer', (pattern: string, channel: string, message: string) => forward(['pmessage', pattern, channel, message]));
    for (const other of others) {
      other.on('messageBuffer', (channel: string, message: string) => isKeyspaceChannel(channel) && forward(['message', channel, message]));
      other.on('pmessageBuffer', (pattern: string, channel: string, message: string) => isKeyspaceChannel(channel) && forward(['pmessage', pattern, channel, message]));
    }
    // A server went away: the stream ends, and the client subscribes again when it likes.
    const ended = () => {
      close();
      client.end();
    };
    // Only this listener goes: the connection's own 'end' listener (connection.ts) must still
    // forget it once it ends.
    const close = () => {
      for (const c of conns) {
        c.off('end', ended);
        c.off('error', ended);
        c.quit().catch(() => c.disconnect());
      }
    };
    for (const c of conns) c.once('end', ended);
    try {
      await Promise.all(conns.map((c) => c.callBuffer(a.sent[0], ...wireArgs(a.sent))));
    } catch (e) {
      for (const c of conns) c.disconnect();
      return this.failure(e, a);
    }
    // Nor does it go on without a message it lost: one past the decoder's bound is not kept
    // (resp2-decoder.ts), and ioredis reports it as an error of the connection.
    for (const c of conns) c.once('error', ended);
    // One connection, one command: each confirmation counts the distinct names so far.
    const names = new Set<string>();
    for (let i = 1; i < argv.length; i++) client.send([a.cmd.name, argv[i], String(names.add(argv[i]).size)]);
    for (const event of held) client.send(event);
    held = null;
    return close;
  }

  syncToken(): string {
    return String(this.writes);
  }

  async close(): Promise<void> {
    await this.scriptUsers.close();
    await this.remote.close();
  }

  /**
   * A limited user's script, on the connection of its Redis user (script-users.ts). A server
   * that lost that user (restarted) refuses its connection: it is made again, once.
   */
  private async asScriptUser(a: Admitted, caller: Caller): Promise<Reply> {
    await this.remote.started;
    for (let attempt = 0; ; attempt++) {
      const conn = await this.scriptUsers.connection(caller.user, caller.acl!);
      if (conn instanceof ReplyError) return conn;
      try {
        return toReply(await conn.sendCommand(toCommand(a)));
      } catch (e) {
        if (e instanceof RedisReplyError && !LOST_AUTH.test((e as Error).message)) throw e;
        this.scriptUsers.forget(conn);
        if (attempt > 0) throw e;
      }
    }
  }

  /** How a keyless command spans the Cluster's nodes (SCAN, or a command tipped to run on each), if it does. */
  private async spreadFor(a: Admitted): Promise<(() => Promise<Reply>) | undefined> {
    if (a.cmd.bits & SPANS_NODES) {
      const step = scanStep(this.remote.main as Cluster, a.sent[1]);
      if (step === null) return async () => ['0', []];
      return step === undefined ? undefined : () => this.scanNode(a, step);
    }
    // Read again after a failure (the Cluster was down): until then commands go to one node.
    this.policies ??= this.remote.main.call('COMMAND').then(readShardPolicies, () => {
      this.policies = undefined;
      return new Map();
    });
    const policy = policyOf(await this.policies, a.cmd.name, a.sent[1]);
    return policy === undefined ? undefined : () => this.onEveryNode(a, policy);
  }

  /** One page of a Cluster SCAN, from the master the cursor points at (cluster-scan.ts). */
  private async scanNode(a: Admitted, step: ScanStep): Promise<Reply> {
    const sent = [a.sent[0], step.nodeCursor, ...a.sent.slice(2)];
    const reply = toReply(await step.node.sendCommand(toCommand({ ...a, sent })));
    return Array.isArray(reply) ? [nextCursor(step, String(reply[0])), reply[1]] : reply;
  }

  /** Sends an admitted command to every master (or node) of the Cluster and merges the replies. */
  private async onEveryNode(a: Admitted, policy: ShardPolicy): Promise<Reply> {
    const nodes = (this.remote.main as Cluster).nodes(policy.nodes === 'masters' ? 'master' : 'all');
    if (nodes.length === 0) return toReply(await this.remote.main.sendCommand(toCommand(a))); // fails: no node is known
    const replies = await Promise.all(
      nodes.map((n) =>
        (n.sendCommand(toCommand(a)) as Promise<unknown>).then(toReply, (e: unknown) => {
          if (e instanceof RedisReplyError) return toReply(e);
          throw e;
        }),
      ),
    );
    return mergeReplies(policy.merge, replies);
  }

  /** Admitted as by the embedded engine: a subscription or MONITOR runs only as a stream (it would turn a shared connection into a subscriber's). */
  private admit(argv: Args, caller: Caller, at: number, runAs: RunAs): Admitted | ReplyError {
    const cmd = admit(lookupCommand(argv[0]), argv, caller, runAs === 'stream' ? 'stream' : 'command');
    if (cmd instanceof ReplyError) return cmd;
    if (cmd.bits & EMBEDDED) return needsEmbeddedEngine(cmd.name);
    let slot: number | undefined;
    let key: Buffer | undefined;
    if (this.cluster) {
      const keys = keysOf(cmd, argv);
      slot = commonSlot(keys);
      if (slot === -1) return CROSSSLOT;
      if (keys.length > 0) key = Buffer.from(keys[0], 'latin1');
    }
    const args = cmd.remoteArgs?.(argv, caller) ?? argv;
    if (args instanceof ReplyError) return { at, cmd, sent: argv, slot, key, alone: false, refused: args };
    let sent = remoteForm(cmd, args, caller);
    const block = cmd.bits & BLOCKING ? blockTimeoutAt(sent) : -1;
    if (block !== -1) sent = runAs === 'single' ? boundedBlock(sent, block, this.maxBlockMs) : withoutBlock(sent, block);
    return { at, cmd, sent, slot, key, alone: block !== -1 && runAs === 'single', refused: null };
  }

  /**
   * Why the RESTOREs among `batch` may not be sent, or null (none there): the server reads
   * their payload as its own, and only one that checks payloads in full (sanitize-dump-payload:
   * on every master of a Cluster) is safe from a crafted one, which may crash the server every
   * database on it shares. Read for each request that restores: the setting may change at any
   * time, and RESTORE is rare.
   */
  private async payloadRefusal(batch: readonly Admitted[]): Promise<ReplyError | null> {
    if (!batch.some((a) => a.cmd.bits & RESTORES_PAYLOAD)) return null;
    await this.remote.started;
    const main = this.remote.main;
    try {
      const settings = await Promise.all((main instanceof Cluster ? main.nodes('master') : [main]).map((n) => n.call('CONFIG', 'GET', 'sanitize-dump-payload')));
      const values = settings.map((s) => (s as unknown[])[1]);
      const unchecked = values.findIndex((v) => v !== 'yes' && v !== 'clients');
      if (unchecked === -1) return null;
      return restoreUnchecked(values[unchecked] === undefined ? 'the server has no such setting' : `it is '${String(values[unchecked])}'`);
    } catch (e) {
      return e instanceof RedisReplyError ? restoreUnchecked(`CONFIG GET failed: ${(e as Error).message}`) : this.failure(e);
    }
  }

  /** Runs a blocking read on a connection of its own, closed once it is answered. */
  private async alone(a: Admitted): Promise<Reply> {
    const conn = this.remote.single(a.slot ?? 0);
    if (conn instanceof ReplyError) return conn;
    try {
      return this.counted(a.cmd, toReply(await conn.sendCommand(toCommand(a))));
    } catch (e) {
      return this.failure(e, a);
    } finally {
      conn.disconnect();
    }
  }

  /**
   * An error the server answered to the command passes through. Anything else means it could
   * not be reached, or refused the connection itself (a wrong password answers AUTH, and
   * ioredis fails the waiting commands with that answer).
   */
  private failure(e: unknown, sent?: Admitted): ReplyError {
    const answered = (e as { command?: { name?: string } }).command?.name;
    if (e instanceof RedisReplyError && (sent === undefined || answered === undefined || answered === sent.sent[0])) {
      return toReply(e) as ReplyError;
    }
    const why = this.remote.lastError ?? (e instanceof Error ? e.message : String(e));
    return backendUnavailable(this.remote.target.nodes.map((n) => `${n.host}:${n.port}`).join(','), why);
  }

  /** The client's reply for the server's: a write it accepted counted for the sync token, the table's remoteReply applied. */
  private counted(cmd: Command, reply: Reply): Reply {
    if (reply instanceof ReplyError) return reply;
    if (cmd.bits & WRITE) this.writes++;
    return cmd.remoteReply === undefined ? reply : cmd.remoteReply(reply, this.remote.target.db ?? 0);
  }
}


/**
 * The ioredis command for an admitted one, with the slot and key Larder's table found. ioredis
 * would look for them in its own command list, looping as far as a numkeys says (LMPOP with a
 * numkeys of 2^63-1 ran the process out of memory) and throwing on a missing key (OBJECT
 * ENCODING alone answered 503). A command without a slot goes to any node.
 */
function toCommand(a: Admitted): RedisCommand {
  const c = new RedisCommand(a.sent[0], wireArgs(a.sent), { replyEncoding: null });
  Object.assign(c, { slot: a.slot ?? null, keys: a.key === undefined ? [] : [a.key] });
  return c;
}

/**
 * The arguments after the name as ioredis sends them: Larder's byte strings (latin1) go as
 * bytes, except that an ASCII one, whose UTF-8 is the same bytes, stays a string: a command of
 * strings is written as one string, where one Buffer among them makes ioredis gather buffers.
 */
function wireArgs(argv: Args): (string | Buffer)[] {
  const out: (string | Buffer)[] = new Array(argv.length - 1);
  for (let i = 1; i < argv.length; i++) out[i - 1] = isAscii(argv[i]) ? argv[i] : Buffer.from(argv[i], 'latin1');
  return out;
}

/**
 * Whether a script runs as its caller's own Redis user: the server checks a script's calls
 * against its connection's user, and Larder's may do everything, which only such a caller may.
 */
function limitedScript(cmd: Command, caller: Caller): boolean {
  return (cmd.bits & RUNS_SCRIPT) !== 0 && caller.acl !== null && !caller.acl.allowsEverything();
}

/** A Cluster node's answer that the command's slot is served elsewhere. */
const REDIRECT = /^(MOVED|ASK) /;

function bySlot(batch: readonly Admitted[]): Admitted[][] {
  const groups = new Map<number | undefined, Admitted[]>();
  for (const a of batch) {
    const key = a.slot ?? groups.keys().next().value;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [a]);
    else g.push(a);
  }
  return [...groups.values()];
}

const KEYSPACE_CHANNELS = ['__keyspace@', '__keyevent@'];

/** Whether a channel carries keyspace notifications (published by the node holding the key). */
function isKeyspaceChannel(channel: string): boolean {
  return channel.startsWith(KEYSPACE_CHANNELS[0]) || channel.startsWith(KEYSPACE_CHANNELS[1]);
}

/** Whether a channel, or a pattern by its literal start, may name keyspace notification channels. */
function mayNameKeyspaceChannels(name: string): boolean {
  const literal = name.slice(0, name.search(/[*?[\\]|$/));
  return KEYSPACE_CHANNELS.some((prefix) => prefix.startsWith(literal) || literal.startsWith(prefix));
}

// How Larder connects to a remote database (the URL forms are in config/remote-url.ts): TLS, and the
// ioredis options that make the gateway fail fast while the server is away and reconnect by
// itself.

import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { parseRemoteUrl, type RemoteTarget } from '../../config/remote-url.js';
import { backendUnavailable, type ReplyError } from '../errors.js';
import { installReplyShapes } from './reply-conversion.js';
import { boundReplies } from './resp2-decoder.js';
import { completeTracingChannel } from './tracing-channel.js';

export interface RemoteTls {
  /** PEM files; the system's CAs are trusted when `caFile` is absent. */
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
  /** false accepts any server certificate (test setups only). */
  rejectUnauthorized?: boolean | undefined;
  /** The name checked against the certificate, when it is not the host. */
  servername?: string | undefined;
}

export interface RemoteSettings {
  url: string;
  tls?: RemoteTls | undefined;
  /** The database's maxReplyBytes: replies far past it are not read into memory (resp2-decoder.ts). */
  maxReplyBytes: number;
}

const CONNECT_TIMEOUT_MS = 5000;

/** Reconnection backoff: quick at first, then twice a second, forever. */
const retry = (times: number) => Math.min(times * 50, 500);

/** A connection to one server or a Cluster, and the options to open more of them. */
export interface RemoteClient {
  readonly target: RemoteTarget;
  readonly main: Redis | Cluster;
  /** Settles once the first connection is ready, or when it has had `connectTimeout` to be. */
  readonly started: Promise<void>;
  /** Why the last connection attempt failed; undefined while connected. */
  readonly lastError: string | undefined;
  /** Opens one more connection to the standalone server (a dedicated transaction connection). */
  dedicated(): Redis;
  /**
   * Opens a connection for one streaming client or one blocking read, to the standalone
   * server or to the Cluster node serving `slot`. It never reconnects: when it drops, it ends
   * ('end'), and so does the client's stream. Closing it is the caller's; `close()` cuts those
   * still open (a blocked read would hold up a QUIT).
   */
  single(slot: number): Redis | ReplyError;
  /** As `single`, one to each master of the Cluster but the one serving `slot` (none standalone). */
  otherMasters(slot: number): Redis[];
  /**
   * Opens a client to the server or Cluster that authenticates as another Redis user (a
   * limited ACL user's scripts: script-users.ts), reconnecting as the main one does. It does no
   * ready check (INFO, CLUSTER INFO), which that user may not run; closing it is the caller's.
   */
  authenticated(username: string, password: string): Redis | Cluster;
  close(): Promise<void>;
}

export function openRemote(settings: RemoteSettings, onState: (event: string, detail?: Error) => void): RemoteClient {
  installReplyShapes();
  const releaseBound = boundReplies(settings.maxReplyBytes);
  completeTracingChannel();
  const target = parseRemoteUrl(settings.url);
  const tls = target.tls ? tlsOptions(settings.tls) : undefined;
  const nodeOptions: RedisOptions = {
    username: target.username,
    password: target.password,
    db: target.db,
    tls,
    // RESP2, the protocol the REST API's replies follow (RESP3 shapes some replies otherwise).
    protocol: 2,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // While the server is away, a request waits for one reconnection attempt at most (503
    // after it fails), and those in flight when the connection drops are failed, not resent.
    // The queue is kept so requests made while the first connection opens wait for it.
    maxRetriesPerRequest: 0,
  };
  let lastError: string | undefined;
  const watch = (client: Redis | Cluster) => {
    client.on('ready', () => {
      lastError = undefined;
      onState('ready');
    });
    client.on('error', (e: Error) => {
      lastError = e.message;
      onState('error', e);
    });
    return client;
  };
  // A Cluster would keep requests queued for as long as it reconnects: it fails them at once
  // instead, once it has been ready (`started`).
  const main = target.cluster
    ? new Cluster([...target.nodes], {
        enableOfflineQueue: false,
        clusterRetryStrategy: retry,
        redisOptions: nodeOptions,
      } satisfies ClusterOptions)
    : new Redis({ ...target.nodes[0], ...nodeOptions, retryStrategy: retry });
  watch(main);
  const started = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
    timer.unref();
    main.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const opened: Redis[] = [];
  const streaming = new Set<Redis>();
  // A subscriber resubscribes nothing and is never retried: its client sees the stream end.
  const once: RedisOptions = { retryStrategy: () => null, autoResubscribe: false, maxRetriesPerRequest: 0 };
  const streamingConnection = (c: Redis): Redis => {
    c.on('error', () => {}); // the main connection reports the server's state
    streaming.add(c);
    c.once('end', () => streaming.delete(c));
    return c;
  };
  /** A streaming connection to the Cluster node at `address` ("host:port"). */
  const toNode = (address: string): Redis => {
    const at = address.lastIndexOf(':');
    return streamingConnection(new Redis({ host: address.slice(0, at), port: Number(address.slice(at + 1)), ...nodeOptions, ...once }));
  };
  return {
    target,
    main,
    started,
    get lastError() {
      return lastError;
    },
    dedicated() {
      if (!(main instanceof Redis)) throw new Error('dedicated connections are for a standalone server');
      const c = main.duplicate();
      c.on('error', () => {}); // the main connection reports the server's state
      opened.push(c);
      return c;
    },
    single(slot) {
      if (main instanceof Redis) return streamingConnection(main.duplicate(once));
      // Any node hears every PUBLISH of a Cluster; a shard channel is heard on its slot's node.
      const owner = (main.slots[slot] ?? [])[0];
      if (owner === undefined) return backendUnavailable(target.nodes.map((n) => `${n.host}:${n.port}`).join(','), `no node serves slot ${slot}`);
      return toNode(owner);
    },
    otherMasters(slot) {
      if (main instanceof Redis) return [];
      const owners = new Set(main.slots.map((nodes) => nodes[0]));
      owners.delete(main.slots[slot]?.[0]);
      return [...owners].filter((o) => o !== undefined).map(toNode);
    },
    authenticated(username, password) {
      const options: RedisOptions = { ...nodeOptions, username, password, enableReadyCheck: false };
      const c = target.cluster
        ? new Cluster([...target.nodes], { enableOfflineQueue: false, enableReadyCheck: false, clusterRetryStrategy: retry, redisOptions: options })
        : new Redis({ ...target.nodes[0], ...options, retryStrategy: retry });
      c.on('error', () => {}); // the main connection reports the server's state
      return c;
    },
    async close() {
      for (const c of streaming) c.disconnect();
      await Promise.all([main, ...opened].map((c) => c.quit().catch(() => c.disconnect())));
      releaseBound();
    },
  };
}

function tlsOptions(t: RemoteTls | undefined): ConnectionOptions {
  const read = (path: string | undefined) => (path === undefined ? undefined : readFileSync(path));
  return {
    ca: read(t?.caFile),
    cert: read(t?.certFile),
    key: read(t?.keyFile),
    rejectUnauthorized: t?.rejectUnauthorized ?? true,
    servername: t?.servername,
  };
}

// Starts a real Larder on 127.0.0.1, on a free port, with its own temporary data dir, for
// integration tests. Everything goes through HTTP.
//
// LARDER_TEST_RUNTIME picks what serves: unset or `node`, a Larder inside the test process;
// `bun`, a `larder start` child process under Bun (see larder-process.ts), so the same tests
// check the Bun.serve adapter.
//
// LARDER_TEST_KV_BACKEND=redis keeps the default database on a remote backend: each test
// Larder gets its own throwaway redis-server (engine redis), so the same HTTP tests check the
// remote backend (`npm run test:redis`). LARDER_TEST_KV_BACKEND=redis-cluster puts it on a
// 3-master Redis Cluster: the one this test process shares in `npm run test:cluster`
// (shared-clusters.ts), emptied when a Larder starts alone, or else a throwaway one per Larder.
//
// LARDER_TEST_QUEUE_BACKEND=postgres puts the queue on PostgreSQL: on the cluster the run shares
// (`npm run test:postgres`), in a schema of each data dir's own (queue-backend.ts).

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer, startRedisServer } from '../kv/differential/redis-server.js';
import { startRedisCluster } from '../kv/redis/redis-cluster.js';
import { sharedCluster } from '../kv/redis/shared-clusters.js';
import { dropTestQueue, TEST_QUEUE_BACKEND, withTestQueue } from './queue-backend.js';
import { spawnLarder, TEST_RUNTIME, type ClusterCredentials, type QueueCredentials, type Runtime } from './larder-process.js';

export interface KvClient {
  /** Base URL of the database. */
  readonly kvUrl: string;
  readonly token: string;
  readonly readOnlyToken: string;
  /** Runs one command through the JSON body form; returns status and parsed body. */
  command(argv: (string | number)[], init?: { token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  /** Runs one command that must succeed (200); returns its result. */
  ok(argv: (string | number)[]): Promise<any>;
  /** Runs one command that must fail (400); returns its error text. */
  fails(argv: (string | number)[]): Promise<string>;
  /** Any request below the database URL. */
  request(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** SETs raw bytes (a byte string): JSON carries text, a POST body after the path carries any bytes. */
  setBytes(key: string, bytes: string): Promise<void>;
  /** GETs a value as a byte string, through base64. */
  getBytes(key: string): Promise<string | null>;
}

export interface TestLarder extends KvClient {
  /** The runtime serving HTTP. */
  readonly runtime: Runtime;
  readonly url: string;
  readonly dataDir: string;
  /** Bearer token of /metrics and the web console. */
  readonly adminToken: string;
  /** Bearer token of the read-only web console. */
  readonly adminReadOnlyToken: string;
  /** Another configured database of the same server. */
  database(name: string): KvClient;
  /** A stream cluster's REST URL and Basic credentials (`default` when not named). */
  cluster(name?: string): ClusterCredentials;
  /** URL and tokens of a vector index (`default` when not named). */
  vectorIndex(name?: string): VectorCredentials;
  /** The message queue's URL (…/qstash), tokens and signing keys as they were at start. */
  queue(): QueueCredentials;
  /** Stops the server; the data dir is removed unless `keepData` (or it was passed in). */
  close(keepData?: boolean): Promise<void>;
}

export interface VectorCredentials {
  readonly url: string;
  readonly token: string;
  readonly readOnlyToken: string;
}

export { TEST_RUNTIME };

const BACKENDS = ['embedded', 'redis', 'redis-cluster'] as const;
export const TEST_KV_BACKEND: (typeof BACKENDS)[number] =
  BACKENDS.find((b) => b === process.env.LARDER_TEST_KV_BACKEND) ?? 'embedded';

/**
 * `it` for a test the remote backend cannot pass, saying why in the skip: a command Redis 7.0
 * lacks, an Upstash behaviour Larder follows where Redis differs, Larder's own INFO or
 * encodings, or a restart of Larder (the data is the Redis server's). `npm run test:redis`
 * prints these reasons: they are the list of what differs.
 */
export function embeddedOnly(why: string): typeof it {
  if (TEST_KV_BACKEND === 'embedded') return it;
  return ((name: string, fn: () => Promise<void>) => it(name, { skip: `remote backend: ${why}` }, fn)) as typeof it;
}

/**
 * `it` for a test a Redis Cluster cannot pass, saying why in the skip: what one node answers
 * for itself (INFO, PUBSUB counts, a script's cache) or names no key to route by. Keys a test uses
 * together share a hash tag instead (`{t}a`, `{t}b`): CROSSSLOT is no reason to skip.
 * `npm run test:cluster` prints these reasons.
 */
export function notOnCluster(why: string): typeof it {
  if (TEST_KV_BACKEND !== 'redis-cluster') return it;
  return ((name: string, fn: () => Promise<void>) => it(name, { skip: `Redis Cluster: ${why}` }, fn)) as typeof it;
}

/**
 * `it` for a queue test about the embedded engine's own files (their damage and repair, a full
 * disk, what they hold), which the PostgreSQL engine does not write, saying so in the skip.
 * `npm run test:postgres` prints these reasons.
 */
export function embeddedQueueOnly(why: string): typeof it {
  if (TEST_QUEUE_BACKEND === 'embedded') return it;
  return ((name: string, fn: () => Promise<void>) => it(name, { skip: `PostgreSQL engine: ${why}` }, fn)) as typeof it;
}

/** Test Larders of this process running on its shared Cluster; it is emptied when the first starts. */
let onSharedCluster = 0;

export async function startTestLarder(config: Record<string, unknown> = {}, dataDir?: string): Promise<TestLarder> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'larder-test-'));
  let remote: { stop(): Promise<void> } | undefined;
  if (TEST_KV_BACKEND !== 'embedded') {
    const bin = findRedisServer();
    if (bin === undefined) throw new Error(`LARDER_TEST_KV_BACKEND=${TEST_KV_BACKEND} needs redis-server on PATH`);
    if (TEST_KV_BACKEND === 'redis') {
      const server = await startRedisServer(bin);
      remote = server;
      config = onRemote(config, `redis://127.0.0.1:${server.port}`);
    } else {
      const shared = await sharedCluster();
      if (shared === undefined) {
        const cluster = await startRedisCluster(bin);
        remote = cluster;
        config = onRemote(config, cluster.url);
      } else {
        if (onSharedCluster++ === 0) await shared.flush();
        remote = { stop: async () => void onSharedCluster-- };
        config = onRemote(config, shared.url);
      }
    }
  }
  const removeData = async (keepData: boolean) => {
    if (!keepData && dataDir === undefined) {
      rmSync(dir, { recursive: true, force: true });
      await dropTestQueue(dir);
    }
    await remote?.stop();
  };
  // A Larder that fails to start must not leave its redis-server running.
  try {
    return await serve(config, dir, removeData);
  } catch (e) {
    await remote?.stop();
    throw e;
  }
}

async function serve(config: Record<string, unknown>, dir: string, removeData: (keepData: boolean) => Promise<void>): Promise<TestLarder> {
  if (TEST_RUNTIME === 'bun') {
    const p = await spawnLarder({ runtime: 'bun', config: { logLevel: 'silent', ...config }, dataDir: dir });
    const [name, creds] = p.info.databases.has('default') ? ['default', p.info.databases.get('default')!] : [...p.info.databases][0];
    return {
      ...kvClient(`${p.info.url}/redis/${name}`, creds.token, creds.readOnlyToken),
      runtime: p.info.runtime,
      url: p.info.url,
      dataDir: dir,
      adminToken: p.info.adminToken,
      adminReadOnlyToken: p.info.adminReadOnlyToken,
      database(db) {
        const c = p.info.databases.get(db);
        if (c === undefined) throw new Error(`no database '${db}'`);
        return kvClient(`${p.info.url}/redis/${db}`, c.token, c.readOnlyToken);
      },
      cluster(name = 'default') {
        const c = p.info.clusters.get(name);
        if (c === undefined) throw new Error(`no stream cluster '${name}'`);
        return c;
      },
      vectorIndex(name = 'default') {
        const c = p.info.indexes.get(name);
        if (c === undefined) throw new Error(`no vector index '${name}'`);
        return c;
      },
      queue: () => p.info.queue,
      async close(keepData = false) {
        const exit = await p.stop('SIGTERM');
        await removeData(keepData);
        if (exit.code !== 0) throw new Error(`larder exited with ${exit.code ?? exit.signal}\n${p.stderr()}`);
      },
    };
  }
  // A Bun server starts through launchLarder, which puts its queue on the test backend likewise.
  // Larder is imported here only: a Bun lane's test file would spend a second of CPU loading it.
  const [{ validate }, { startLarder }] = await Promise.all([import('../../src/config/load.js'), import('../../src/larder.js')]);
  const larder = await startLarder(validate({ host: '127.0.0.1', port: 0, logLevel: 'silent', ...withTestQueue(config, dir), dataDir: dir }));
  const creds = larder.kv.find((c) => c.db === 'default') ?? larder.kv[0];
  return {
    ...kvClient(`${larder.url}/redis/${creds.db}`, creds.token, creds.readOnlyToken),
    runtime: larder.runtime,
    url: larder.url,
    dataDir: dir,
    adminToken: larder.adminToken,
    adminReadOnlyToken: larder.adminReadOnlyToken,
    database(db) {
      const c = larder.kv.find((k) => k.db === db);
      if (c === undefined) throw new Error(`no database '${db}'`);
      return kvClient(`${larder.url}/redis/${db}`, c.token, c.readOnlyToken);
    },
    cluster(name = 'default') {
      const c = larder.streams.find((s) => s.cluster === name);
      if (c === undefined) throw new Error(`no stream cluster '${name}'`);
      return { url: `${larder.url}/kafka/${name}`, username: c.username, password: c.password };
    },
    vectorIndex(name = 'default') {
      const c = larder.vector.find((v) => v.index === name);
      if (c === undefined) throw new Error(`no vector index '${name}'`);
      return { url: `${larder.url}/vector/${name}`, token: c.token, readOnlyToken: c.readOnlyToken };
    },
    queue: () => ({ url: `${larder.url}/qstash`, ...larder.queue! }),
    async close(keepData = false) {
      await larder.close();
      await removeData(keepData);
    },
  };
}

/**
 * One Larder for a whole suite: started before its first test, stopped after its last. The
 * returned object stands for it (each property read goes to the running server), so tests
 * use it as they would the server itself.
 */
export function suiteLarder(config: Record<string, unknown> = {}): TestLarder {
  let current: TestLarder | undefined;
  before(async () => {
    current = await startTestLarder(config);
  });
  after(() => current?.close());
  return standIn(() => current);
}

/** An object standing for what `current()` gives once the suite's before hook has set it. */
export function standIn<T extends object>(current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, prop) {
      const target = current();
      if (target === undefined) throw new Error('a suite value exists only inside the suite (after its before hooks)');
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `config` with its default database (made if absent) on the Redis at `url`. */
function onRemote(config: Record<string, unknown>, url: string): Record<string, unknown> {
  const kv = (config.kv ?? {}) as Record<string, unknown>;
  const databases = (kv.databases ?? { default: {} }) as Record<string, Record<string, unknown>>;
  if (databases.default === undefined) return config;
  return { ...config, kv: { ...kv, databases: { ...databases, default: { ...databases.default, url } } } };
}

/** Requests to one database with its tokens. */
export function kvClient(kvUrl: string, token: string, readOnlyToken: string): KvClient {
  const request = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const bearer = init.token === undefined ? token : init.token;
    if (bearer !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${bearer}`);
    return fetch(kvUrl + path, { ...init, headers });
  };
  async function command(argv: (string | number)[], init: { token?: string; headers?: Record<string, string> } = {}) {
    const res = await request('', { method: 'POST', body: JSON.stringify(argv), headers: init.headers, token: init.token });
    return { status: res.status, body: (await res.json()) as any };
  }
  async function expect(argv: (string | number)[], status: number) {
    const res = await command(argv);
    assert.equal(res.status, status, `${JSON.stringify(argv)} -> ${JSON.stringify(res.body)}`);
    return res.body;
  }
  return {
    kvUrl,
    token,
    readOnlyToken,
    request,
    command,
    ok: async (argv) => (await expect(argv, 200)).result,
    fails: async (argv) => (await expect(argv, 400)).error,
    async setBytes(key, bytes) {
      const res = await request(`/set/${encodeURIComponent(key)}`, { method: 'POST', body: Buffer.from(bytes, 'latin1') });
      assert.deepEqual(await res.json(), { result: 'OK' });
    },
    async getBytes(key) {
      const { result } = (await command(['get', key], { headers: { 'upstash-encoding': 'base64' } })).body;
      return result === null ? null : Buffer.from(result, 'base64').toString('latin1');
    },
  };
}

/** A byte string percent-encoded for the path form, which carries any byte (DUMP payloads). */
export const pathBytes = (bytes: string) => [...bytes].map((c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

/**
 * Assertions on one command's exact answer (status and body), against the client `current()`
 * gives when called, so a suite can declare them before its `before` hook starts the server.
 */
export function replies(current: () => KvClient) {
  const label = (argv: (string | number)[]) => JSON.stringify(argv).slice(0, 200);
  return {
    reply: async (argv: (string | number)[], result: unknown) =>
      assert.deepEqual(await current().command(argv), { status: 200, body: { result } }, label(argv)),
    fails: async (argv: (string | number)[], error: string) =>
      assert.deepEqual(await current().command(argv), { status: 400, body: { error } }, label(argv)),
  };
}

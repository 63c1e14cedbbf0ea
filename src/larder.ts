// The composition root: builds every configured service from a validated config, mounts
// them on one handler and serves it on the chosen runtime.

import { consoleService } from './console/index.js';
import { ConfigError } from './config/load.js';
import type { Config } from './config/schema.js';
import { SecretStore } from './config/secrets.js';
import { mountKv, type KvCredentials } from './kv/index.js';
import { createApp } from './server/app.js';
import type { RunningServer } from './server/http.js';
import { healthService, StorageHealth } from './server/health.js';
import { fetchClient } from './server/http-client.js';
import { createLogger, type Logger } from './server/log.js';
import { isLoopback } from './server/loopback.js';
import { metricsService } from './server/metrics-endpoint.js';
import { RequestMetrics } from './server/request-metrics.js';
import type { Service } from './server/service.js';
import { makeDirectory } from './storage/atomic-file.js';
import { mountQueue, type QueueCredentials, type QueueService } from './queue/index.js';
import { mountStreams, type StreamCredentials, type StreamsService } from './streams/index.js';
import { mountVector, type VectorCredentials, type VectorService } from './vector/index.js';

export interface Larder {
  readonly url: string;
  readonly port: number;
  readonly runtime: 'node' | 'bun';
  readonly kv: readonly KvCredentials[];
  readonly streams: readonly StreamCredentials[];
  readonly vector: readonly VectorCredentials[];
  /** null when the queue is not served (a `--workers` process). */
  readonly queue: QueueCredentials | null;
  /** Bearer token of /metrics and the web console. */
  readonly adminToken: string;
  /** Bearer token of the read-only web console. */
  readonly adminReadOnlyToken: string;
  readonly log: Logger;
  /** Stops serving, then flushes and closes every service. */
  close(): Promise<void>;
}

const isBun = () => typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/**
 * `worker`: one of several `--workers` processes. It serves the key-value service alone (the
 * embedded stream topics, vector indexes and queue keep their files in one process) and shares
 * its port with the others.
 */
export async function startLarder(config: Config, log: Logger = createLogger(config.logLevel), worker = false): Promise<Larder> {
  const runtime = config.runtime === 'auto' ? (isBun() ? 'bun' : 'node') : config.runtime;
  if (runtime === 'bun' && !isBun()) throw new ConfigError('runtime "bun" needs the server to run under Bun (npx bun bin/larder.js start)');
  makeDirectory(config.dataDir);
  const secrets = new SecretStore(config.dataDir);
  const services: Service[] = [];
  let streams: StreamsService | null = null;
  let vector: VectorService | null = null;
  let queue: QueueService | null = null;
  const kv = await mountKv(config, secrets, log, runtime);
  services.push(kv);
  try {
    if (!worker) {
      streams = mountStreams(config, secrets, log);
      services.push(streams);
      vector = mountVector(config, secrets, log);
      services.push(vector);
      // Deliveries go out through the runtime's faster client, chosen once here.
      const http = runtime === 'bun' ? fetchClient : (await import('./server/adapters/node-client.js')).nodeClient;
      queue = await mountQueue(config, secrets, log, http);
      services.push(queue);
    }
  } catch (e) {
    await closeAll(services).catch((err: unknown) => log.error({ err }, 'closing after a failed start failed'));
    throw e;
  }
  const adminToken = config.adminToken ?? secrets.get('adminToken');
  const adminReadOnlyToken = config.adminReadOnlyToken ?? secrets.get('adminReadOnlyToken');
  const metrics = new RequestMetrics();
  for (const s of services) for (const c of s.counters ?? []) metrics.addCounter(s.name, c);
  const health = new StorageHealth(services, config.dataDir);
  metrics.addGauge('larder_storage_writable', 'Whether every data directory and log can be written now (0 while /healthz answers 503).', () =>
    health.problems().length === 0 ? 1 : 0,
  );
  const endpoints: Service[] = [healthService(health)];
  if (queue?.root) endpoints.push(queue.root);
  if (config.metrics ?? isLoopback(config.host)) endpoints.push(metricsService(metrics, adminToken));
  if (config.console.enabled ?? isLoopback(config.host)) {
    const directory = { kv: kv.credentials, streams: streams?.credentials ?? [], vector: vector?.credentials ?? [], queue: queue?.credentials ?? null };
    const [s, q] = [streams, queue];
    const views = { cluster: (name: string) => s?.adminView(name), pending: q === null ? null : () => q.pending() };
    endpoints.push(consoleService({ tokens: { admin: adminToken, readOnly: adminReadOnlyToken }, services: directory, metrics, views }));
  }
  const handler = createApp([...services, ...endpoints], log, metrics);
  const at = { host: config.host, port: config.port, shared: worker };
  let server: RunningServer;
  try {
    server =
      runtime === 'bun'
        ? await (await import('./server/adapters/bun.js')).listenBun(handler, at)
        : await (await import('./server/adapters/node.js')).listenNode(handler, at);
  } catch (e) {
    await closeAll(services).catch((err: unknown) => log.error({ err }, 'closing after a failed start failed'));
    throw e;
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${server.port}`,
    port: server.port,
    runtime,
    kv: kv.credentials,
    streams: streams?.credentials ?? [],
    vector: vector?.credentials ?? [],
    queue: queue?.credentials ?? null,
    adminToken,
    adminReadOnlyToken,
    log,
    async close() {
      await server.close();
      await closeAll(services);
    },
  };
}

/** Closes every service in turn even when one fails (a full disk can refuse a last flush), then throws the first failure. */
async function closeAll(services: readonly Service[]): Promise<void> {
  const failures: unknown[] = [];
  for (const s of services) await s.close().catch((e: unknown) => failures.push(e));
  if (failures.length > 0) throw failures[0];
}

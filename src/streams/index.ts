// The stream topics service: one cluster per configured name, mounted at /kafka/<cluster>,
// each an embedded log backend with its consumer groups, behind HTTP Basic credentials.
//
// Owns rest/ (the Upstash Kafka REST surface), log/ (partitioned segment logs) and groups/
// (consumer groups and committed offsets). Imports go rest/ -> backend.ts -> log/, groups/ ->
// storage/; it may import server/ (rest/ only), config/ and storage/, never another service.
// Other folders import this file only; the console reads a cluster through `adminView`, which
// carries no credentials.

import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import type { StreamBackend } from './backend.js';
import { GroupCoordinator } from './groups/coordinator.js';
import { LogBackend } from './log/log-backend.js';
import type { Cluster } from './rest/request.js';
import { StreamError } from './errors.js';
import { fail } from './rest/envelope.js';
import { streamRoutes } from './rest/routes.js';

export interface StreamCredentials {
  cluster: string;
  username: string;
  password: string;
}

/** What the console reads of a cluster: topics, offsets and groups, never its credentials. */
export interface ClusterAdminView {
  readonly backend: Pick<StreamBackend, 'topics' | 'topicSettings' | 'range' | 'committed'>;
  readonly groups: Pick<GroupCoordinator, 'list' | 'positions'>;
}

export interface StreamsService extends Service {
  readonly credentials: readonly StreamCredentials[];
  /** A cluster as the console's admin view reads it (topic settings, group positions). */
  adminView(cluster: string): ClusterAdminView | undefined;
}

export function mountStreams(config: Config, secrets: SecretStore, log: Logger): StreamsService {
  const clusters = new Map<string, Cluster>();
  const credentials: StreamCredentials[] = [];
  const now = () => Date.now();
  const onError = (err: unknown) => log.error({ err }, 'stream background commit failed');
  try {
    for (const [name, settings] of Object.entries(config.streams.clusters)) {
      const username = settings.username ?? secrets.get(`streams.${name}.username`);
      const password = settings.password ?? secrets.get(`streams.${name}.password`);
      const backend = new LogBackend({
        dir: join(config.dataDir, 'streams', name),
        topics: settings.topics,
        retentionCheckMs: config.streams.retentionCheckMs,
        now,
        warn: (msg, cutBytes) => log.warn({ cutBytes }, msg),
      });
      clusters.set(name, { name, settings, secrets: { kind: 'basic', username, password }, backend, groups: new GroupCoordinator(backend, now, onError) });
      credentials.push({ cluster: name, username, password });
    }
  } catch (e) {
    for (const c of clusters.values()) void c.backend.close();
    throw e;
  }
  return {
    name: 'streams',
    prefix: 'kafka',
    credentials,
    adminView(name) {
      const c = clusters.get(name);
      return c === undefined ? undefined : { backend: c.backend, groups: c.groups };
    },
    handle: streamRoutes(clusters, config),
    fail: (status, text) => fail(new StreamError(status, text)),
    writeFailure() {
      for (const c of clusters.values()) {
        const failure = c.backend.writeFailure();
        if (failure !== null) return `stream cluster '${c.name}', ${failure}`;
      }
      return null;
    },
    async close() {
      for (const c of clusters.values()) {
        await c.groups.close();
        await c.backend.close();
      }
    },
  };
}

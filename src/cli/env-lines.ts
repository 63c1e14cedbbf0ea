// The lines `larder start` prints so a user can paste them into .env: for each service its
// base URL and credentials, under the names the official SDKs read.

import type { Larder } from '../larder.js';
import type { VectorCredentials } from '../vector/index.js';

export function envLines(larder: Pick<Larder, 'url' | 'kv' | 'streams' | 'vector' | 'queue' | 'adminToken' | 'adminReadOnlyToken'>): string[] {
  const lines: string[] = [
    `# admin: bearer token of /metrics and the web console (${larder.url}/console); the read-only one opens a read-only console`,
    `LARDER_ADMIN_TOKEN=${larder.adminToken}`,
    `LARDER_ADMIN_READ_ONLY_TOKEN=${larder.adminReadOnlyToken}`,
  ];
  for (const kv of larder.kv) {
    const url = `${larder.url}/redis/${kv.db}`;
    const suffix = kv.db === 'default' ? '' : `_${kv.db.toUpperCase().replace(/-/g, '_')}`;
    lines.push(
      `# key-value database '${kv.db}'`,
      `UPSTASH_REDIS_REST_URL${suffix}=${url}`,
      `UPSTASH_REDIS_REST_TOKEN${suffix}=${kv.token}`,
      `UPSTASH_REDIS_REST_READ_ONLY_TOKEN${suffix}=${kv.readOnlyToken}`,
      `KV_REST_API_URL${suffix}=${url}`,
      `KV_REST_API_TOKEN${suffix}=${kv.token}`,
      `KV_REST_API_READ_ONLY_TOKEN${suffix}=${kv.readOnlyToken}`,
    );
  }
  for (const c of larder.streams) {
    const suffix = c.cluster === 'default' ? '' : `_${c.cluster.toUpperCase().replace(/-/g, '_')}`;
    lines.push(
      `# stream cluster '${c.cluster}'`,
      `UPSTASH_KAFKA_REST_URL${suffix}=${larder.url}/kafka/${c.cluster}`,
      `UPSTASH_KAFKA_REST_USERNAME${suffix}=${c.username}`,
      `UPSTASH_KAFKA_REST_PASSWORD${suffix}=${c.password}`,
    );
  }
  for (const v of larder.vector) lines.push(...vectorEnvLines(larder.url, v));
  const q = larder.queue;
  if (q === null) return lines;
  if (q.dev) {
    const port = new URL(larder.url).port;
    lines.push(`# QStash dev mode: apps with QSTASH_DEV=true${port === '8080' ? '' : ` and QSTASH_DEV_PORT=${port}`} use this queue as is`);
  }
  lines.push(
    '# message queue',
    `QSTASH_URL=${larder.url}/qstash`,
    `QSTASH_TOKEN=${q.token}`,
    `QSTASH_CURRENT_SIGNING_KEY=${q.currentSigningKey}`,
    `QSTASH_NEXT_SIGNING_KEY=${q.nextSigningKey}`,
    `QSTASH_READ_ONLY_TOKEN=${q.readOnlyToken}`,
  );
  return lines;
}

/** A vector index's lines: `<NAME>_`-prefixed for every index but `default`. */
export function vectorEnvLines(baseUrl: string, v: VectorCredentials): string[] {
  const prefix = v.index === 'default' ? '' : `${v.index.toUpperCase().replace(/-/g, '_')}_`;
  return [
    `# vector index '${v.index}'`,
    `${prefix}UPSTASH_VECTOR_REST_URL=${baseUrl}/vector/${v.index}`,
    `${prefix}UPSTASH_VECTOR_REST_TOKEN=${v.token}`,
    `${prefix}UPSTASH_VECTOR_REST_READONLY_TOKEN=${v.readOnlyToken}`,
  ];
}

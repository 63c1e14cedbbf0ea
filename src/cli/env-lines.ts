// The lines `larder start` prints so a user can paste them into .env: for each service its
// base URL and credentials, under the names the official SDKs read.

import type { Larder } from '../larder.js';

export function envLines(larder: Pick<Larder, 'url' | 'kv'>): string[] {
  const lines: string[] = [];
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
  return lines;
}

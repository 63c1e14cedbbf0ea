// The vector service: one index per configured name, mounted at /vector/<index>.

import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import { embedderFor } from './embedding/embedder.js';
import { VectorPersistence } from './index/persistence.js';
import { VectorIndex } from './index/vector-index.js';
import { ResumableQueries } from './rest/resumable.js';
import { vectorRoutes, type MountedIndex } from './rest/routes.js';

export interface VectorCredentials {
  index: string;
  token: string;
  readOnlyToken: string;
}

export interface VectorService extends Service {
  readonly credentials: readonly VectorCredentials[];
}

export function mountVector(config: Config, secrets: SecretStore, log: Logger): VectorService {
  const indexes = new Map<string, MountedIndex>();
  const persisted: VectorPersistence[] = [];
  const credentials: VectorCredentials[] = [];
  try {
    for (const [name, c] of Object.entries(config.vector.indexes)) {
      const token = c.token ?? secrets.get(`vector.${name}.token`);
      const readOnlyToken = c.readOnlyToken ?? secrets.get(`vector.${name}.readOnlyToken`);
      const index = new VectorIndex({ name, type: c.type, similarity: c.similarity, dimension: c.dimension ?? null });
      const persistence = new VectorPersistence(
        index,
        { dir: join(config.dataDir, 'vector', name), fsync: config.vector.fsync, compactAfterBytes: config.vector.compactAfterBytes },
        log,
      );
      persistence.open();
      persisted.push(persistence);
      indexes.set(name, { index, token, readOnlyToken, resumable: new ResumableQueries(Date.now), embedder: embedderFor(c) });
      credentials.push({ index: name, token, readOnlyToken });
    }
  } catch (e) {
    for (const p of persisted) p.close();
    throw e;
  }
  return {
    prefix: 'vector',
    credentials,
    handle: vectorRoutes(indexes, config.maxBodyBytes, log),
    async close() {
      for (const p of persisted) p.close();
    },
  };
}

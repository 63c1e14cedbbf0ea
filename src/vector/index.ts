// The vector service: one index per configured name, mounted at /vector/<index>, plus the
// indexes created while running through the admin endpoints (rest/admin.ts). Those are kept
// in <dataDir>/vector/created-indexes.json (written atomically, mode 0600: it may hold tokens)
// and mounted again at every start; a configured index of the same name wins.
//
// Owns rest/ (the Upstash Vector REST surface), engine/ (namespaces, the ANN graph, sparse and
// hybrid search, persistence), filter/ (the metadata filter language) and embedding/. Imports go
// rest/ -> engine/ -> filter/, storage/; it may import server/ (rest/ only), config/, storage/
// and text/, never another service. Other folders import this file only.

import { join } from 'node:path';
import { vectorIndex, type Config, type VectorIndexConfig } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import { makeDirectory, writeFileAtomic } from '../storage/atomic-file.js';
import { CorruptDataError } from '../storage/errors.js';
import { readJsonFile } from '../storage/json-file.js';
import { embedderFor } from './embedding/embedder.js';
import { indexExists, VectorError } from './errors.js';
import { VectorPersistence } from './engine/persistence.js';
import { VectorIndex } from './engine/vector-index.js';
import type { IndexAdmin } from './rest/admin.js';
import { fail } from './rest/envelope.js';
import { ResumableQueries } from './rest/resumable.js';
import { vectorRoutes, type MountedIndex } from './rest/routes.js';
import { bearerSecrets } from '../server/endpoint.js';

/** How a vector index's snapshot file is laid out, for `larder repair`. */
export { SNAPSHOT_FORMAT } from './engine/persistence.js';

export interface VectorCredentials {
  index: string;
  token: string;
  readOnlyToken: string;
}

export interface VectorService extends Service {
  readonly credentials: readonly VectorCredentials[];
}

const CREATED_FILE = 'created-indexes.json';

export function mountVector(config: Config, secrets: SecretStore, log: Logger): VectorService {
  const indexes = new Map<string, MountedIndex>();
  const persisted: VectorPersistence[] = [];
  const credentials: VectorCredentials[] = [];
  const dir = join(config.dataDir, 'vector');
  const createdPath = join(dir, CREATED_FILE);
  const created = readCreated(createdPath);

  function mount(name: string, c: VectorIndexConfig): VectorCredentials {
    const token = c.token ?? secrets.get(`vector.${name}.token`);
    const readOnlyToken = c.readOnlyToken ?? secrets.get(`vector.${name}.readOnlyToken`);
    const index = new VectorIndex({ name, type: c.type, similarity: c.similarity, dimension: c.dimension ?? null });
    const persistence = new VectorPersistence(
      index,
      { dir: join(dir, name), fsync: config.vector.fsync, compactAfterBytes: config.vector.compactAfterBytes },
      log,
    );
    persistence.open();
    persisted.push(persistence);
    indexes.set(name, { index, secrets: bearerSecrets(token, readOnlyToken), resumable: new ResumableQueries(Date.now, config.vector.maxResumableQueries), embedder: embedderFor(c) });
    const creds = { index: name, token, readOnlyToken };
    credentials.push(creds);
    return creds;
  }

  try {
    for (const [name, c] of Object.entries(config.vector.indexes)) mount(name, c);
    for (const [name, c] of Object.entries(created)) if (!indexes.has(name)) mount(name, c);
  } catch (e) {
    for (const p of persisted) p.close();
    throw e;
  }

  const admin: IndexAdmin = {
    token: config.vector.adminToken ?? secrets.get('vector.adminToken'),
    names: () => [...indexes.keys()],
    create(name, settings): VectorCredentials | VectorError {
      if (indexes.has(name)) return indexExists(name);
      makeDirectory(dir);
      writeFileAtomic(createdPath, JSON.stringify({ ...created, [name]: settings }, null, 2) + '\n');
      created[name] = settings;
      return mount(name, settings);
    },
  };

  return {
    name: 'vector',
    prefix: 'vector',
    credentials,
    handle: vectorRoutes(indexes, admin, config),
    fail: (status, text) => fail(new VectorError(status, text)),
    writeFailure() {
      for (const p of persisted) {
        const failure = p.writeFailure();
        if (failure !== null) return `vector index '${p.name}': ${failure.reason}`;
      }
      return null;
    },
    async close() {
      for (const p of persisted) p.close();
    },
  };
}

function readCreated(path: string): Record<string, VectorIndexConfig> {
  const stored = readJsonFile(path, 'fix or remove it') ?? {};
  const invalid = (why: string) => new CorruptDataError(`${path} is not a valid list of created vector indexes (${why}); fix or remove it`);
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) throw invalid('not an object');
  const out: Record<string, VectorIndexConfig> = {};
  for (const [name, raw] of Object.entries(stored)) {
    const parsed = vectorIndex.safeParse(raw);
    if (!parsed.success) throw invalid(`${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join(', ')}`);
    out[name] = parsed.data;
  }
  return out;
}

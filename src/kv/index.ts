// The key-value service: one database per configured name, mounted at /redis/<db>; embedded,
// or kept on a remote Redis (redis/).
//
// Imports run one way: rest/ (HTTP forms; reads the table's facts, runs commands through
// backend.ts) -> database.ts (embedded) and redis/ (remote) -> commands/ (table.ts, admit.ts,
// the families) -> acl/ -> commands/spec.ts (what a command is) -> engine/ (keyspace, values,
// persistence) -> argv.ts, errors.ts, reply.ts. acl/ and COMMAND are handed the table
// (CommandList) rather than importing it; the engine never sees it.
// test/architecture.test.ts finds import cycles here and engine imports of the layers above.

import { join } from 'node:path';
import type { Config, KvDatabaseConfig } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import { AclRegistry } from './acl/registry.js';
import { AclStore } from './acl/store.js';
import { COMMANDS } from './commands/table.js';
import { Database } from './database.js';
import { Persistence } from './engine/persistence.js';
import type { RedisBackend } from './redis/backend.js';
import { Limits } from './rest/limits.js';
import { kvRoutes, type KvDatabase } from './rest/routes.js';

const ACTIVE_EXPIRY_MS = 100;

/** How a key-value snapshot file is laid out, for `larder repair`. */
export { SNAPSHOT_FORMAT } from './engine/persistence.js';

export interface KvCredentials {
  db: string;
  token: string;
  readOnlyToken: string;
}

export interface KvService extends Service {
  readonly credentials: readonly KvCredentials[];
}

/** A database's two tokens: from the config, or generated once and kept in the data dir. */
function tokensOf(name: string, dbConfig: KvDatabaseConfig, secrets: SecretStore): KvCredentials {
  return {
    db: name,
    token: dbConfig.token ?? secrets.get(`kv.${name}.token`),
    readOnlyToken: dbConfig.readOnlyToken ?? secrets.get(`kv.${name}.readOnlyToken`),
  };
}

/** Generates and saves every database's tokens now, so processes started after this all read the same ones. */
export function prepareKvTokens(config: Config, secrets: SecretStore): void {
  for (const [name, dbConfig] of Object.entries(config.kv.databases)) tokensOf(name, dbConfig, secrets);
}

export async function mountKv(config: Config, secrets: SecretStore, log: Logger, runtime: string): Promise<KvService> {
  // The remote backend (ioredis) is loaded only where a database uses it: embedded ones start without it.
  const redis = Object.values(config.kv.databases).some((d) => d.engine === 'redis') ? await loadRemoteBackend() : null;
  const databases = new Map<string, KvDatabase>();
  const embedded: Database[] = [];
  const persisted: Persistence[] = [];
  const credentials: KvCredentials[] = [];
  const remote: RedisBackend[] = [];
  for (const [name, dbConfig] of Object.entries(config.kv.databases)) {
    const { token, readOnlyToken } = tokensOf(name, dbConfig, secrets);
    const dir = join(config.dataDir, 'kv', name);
    const acl = new AclRegistry(token, readOnlyToken, COMMANDS, new AclStore(join(dir, 'acl.json'), config.workers > 1));
    acl.load(dbConfig.users);
    credentials.push({ db: name, token, readOnlyToken });
    if (dbConfig.engine === 'redis') {
      const backend = new redis!.RedisBackend(acl, redis!.openRemote({ url: dbConfig.url!, tls: dbConfig.tls, maxReplyBytes: dbConfig.maxReplyBytes }, remoteLog(log, name)), dbConfig.transactionConnections, name, runtime, config.kv.maxBlockMs, token);
      remote.push(backend);
      databases.set(name, { backend, limits: new Limits(dbConfig) });
      continue;
    }
    const db = new Database(name, acl, runtime, Date.now, { timeMs: dbConfig.scriptTimeoutMs, memoryBytes: dbConfig.scriptMemoryBytes });
    db.maxBlockMs = config.kv.maxBlockMs;
    const persistence = new Persistence(
      db,
      { dir, fsync: config.kv.fsync, compactAfterBytes: config.kv.compactAfterBytes },
      log,
    );
    persistence.open();
    persisted.push(persistence);
    embedded.push(db);
    databases.set(name, { backend: db, limits: new Limits(dbConfig) });
  }
  const expiry = setInterval(() => {
    for (const db of embedded) db.expireCycle();
  }, ACTIVE_EXPIRY_MS);
  expiry.unref();

  return {
    name: 'kv',
    prefix: 'redis',
    counters: [
      {
        // Redis's total_commands_processed: each command of a pipeline or transaction counts,
        // and so does each one a script runs; refused ones (arity, ACL) do not.
        name: 'commands',
        help: 'Commands run, by key-value database.',
        label: 'database',
        read: () => embedded.map((db) => [db.dbName, db.commandsProcessed] as const),
      },
    ],
    credentials,
    writeFailure() {
      for (const p of persisted) {
        const failure = p.retryWrites();
        if (failure !== null) return `${p.owner}: ${failure.reason}`;
      }
      return null;
    },
    handle: kvRoutes(databases, config.maxBodyBytes, config.kv.streamBufferBytes),
    async close() {
      clearInterval(expiry);
      // Blocked reads (XREAD BLOCK) answer now, as timed out, so no request holds the stop up.
      await Promise.all(embedded.map((db) => db.close()));
      for (const p of persisted) p.close();
      await Promise.all(remote.map((r) => r.close()));
    },
  };
}

/** The remote backend's modules, which bring ioredis. */
async function loadRemoteBackend() {
  const [{ RedisBackend }, { openRemote }] = await Promise.all([import('./redis/backend.js'), import('./redis/connection.js')]);
  return { RedisBackend, openRemote };
}

/** Logs a remote database's connection going away and coming back, once each. */
function remoteLog(log: Logger, db: string): (event: string, err?: Error) => void {
  let last = '';
  return (event, err) => {
    if (event === last || (event !== 'ready' && event !== 'error')) return;
    last = event;
    if (event === 'ready') log.info({ db }, 'connected to the Redis backend');
    else log.warn({ db, err: err?.message }, 'cannot reach the Redis backend; reconnecting');
  };
}

// Engine postgres, assembled: the database (connect.ts, migrated), the store's op log in it
// (shared-log.ts), the events table (event-table.ts) and the generated secrets, which live in
// the op log so every process reads the same tokens and keys and sees a rotation.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ConfigError } from '../../../config/load.js';
import { newToken } from '../../../config/secrets.js';
import type { QueueConfig } from '../../../config/schema.js';
import type { Logger } from '../../../server/log.js';
import type { Secrets } from '../../signing/keys.js';
import type { QueueEvent } from '../event-log.js';
import type { QueueStore } from '../queue-store.js';
import { openQueueDatabase, withoutPassword } from './connect.js';
import { reasonOf } from './failure.js';
import { EventTable } from './event-table.js';
import { PostgresLog } from './shared-log.js';

export interface SharedQueue {
  readonly log: PostgresLog;
  readonly events: EventTable;
  /** The newest events the table holds, oldest first. */
  readonly initialEvents: QueueEvent[];
}

/** Opens the queue's database and loads `store` from it; a database Larder cannot use stops the start (ConfigError). */
export async function openSharedQueue(c: QueueConfig, store: QueueStore, logger: Logger): Promise<SharedQueue> {
  const url = c.url as string; // the config schema requires one on engine postgres
  const { sql } = await openQueueDatabase({ url, poolSize: c.poolSize, schema: c.schema, stalledWriterTimeoutMs: c.stalledWriterTimeoutMs });
  const origin = `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
  try {
    const log = await PostgresLog.open(sql, store, { schema: c.schema, origin, compactAfterBytes: c.compactAfterBytes }, logger);
    const { table, events } = await EventTable.open(sql, c.schema, origin, c.maxLogEvents, logger);
    logger.info({ schema: c.schema, origin }, 'queue on PostgreSQL');
    return { log, events: table, initialEvents: events };
  } catch (e) {
    await sql.end({ timeout: 0 });
    throw new ConfigError(`queue: cannot load from PostgreSQL at ${withoutPassword(url)}: ${reasonOf(e)}`);
  }
}

/**
 * Secrets kept in the store's op log. A missing one is made and written, which only a unit of
 * work may do: the service reads them all once in a unit at start, so they exist from then on.
 */
export function storeSecrets(store: QueueStore): Secrets {
  return {
    get(name, make) {
      let value = store.secret(name);
      if (value === undefined) {
        value = (make ?? newToken)();
        store.putSecret(name, value);
      }
      return value;
    },
    set: (name, value) => store.putSecret(name, value),
  };
}

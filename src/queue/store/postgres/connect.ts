// Opens the queue's PostgreSQL database (engine postgres): a pool of `poolSize` connections
// whose search_path is the configured schema, migrated before anything else runs. A database
// Larder cannot use at start (a wrong URL, password or database name, nobody listening) stops
// the start with one line that says which and why; once started, losing it is a fault the
// shared log rides out (shared-log.ts).

import postgres, { type Sql } from 'postgres';
import { ConfigError } from '../../../config/load.js';
import { reasonOf } from './failure.js';
import { migrate } from './migrations.js';

export interface PostgresSettings {
  url: string;
  poolSize: number;
  schema: string;
  /** PostgreSQL's idle_in_transaction_session_timeout for these connections. */
  stalledWriterTimeoutMs: number;
}

/** How long a connection attempt may take; also how long a write waits before it is refused (503). */
const CONNECT_TIMEOUT_S = 5;

export interface QueueDatabase {
  readonly sql: Sql;
  /** Versions applied by this open (empty when the schema was up to date). */
  readonly applied: readonly number[];
}

export async function openQueueDatabase(s: PostgresSettings): Promise<QueueDatabase> {
  const sql = postgres(s.url, {
    max: s.poolSize,
    connect_timeout: CONNECT_TIMEOUT_S,
    idle_timeout: 60,
    onnotice: () => undefined,
    // A process frozen inside a unit of work would hold the write lock, and stall every other
    // process, until it resumed: PostgreSQL ends such a session instead.
    connection: { application_name: 'larder', search_path: s.schema, idle_in_transaction_session_timeout: s.stalledWriterTimeoutMs },
  });
  try {
    return { sql, applied: await migrate(sql, s.schema) };
  } catch (e) {
    await sql.end({ timeout: 0 });
    throw new ConfigError(`queue: cannot use PostgreSQL at ${withoutPassword(s.url)}: ${reasonOf(e)}`);
  }
}

/** PostgreSQL's wire protocol numbers a statement's parameters in 16 bits; postgres.js refuses 65,534 and more. */
const MAX_PARAMETERS = 65_533;

/**
 * `rows` cut into runs that one multi-row INSERT each can take: a run's rows times `columns`
 * parameters stays within the protocol's limit (a cancel of 70k messages writes 70k ops).
 */
export function* insertRuns<T>(rows: readonly T[], columns: number): Generator<T[]> {
  const per = Math.floor(MAX_PARAMETERS / columns);
  for (let at = 0; at < rows.length; at += per) yield rows.slice(at, at + per);
}

/** The URL as it may be printed: the password replaced. */
export function withoutPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

// The queue engine test Larders run on. LARDER_TEST_QUEUE_BACKEND=postgres (`npm run
// test:postgres`) puts every test Larder's queue on the one PostgreSQL cluster of the run
// (postgres-run.ts starts it and names it in LARDER_TEST_POSTGRES_URL), each in a schema of its
// own. A Larder's schema is named after its data dir, so a Larder restarted on its data dir finds
// its queue again, as the embedded engine finds its files. startTestLarder drops the schema with
// the data dir; schemas of data dirs a test removes itself go with the run's cluster.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';

const BACKENDS = ['embedded', 'postgres'] as const;
export const TEST_QUEUE_BACKEND: (typeof BACKENDS)[number] =
  BACKENDS.find((b) => b === process.env.LARDER_TEST_QUEUE_BACKEND) ?? 'embedded';

export const POSTGRES_URL_ENV = 'LARDER_TEST_POSTGRES_URL';

/**
 * The skip option of the suites of test/queue/postgres/: false under `npm run test:postgres`,
 * else the reason. They run once, there, rather than also in every lane where PostgreSQL is
 * installed.
 */
export const postgresRunSkip: string | false =
  TEST_QUEUE_BACKEND === 'postgres' ? false : 'the queue engine postgres suites run under npm run test:postgres';

/** The run's cluster, as a postgres:// URL; a clear error outside `npm run test:postgres`. */
export function sharedPostgresUrl(): string {
  const url = process.env[POSTGRES_URL_ENV];
  if (url === undefined || url === '') {
    throw new Error(`${POSTGRES_URL_ENV} is not set: run the tests under node dist/test/queue/postgres/postgres-run.js (see npm run test:postgres)`);
  }
  return url;
}

/** The schema of the queue of the Larder on `dataDir`: a name PostgreSQL takes unquoted. */
export function schemaOf(dataDir: string): string {
  return `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
}

/**
 * `config` with its queue on the test queue backend: unchanged for the embedded engine, and for
 * a test that names the queue's engine or database itself (those of the PostgreSQL engine's own
 * tests, and their bad settings).
 */
export function withTestQueue(config: Record<string, unknown>, dataDir: string): Record<string, unknown> {
  const queue = (config.queue ?? {}) as Record<string, unknown>;
  if (TEST_QUEUE_BACKEND === 'embedded' || 'engine' in queue || 'url' in queue) return config;
  return { ...config, queue: { url: sharedPostgresUrl(), schema: schemaOf(dataDir), ...queue } };
}

/** Whether the queue of the Larder on `dataDir` was compacted into a snapshot: a file of the embedded engine, the `snapshot` row of the PostgreSQL engine. */
export async function queueSnapshotTaken(dataDir: string): Promise<boolean> {
  if (TEST_QUEUE_BACKEND === 'embedded') {
    const dir = join(dataDir, 'queue');
    return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('snapshot-'));
  }
  return (await query<{ upto: string }>(`select upto from ${schemaOf(dataDir)}.snapshot`)).length > 0;
}

/**
 * Where the queue keeps the events of /v2/logs, as [where, text] pairs: the embedded engine's
 * events files in <dataDir>/queue, or the rows of the PostgreSQL engine's `events` table.
 */
export async function storedEvents(dataDir: string): Promise<[string, string][]> {
  if (TEST_QUEUE_BACKEND === 'embedded') {
    const dir = join(dataDir, 'queue');
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('events')) : [];
    return files.map((f) => [f, readFileSync(join(dir, f), 'latin1')]);
  }
  const rows = await query<{ seq: string; text: string }>(`select seq, convert_from(payload, 'UTF8') as text from ${schemaOf(dataDir)}.events order by seq`);
  return rows.map((r) => [`events row ${r.seq}`, r.text]);
}

/** Drops the queue schema of `dataDir` (nothing for the embedded engine, whose queue is in the dir). */
export async function dropTestQueue(dataDir: string): Promise<void> {
  if (TEST_QUEUE_BACKEND === 'postgres') await query(`drop schema if exists ${schemaOf(dataDir)} cascade`);
}

/** Runs one statement on the run's cluster, on a connection of its own. */
async function query<Row extends object>(text: string): Promise<Row[]> {
  const sql = postgres(sharedPostgresUrl(), { max: 1, onnotice: () => {} });
  try {
    return await sql.unsafe<Row[]>(text);
  } finally {
    await sql.end();
  }
}

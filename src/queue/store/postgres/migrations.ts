// The queue's tables in PostgreSQL, as numbered migrations. Each runs once, in order, in one
// transaction with its row in `schema_migrations`; all of them under an advisory lock on the
// schema's name, so processes starting together apply each once and wait for each other. A
// database migrated by a newer Larder (a version this one does not know) stops the start.
//
//   ops       the queue's op log (store/ops.ts records, JSON): every change, in commit order
//             (`seq`), since the snapshot. Written only under the write lock (shared-log.ts).
//   snapshot  one row: the state as ops up to and including op `upto`.
//   events    the events of /v2/logs, `origin` the process that wrote each.

import type { Sql } from 'postgres';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'op log, snapshot and events',
    sql: `
      create table ops (seq bigserial primary key, payload bytea not null);
      create table snapshot (one boolean primary key default true check (one), upto bigint not null, payload bytea not null);
      create table events (seq bigserial primary key, origin text not null, payload bytea not null);
    `,
  },
];

/** Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)); the second is hashtext(schema). */
export const LOCK = { migrations: 0x4c41_5201, writes: 0x4c41_5202, events: 0x4c41_5203 } as const;

/** Brings `schema` (made if absent) to the latest version; answers the versions it applied. */
export async function migrate(sql: Sql, schema: string): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK.migrations}, hashtext(${schema}))`;
    await tx`create schema if not exists ${tx(schema)}`;
    await tx`set local search_path to ${tx(schema)}`;
    await tx`create table if not exists schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`;
    const done = new Set((await tx<{ version: number }[]>`select version from schema_migrations`).map((r) => r.version));
    const newest = MIGRATIONS[MIGRATIONS.length - 1].version;
    const unknown = [...done].filter((v) => v > newest);
    if (unknown.length > 0) throw new Error(`schema ${schema} is at version ${Math.max(...unknown)}, made by a newer Larder (this one knows up to ${newest})`);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
    return applied;
  });
}

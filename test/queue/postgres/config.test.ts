// Engine postgres as users configure it: a database Larder cannot use stops `larder start` with
// one line (exit 2), by config file, LARDER_QUEUE_BACKEND or --queue-backend; `larder migrate`
// applies the schema and says so; two processes starting on a new schema together apply each
// migration once.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { freePort } from '../../support/free-port.js';
import { launchLarder, runLarderCli, spawnLarder, type CliRun, type LarderProcess } from '../../support/larder-process.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres.js';

const root = mkdtempSync(join(tmpdir(), 'larder-pg-config-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Waits for a start that must fail; answers its stderr, checked to be one line. */
async function refused(p: LarderProcess): Promise<string> {
  const exit = await p.exited;
  assert.equal(exit.code, 2, p.stderr());
  const text = p.stderr().trim();
  assert.equal(text.split('\n').length, 1, text);
  assert.match(text, /^larder: /);
  return text;
}

async function migrate(args: string[]): Promise<CliRun> {
  const run = await runLarderCli(['migrate', ...args]);
  return { code: run.code, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

describe('engine postgres: configuration', { skip: postgresRunSkip }, () => {
  let pg: PostgresCluster;
  before(async () => {
    pg = await startPostgres();
  });
  after(() => pg?.stop());

  it('a wrong password stops the start with one line that hides the password', async () => {
    const url = pg.url().replace(pg.password, 'not-the-password');
    const text = await refused(launchLarder({ dataDir: join(root, 'pw'), config: { queue: { url } } }));
    assert.match(text, /cannot use PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres: password authentication failed for user "postgres"$/);
    assert.doesNotMatch(text, /not-the-password/);
  });

  it('a missing database stops the start (LARDER_QUEUE_BACKEND)', async () => {
    const text = await refused(launchLarder({ dataDir: join(root, 'db'), env: { LARDER_QUEUE_BACKEND: pg.url('no_such_db') } }));
    assert.match(text, /database "no_such_db" does not exist$/);
  });

  it('nobody listening stops the start (--queue-backend)', async () => {
    const url = `postgres://postgres:x@127.0.0.1:${await freePort()}/postgres`;
    const text = await refused(launchLarder({ dataDir: join(root, 'port'), flags: ['--queue-backend', url] }));
    assert.match(text, /ECONNREFUSED/);
  });

  it('a URL that is not postgres:// is refused as a setting', async () => {
    const p = launchLarder({ dataDir: join(root, 'url'), config: { queue: { url: 'mysql://127.0.0.1/x' } } });
    assert.equal((await p.exited).code, 2);
    assert.match(p.stderr(), /queue\.url: a postgres:\/\/ or postgresql:\/\/ URL/);
    const q = launchLarder({ dataDir: join(root, 'engine'), config: { queue: { engine: 'postgres' } } });
    assert.equal((await q.exited).code, 2);
    assert.match(q.stderr(), /queue\.url: engine postgres needs a url/);
  });

  it('larder migrate applies the schema once; a second run finds it up to date', async () => {
    const first = await migrate(['--queue-backend', pg.url()]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^queue: applied migration 1 to schema larder at postgres:\/\/postgres:\*\*\*@/);
    const second = await migrate(['--queue-backend', pg.url()]);
    assert.match(second.stdout, /^queue: schema larder at .* is up to date$/);
    const embedded = await migrate([]);
    assert.equal(embedded.code, 2);
    assert.match(embedded.stderr, /the queue is on the embedded engine: there is nothing to migrate/);
  });

  it('two processes starting together on a new schema apply each migration once and share the tokens', async () => {
    const config = { queue: { url: pg.url(), schema: 'together' } };
    const [a, b] = await Promise.all([spawnLarder({ dataDir: join(root, 'a'), config }), spawnLarder({ dataDir: join(root, 'b'), config })]);
    try {
      assert.equal(a.info.queue.token, b.info.queue.token);
      assert.equal(a.info.queue.currentSigningKey, b.info.queue.currentSigningKey);
      const sql = postgres(pg.url(), { onnotice: () => undefined });
      try {
        const rows = await sql`select version from together.schema_migrations order by version`;
        assert.deepEqual(rows.map((r) => r.version), [1]);
      } finally {
        await sql.end();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

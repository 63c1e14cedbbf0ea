// Starts a throwaway PostgreSQL cluster for tests, the way users start one: initdb and pg_ctl
// (as the `postgres` user when the tests run as root, which PostgreSQL refuses to run as) in a
// temporary directory, listening on a free port of 127.0.0.1 only, with password
// authentication, so a test can also connect with a wrong password. fsync is off: a test
// cluster never outlives a power loss.
//
// The binaries come from LARDER_TEST_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin
// (Debian's `postgresql` package). `findPostgres()` answers undefined when there is none.

import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface PostgresCluster {
  readonly port: number;
  /** The superuser's password (user `postgres`). */
  readonly password: string;
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> (`postgres` when not named). */
  url(database?: string): string;
  /** Makes a database (the cluster starts with `postgres` only). */
  createDatabase(name: string): Promise<void>;
  /** Stops the server, keeping its data (`mode` as pg_ctl's: fast closes connections, immediate is a crash). */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port, after halt(). */
  resume(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function findPostgres(): string | undefined {
  const given = process.env.LARDER_TEST_PG_BIN;
  if (given !== undefined) return existsSync(join(given, 'pg_ctl')) ? given : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0], 'bin');
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL tool, as the `postgres` user when we are root. */
async function tool(bin: string, name: string, args: readonly string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), [...args]];
  await run(file, argv, { timeout: 60_000 });
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = findPostgres();
  if (bin === undefined) throw new Error('PostgreSQL is not installed (apt-get install postgresql, or set LARDER_TEST_PG_BIN)');
  const dir = mkdtempSync(join(tmpdir(), 'larder-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, password + '\n');
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  await tool(bin, 'initdb', ['-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => tool(bin, 'pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start']);
  const halt = (mode: 'fast' | 'immediate' = 'fast') => tool(bin, 'pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  await start();
  let running = true;
  const url = (database = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    port,
    password,
    url,
    async createDatabase(name) {
      await tool(bin, 'createdb', ['-h', dir, '-p', String(port), '-U', 'postgres', name]);
    },
    async halt(mode) {
      await halt(mode);
      running = false;
    },
    async resume() {
      await start();
      running = true;
    },
    async stop() {
      if (running) await halt('fast').catch(() => halt('immediate'));
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let ids: { uid: number; gid: number } | undefined;

function postgresIds(): { uid: number; gid: number } {
  if (ids !== undefined) return ids;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (line === undefined) throw new Error('there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  ids = { uid: Number(uid), gid: Number(gid) };
  return ids;
}

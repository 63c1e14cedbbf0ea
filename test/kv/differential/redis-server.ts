// Starts a throwaway redis-server on 127.0.0.1, on a free port, with persistence off, as the
// oracle for the differential tests.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../support/free-port.js';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { RespClient } from './resp-client.js';

export interface RedisServer {
  readonly port: number;
  readonly client: RespClient;
  stop(): Promise<void>;
}

/** The redis-server executable on PATH, or undefined. */
export function findRedisServer(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, 'redis-server');
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connects once the server listens; undefined if it exited first (e.g. the port was taken). */
async function connectWhenReady(proc: ChildProcess, port: number): Promise<RespClient | undefined> {
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) return undefined;
    try {
      const client = await RespClient.open(port);
      if ((await client.call(['PING'])) === '+PONG\r\n') return client;
      client.close();
    } catch {
      // not listening yet
    }
    await delay(50);
  }
  return undefined;
}

export interface RedisServerOptions {
  /** A given port (restarting a server where it was); a free one when absent. */
  port?: number;
  /** More redis-server arguments (--cluster-enabled yes ...). */
  args?: readonly string[];
}

/** As docs/configuration.md asks of a server behind Larder, so that the remote lanes can RESTORE. */
const SAFE_RESTORE = ['--sanitize-dump-payload', 'yes'];

export async function startRedisServer(bin: string, opts: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'larder-diff-redis-'));
  // The probed port can be taken before redis binds it; try a few.
  for (let attempt = 0; attempt < (opts.port === undefined ? 5 : 1); attempt++) {
    const port = opts.port ?? (await freePort());
    const proc = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning', ...SAFE_RESTORE, ...(opts.args ?? [])],
      { stdio: 'ignore' },
    );
    const client = await connectWhenReady(proc, port);
    if (client === undefined) {
      proc.kill('SIGKILL');
      continue;
    }
    return {
      port,
      client,
      async stop() {
        client.close();
        if (proc.exitCode === null) {
          const exited = new Promise((r) => proc.once('exit', r));
          proc.kill('SIGTERM');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`redis-server (${bin}) did not start on 127.0.0.1`);
}

// Runs `larder start` as a child process on Node or Bun (the lane's TEST_RUNTIME unless a test
// names one), for tests that need a real process: SIGKILL and restart, signals, what the server
// prints, and the SDK suite served by Bun; and the other `larder` commands to their end. The
// config is written as a JSON file and passed with --config; the port is 0 and the real one
// is read from the "Larder listening on" line, the credentials from the env lines after it.
// Its queue runs on the test queue backend (queue-backend.ts).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withTestQueue } from './queue-backend.js';

export type Runtime = 'node' | 'bun';

/** The runtime a test's Larder processes run on: LARDER_TEST_RUNTIME, node when unset. */
export const TEST_RUNTIME: Runtime = process.env.LARDER_TEST_RUNTIME === 'bun' ? 'bun' : 'node';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** bin/larder.js, the `larder` command line. */
export const LAUNCHER = join(ROOT, 'bin', 'larder.js');
const EXECUTABLE: Record<Runtime, string> = { node: process.execPath, bun: join(ROOT, 'node_modules', '.bin', 'bun') };
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export interface DatabaseCredentials {
  readonly url: string;
  readonly token: string;
  readonly readOnlyToken: string;
}

/** A stream cluster's REST URL and Basic credentials. */
export interface ClusterCredentials {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export interface Ready {
  readonly url: string;
  readonly runtime: Runtime;
  /** Credentials by database name, from the printed env lines. */
  readonly databases: ReadonlyMap<string, DatabaseCredentials>;
  /** Stream cluster credentials by cluster name, from the printed env lines. */
  readonly clusters: ReadonlyMap<string, ClusterCredentials>;
  /** Credentials by vector index name, from the printed env lines. */
  readonly indexes: ReadonlyMap<string, DatabaseCredentials>;
  /** The message queue's URL, tokens and signing keys, from the printed env lines. */
  readonly queue: QueueCredentials;
  /** The admin token (LARDER_ADMIN_TOKEN), printed before every service's lines. */
  readonly adminToken: string;
  /** The read-only admin token (LARDER_ADMIN_READ_ONLY_TOKEN) of the read-only console. */
  readonly adminReadOnlyToken: string;
}

export interface QueueCredentials {
  readonly url: string;
  readonly token: string;
  readonly readOnlyToken: string;
  readonly currentSigningKey: string;
  readonly nextSigningKey: string;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface LarderProcess {
  readonly child: ChildProcess;
  /** Resolves once every database's env lines are printed; rejects if the process exits first. */
  readonly ready: Promise<Ready>;
  readonly exited: Promise<Exit>;
  /** Everything the process wrote to stderr so far (its log lines, or its error). */
  stderr(): string;
  /** The lines it printed on stdout so far (the listening line and the env lines). */
  stdout(): readonly string[];
  /** Sends `signal` without waiting; `exited` then keeps this process alive until the child is gone. */
  kill(signal: NodeJS.Signals): void;
  /** Sends `signal` and waits for the exit; a process that outlives the timeout is killed and the call throws. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface LaunchOptions {
  /** TEST_RUNTIME when not given. */
  runtime?: Runtime;
  /** Settings as in a config file; host, port 0 and dataDir are filled in. */
  config?: Record<string, unknown>;
  dataDir: string;
  /** More command-line flags after `start --config FILE`. */
  flags?: string[];
  /** Environment variables added to this process's. */
  env?: Record<string, string>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the `larder` command line with `args` to its end on TEST_RUNTIME, in `cwd` (the repo by default). */
export function runLarderCli(args: string[], cwd = ROOT): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(EXECUTABLE[TEST_RUNTIME], [LAUNCHER, ...args], { cwd }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? 1), stdout, stderr }),
    );
  });
}

/** Starts the process without waiting; see `ready` and `exited`. */
export function launchLarder(opts: LaunchOptions): LarderProcess {
  const runtime = opts.runtime ?? TEST_RUNTIME;
  const config = { host: '127.0.0.1', port: 0, logLevel: 'warn', ...withTestQueue(opts.config ?? {}, opts.dataDir), dataDir: opts.dataDir };
  const configDir = mkdtempSync(join(tmpdir(), 'larder-config-'));
  const configFile = join(configDir, 'larder.json');
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawn(EXECUTABLE[runtime], [LAUNCHER, 'start', '--config', configFile, ...(opts.flags ?? [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env },
  });
  live.add(child);
  let stderr = '';
  const stdout: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      live.delete(child);
      rmSync(configDir, { recursive: true, force: true });
      resolve({ code, signal });
    });
  });
  const names = Object.keys((config as { kv?: { databases?: object } }).kv?.databases ?? { default: {} });
  // Several workers serve the key-value service alone (cli/workers.ts).
  const kvOnly = ((config as { workers?: number }).workers ?? 1) > 1 || (opts.flags ?? []).includes('--workers');
  const clusterNames = kvOnly ? [] : Object.keys((config as { streams?: { clusters?: object } }).streams?.clusters ?? { default: {} });
  const indexNames = kvOnly ? [] : vectorIndexNames(config, opts.flags ?? []);
  const ready = new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`larder did not start in ${READY_TIMEOUT_MS} ms\n${stderr}`)), READY_TIMEOUT_MS);
    const fail = (exit: Exit) => {
      clearTimeout(timer);
      reject(new Error(`larder exited (${exit.code ?? exit.signal}) before it was ready\n${stderr}`));
    };
    void exited.then(fail);
    const found = new Map<string, Partial<Record<'url' | 'token' | 'readOnlyToken', string>>>();
    let url: string | undefined;
    let serving: Runtime | undefined;
    let db: string | undefined;
    const printed = new Set<string>();
    const clusters = new Map<string, Partial<Record<'url' | 'username' | 'password', string>>>();
    let cluster: string | undefined;
    const indexes = new Map<string, Partial<Record<'url' | 'token' | 'readOnlyToken', string>>>();
    let index: string | undefined;
    const queue: Record<string, string> = {};
    let adminToken = '';
    let adminReadOnlyToken = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      const listening = /^Larder listening on (http:\/\/\S+) \((node|bun)\)$/.exec(line);
      const section = /^# key-value database '(.+)'$/.exec(line);
      const env = /^UPSTASH_REDIS_REST_(URL|TOKEN|READ_ONLY_TOKEN)(?:_[A-Z0-9_]+)?=(.*)$/.exec(line);
      const clusterSection = /^# stream cluster '(.+)'$/.exec(line);
      const kafka = /^UPSTASH_KAFKA_REST_(URL|USERNAME|PASSWORD)(?:_[A-Z0-9_]+)?=(.*)$/.exec(line);
      const vectorSection = /^# vector index '(.+)'$/.exec(line);
      const vectorEnv = /^(?:[A-Z0-9_]+_)?UPSTASH_VECTOR_REST_(URL|TOKEN|READONLY_TOKEN)=(.*)$/.exec(line);
      if (line.startsWith('LARDER_ADMIN_TOKEN=')) adminToken = line.slice('LARDER_ADMIN_TOKEN='.length);
      if (line.startsWith('LARDER_ADMIN_READ_ONLY_TOKEN=')) adminReadOnlyToken = line.slice('LARDER_ADMIN_READ_ONLY_TOKEN='.length);
      if (vectorSection !== null) indexes.set((index = vectorSection[1]), {});
      else if (vectorEnv !== null && index !== undefined) {
        indexes.get(index)![vectorEnv[1] === 'URL' ? 'url' : vectorEnv[1] === 'TOKEN' ? 'token' : 'readOnlyToken'] = vectorEnv[2];
      }
      const qstash = /^QSTASH_(URL|TOKEN|CURRENT_SIGNING_KEY|NEXT_SIGNING_KEY|READ_ONLY_TOKEN)=(.*)$/.exec(line);
      if (qstash !== null) queue[qstash[1]] = qstash[2];
      if (clusterSection !== null) clusters.set((cluster = clusterSection[1]), {});
      else if (kafka !== null && cluster !== undefined) {
        clusters.get(cluster)![kafka[1] === 'URL' ? 'url' : kafka[1] === 'USERNAME' ? 'username' : 'password'] = kafka[2];
      }
      if (listening !== null) {
        url = listening[1];
        serving = listening[2] as Runtime;
      } else if (section !== null) found.set((db = section[1]), {});
      else if (env !== null && db !== undefined) {
        found.get(db)![env[1] === 'URL' ? 'url' : env[1] === 'TOKEN' ? 'token' : 'readOnlyToken'] = env[2];
      }
      // KV_REST_API_READ_ONLY_TOKEN is the last line of a database's section (cli/env-lines.ts).
      if (db !== undefined && line.startsWith('KV_REST_API_READ_ONLY_TOKEN')) printed.add(db);
      // UPSTASH_KAFKA_REST_PASSWORD is the last line of a cluster's section.
      if (cluster !== undefined && line.startsWith('UPSTASH_KAFKA_REST_PASSWORD')) printed.add(`cluster ${cluster}`);
      const complete =
        names.every((n) => printed.has(n)) &&
        clusterNames.every((n) => printed.has(`cluster ${n}`)) &&
        // UPSTASH_VECTOR_REST_READONLY_TOKEN is the last line of an index's section.
        indexNames.every((n) => indexes.get(n)?.readOnlyToken !== undefined) &&
        // QSTASH_READ_ONLY_TOKEN is the last line of the queue's section.
        (kvOnly || queue.READ_ONLY_TOKEN !== undefined);
      if (url === undefined || serving === undefined || !complete) return;
      clearTimeout(timer);
      // A test that forgets to stop its server must not keep the runner alive; `exit` kills it.
      holdRunner(child, false);
      resolve({
        url,
        runtime: serving,
        databases: found as Map<string, DatabaseCredentials>,
        clusters: clusters as Map<string, ClusterCredentials>,
        indexes: indexes as Map<string, DatabaseCredentials>,
        queue: {
          url: queue.URL,
          token: queue.TOKEN,
          readOnlyToken: queue.READ_ONLY_TOKEN,
          currentSigningKey: queue.CURRENT_SIGNING_KEY,
          nextSigningKey: queue.NEXT_SIGNING_KEY,
        },
        adminToken,
        adminReadOnlyToken,
      });
    });
  });
  ready.catch(() => child.kill('SIGKILL'));
  const kill = (signal: NodeJS.Signals) => {
    holdRunner(child, true);
    child.kill(signal);
  };
  return {
    child,
    ready,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
    kill,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`larder did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}\n${stderr}`));
        }, STOP_TIMEOUT_MS);
      });
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The vector indexes the process will print: `--vector-index` flags, else the config's, else `default`. */
function vectorIndexNames(config: Record<string, unknown>, flags: readonly string[]): string[] {
  const fromFlags = flags.flatMap((f, i) => (flags[i - 1] === '--vector-index' ? [f.split(':')[0]] : []));
  if (fromFlags.length > 0) return fromFlags;
  return Object.keys((config as { vector?: { indexes?: object } }).vector?.indexes ?? { default: {} });
}

/** Whether the child and its pipes keep this (the test) process alive. */
function holdRunner(child: ChildProcess, hold: boolean): void {
  for (const h of [child, child.stdout as unknown as Socket, child.stderr as unknown as Socket]) {
    if (hold) h.ref();
    else h.unref();
  }
}

/** Starts the process and waits until it serves. */
export async function spawnLarder(opts: LaunchOptions): Promise<LarderProcess & { readonly info: Ready }> {
  const p = launchLarder(opts);
  return { ...p, info: await p.ready };
}

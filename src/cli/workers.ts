// `larder start --workers N`: N processes serve one port, so a gateway in front of a remote
// Redis uses every core. The primary only forks, relays signals and prints the env lines once;
// each worker is a whole Larder. On Node the workers share the primary's socket (node:cluster);
// on Bun each binds the port itself with SO_REUSEPORT and the kernel spreads the connections.
// Either way a worker asks the primary which port to listen on. On Node that is the configured
// one (node:cluster keys the shared socket by it: port 0 is one free port for them all); on Bun
// the first worker is given the configured one (0 picks a free port), the others, and any
// worker started in place of one that exited, the port the first listens on. Every key-value database must be on engine
// redis: an embedded database lives in one process. Tokens are generated before forking so
// every worker reads the same ones; ACL users changed at run time are shared through acl.json
// (kv/acl/store.ts).
// Workers serve the key-value service only: the embedded stream topics and vector indexes keep
// their data in one process's files.

import cluster, { type Worker } from 'node:cluster';
import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { SecretStore } from '../config/secrets.js';
import { prepareKvTokens, type KvCredentials } from '../kv/index.js';
import type { Larder } from '../larder.js';
import { makeDirectory } from '../storage/atomic-file.js';
import { envLines } from './env-lines.js';

/** What a worker tells the primary once it listens. */
interface Listening {
  readonly kind: 'listening';
  readonly port: number;
  readonly url: string;
  readonly runtime: string;
  readonly kv: readonly KvCredentials[];
  readonly adminToken: string;
  readonly adminReadOnlyToken: string;
}

/** A worker's question before it listens, and the primary's answer. */
interface PortQuestion {
  readonly kind: 'port?';
}
interface PortAnswer {
  readonly kind: 'port';
  readonly port: number;
}

export const isWorker = () => cluster.isWorker;

/** Bun's workers bind the port themselves (SO_REUSEPORT); Node's share the primary's socket. */
const bindsItself = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/** In a worker: the port to listen on, from the primary. */
export function portFromPrimary(): Promise<number> {
  return new Promise((resolve) => {
    const answered = (m: PortAnswer) => {
      if (m.kind !== 'port') return;
      process.off('message', answered);
      resolve(m.port);
    };
    process.on('message', answered);
    const ask: PortQuestion = { kind: 'port?' };
    process.send!(ask);
  });
}

/** In a worker: tells the primary where it listens. */
export function reportListening(larder: Larder): void {
  const msg: Listening = {
    kind: 'listening',
    port: larder.port,
    url: larder.url,
    runtime: larder.runtime,
    kv: larder.kv,
    adminToken: larder.adminToken,
    adminReadOnlyToken: larder.adminReadOnlyToken,
  };
  process.send!(msg);
}

/** In the primary: forks the workers, prints the env lines once they all listen, and stops them on a signal. */
export async function runPrimary(config: Config): Promise<void> {
  const embedded = Object.entries(config.kv.databases).filter(([, db]) => db.engine !== 'redis');
  if (embedded.length > 0) {
    throw new ConfigError(`--workers needs every key-value database on engine redis; '${embedded[0][0]}' is embedded`);
  }
  makeDirectory(config.dataDir);
  const secrets = new SecretStore(config.dataDir);
  prepareKvTokens(config, secrets);
  if (config.adminToken === undefined) secrets.get('adminToken');
  if (config.adminReadOnlyToken === undefined) secrets.get('adminReadOnlyToken');

  let stopping = false;
  // The configured port; on Bun, once the first worker listens, the port it listens on.
  let port = config.port;
  const workers = new Set<Worker>();
  const fork = () => {
    const w = cluster.fork();
    workers.add(w);
    w.on('message', (m: PortQuestion | Listening) => {
      if (m.kind === 'port?') w.send({ kind: 'port', port } satisfies PortAnswer);
    });
    w.on('exit', (code, signal) => {
      workers.delete(w);
      if (stopping) {
        if (workers.size === 0) process.exit(0);
        return;
      }
      console.error(`larder: worker ${w.process.pid} exited (${code ?? signal}); starting another`);
      fork();
    });
    return w;
  };
  const listening = (w: Worker) =>
    new Promise<Listening>((resolve, reject) => {
      const heard = (m: PortQuestion | Listening) => {
        if (m.kind !== 'listening') return;
        w.off('message', heard);
        resolve(m);
      };
      w.on('message', heard);
      w.once('exit', (code) => reject(new Error(`a worker exited with ${code} before listening`)));
    });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of workers) w.process.kill('SIGTERM');
    if (workers.size === 0) process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const first = await listening(fork());
  if (bindsItself) port = first.port;
  await Promise.all(Array.from({ length: config.workers - 1 }, () => listening(fork())));
  console.log(`Larder workers: ${config.workers}`);
  console.log(`Larder listening on ${first.url} (${first.runtime})`);
  for (const line of envLines({ ...first, streams: [], vector: [], queue: null })) console.log(line);
}

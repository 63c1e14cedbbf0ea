// `larder start --workers N`: N processes serve one port through node:cluster, so a gateway in
// front of a remote Redis uses every core. The primary only forks, relays signals and prints
// the env lines once; each worker is a whole Larder. Node runtime only (Bun's node:cluster
// does not share a listening port), and every key-value database must be on engine redis:
// an embedded database lives in one process. Tokens are generated before forking so every
// worker reads the same ones; ACL users changed at run time (ACL SETUSER) live in the worker
// that ran the command: declare users in the config when running several workers. Workers
// serve the key-value service only: the embedded stream topics and vector indexes keep their
// data in one process's files.

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
  readonly url: string;
  readonly kv: readonly KvCredentials[];
  readonly adminToken: string;
  readonly adminReadOnlyToken: string;
}

export const isWorker = () => cluster.isWorker;

/** In a worker: tells the primary where it listens. */
export function reportListening(larder: Larder): void {
  const msg: Listening = { url: larder.url, kv: larder.kv, adminToken: larder.adminToken, adminReadOnlyToken: larder.adminReadOnlyToken };
  process.send!(msg);
}

/** In the primary: forks the workers, prints the env lines once they all listen, and stops them on a signal. */
export async function runPrimary(config: Config): Promise<void> {
  if (typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' || config.runtime === 'bun') {
    throw new ConfigError('--workers needs the Node runtime (node bin/larder.js start)');
  }
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
  const workers = new Set<Worker>();
  const fork = () => {
    const w = cluster.fork();
    workers.add(w);
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
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of workers) w.process.kill('SIGTERM');
    if (workers.size === 0) process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const ready = await Promise.all(
    Array.from({ length: config.workers }, () => {
      const w = fork();
      return new Promise<Listening>((resolve, reject) => {
        w.once('message', (m: Listening) => resolve(m));
        w.once('exit', (code) => reject(new Error(`a worker exited with ${code} before listening`)));
      });
    }),
  );
  console.log(`Larder workers: ${config.workers}`);
  console.log(`Larder listening on ${ready[0].url} (node)`);
  for (const line of envLines({ ...ready[0], streams: [], vector: [], queue: null })) console.log(line);
}

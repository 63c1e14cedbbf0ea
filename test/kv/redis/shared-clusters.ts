// Redis Clusters shared by the test processes of one `npm run test:cluster` run, so the run
// starts a few Clusters (about 2 s each) rather than one per test Larder. cluster-run.ts starts
// one per test file running at once and describes them in LARDER_TEST_REDIS_CLUSTERS; each test
// process claims one for its whole life with a lock file (created exclusively, holding its pid,
// removed when it exits; one whose process is gone is free). A process empties its Cluster
// whenever a test Larder starts with no other of its Larders running, as a fresh redis-server
// would be for the standalone run.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RespClient } from '../differential/resp-client.js';

export const SHARED_CLUSTERS_ENV = 'LARDER_TEST_REDIS_CLUSTERS';

/** What the runner passes to the test processes (as JSON). */
export interface ClusterPool {
  /** Directory of the lock files, one per Cluster, named by its index. */
  readonly locks: string;
  /** The master ports of each Cluster. */
  readonly clusters: readonly (readonly number[])[];
}

export interface SharedCluster {
  /** `redis+cluster://` URL naming two of the masters as seeds. */
  readonly url: string;
  /** Empties every master: keys, scripts and functions. */
  flush(): Promise<void>;
}

export const clusterUrl = (ports: readonly number[]) => `redis+cluster://${ports.slice(0, 2).map((p) => `127.0.0.1:${p}`).join(',')}`;

let claimed: Promise<SharedCluster> | undefined;

/** This process' Cluster of the run, claimed on first use; undefined outside `test:cluster`. */
export function sharedCluster(): Promise<SharedCluster> | undefined {
  const raw = process.env[SHARED_CLUSTERS_ENV];
  if (raw === undefined || raw === '') return undefined;
  return (claimed ??= claim(JSON.parse(raw) as ClusterPool));
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function claim(pool: ClusterPool): Promise<SharedCluster> {
  // The runner never runs more files at once than it has Clusters, but the process that ran
  // the last file may still be exiting.
  for (let attempt = 0; attempt < 300; attempt++) {
    for (let i = 0; i < pool.clusters.length; i++) {
      const lock = join(pool.locks, String(i));
      if (!tryLock(lock)) continue;
      process.once('exit', () => rmSync(lock, { force: true }));
      const ports = pool.clusters[i];
      return { url: clusterUrl(ports), flush: () => flush(ports) };
    }
    await delay(100);
  }
  throw new Error(`no Redis Cluster of ${pool.locks} came free`);
}

function tryLock(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const holder = Number(readFileSync(path, 'latin1'));
  try {
    process.kill(holder, 0);
  } catch {
    rmSync(path, { force: true }); // its process is gone: free from the next attempt on
  }
  return false;
}

async function flush(ports: readonly number[]): Promise<void> {
  await Promise.all(
    ports.map(async (port) => {
      const client = await RespClient.open(port);
      try {
        for (const argv of [['FLUSHALL'], ['SCRIPT', 'FLUSH'], ['FUNCTION', 'FLUSH']]) {
          const reply = await client.call(argv);
          if (reply !== '+OK\r\n') throw new Error(`${argv.join(' ')} on 127.0.0.1:${port} answered ${reply.trim()}`);
        }
      } finally {
        client.close();
      }
    }),
  );
}

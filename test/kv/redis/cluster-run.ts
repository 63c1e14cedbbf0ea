// `npm run test:cluster`: `cluster-run.js N COMMAND...` runs the command (the key-value test
// files under node --test) with N throwaway 3-master Redis Clusters, started before and stopped
// after, which its test processes share (shared-clusters.ts): N is the number of test files
// run at once. Without arguments it does nothing: `node --test dist/test/` runs every file
// below it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer } from '../differential/redis-server.js';
import { startRedisCluster, type RedisCluster } from './redis-cluster.js';
import { SHARED_CLUSTERS_ENV, type ClusterPool } from './shared-clusters.js';

async function main(count: number, command: string[]): Promise<number> {
  const bin = findRedisServer();
  if (bin === undefined) throw new Error('test:cluster needs redis-server and redis-cli on PATH');
  const locks = mkdtempSync(join(tmpdir(), 'larder-clusters-'));
  const clusters: RedisCluster[] = [];
  try {
    // All settle before a failure is thrown, so the finally block stops every one started.
    const started = await Promise.allSettled(Array.from({ length: count }, () => startRedisCluster(bin)));
    for (const s of started) if (s.status === 'fulfilled') clusters.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const pool: ClusterPool = { locks, clusters: clusters.map((c) => c.nodes.map((n) => n.port)) };
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, [SHARED_CLUSTERS_ENV]: JSON.stringify(pool) } });
    // Interrupted, the tests stop first and the Clusters after them, rather than outliving the run.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return await new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128))));
  } finally {
    await Promise.all(clusters.map((c) => c.stop()));
    rmSync(locks, { recursive: true, force: true });
  }
}

const [count, ...command] = process.argv.slice(2);
if (command.length > 0) process.exitCode = await main(Number(count), command);

// A throwaway 3-master Redis Cluster on 127.0.0.1: three redis-server processes with
// --cluster-enabled, joined by `redis-cli --cluster create`, for the Cluster tests.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before } from 'node:test';
import { standIn, startTestLarder, type KvClient, type TestLarder } from '../../support/larder.js';
import { startRedisServer, type RedisServer } from '../differential/redis-server.js';

const run = promisify(execFile);
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** `redis+cluster://` URL naming two of the nodes as seeds. */
  readonly url: string;
  /** Runs redis-cli against the first node and answers its output. */
  cli(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startRedisCluster(bin: string): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      nodes.push(await startRedisServer(bin, { args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000'] }));
    }
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    // Every node must see every slot served before clients are told about the cluster.
    for (const n of nodes) {
      for (let i = 0; i < 100; i++) {
        const info = await n.client.call(['CLUSTER', 'INFO']);
        if (info.includes('cluster_state:ok') && info.includes('cluster_slots_ok:16384')) break;
        await delay(100);
      }
    }
    return {
      nodes,
      url: `redis+cluster://${addresses[0]},${addresses[1]}`,
      async cli(...args) {
        return (await run('redis-cli', ['-p', String(nodes[0].port), ...args])).stdout;
      },
      async stop() {
        await Promise.all(nodes.map((n) => n.stop()));
      },
    };
  } catch (e) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw e;
  }
}

/** For one suite: a real Redis Cluster, and a Larder whose database `remote` (`db`) is on it. */
export function suiteOnCluster(bin: string): { cluster: RedisCluster; t: TestLarder; db: KvClient } {
  let cluster: RedisCluster | undefined;
  let t: TestLarder | undefined;
  before(async () => {
    cluster = await startRedisCluster(bin);
    t = await startTestLarder({ kv: { databases: { default: {}, remote: { url: cluster.url } } } });
  });
  after(async () => {
    await t?.close();
    await cluster?.stop();
  });
  return { cluster: standIn(() => cluster), t: standIn(() => t), db: standIn(() => t?.database('remote')) };
}

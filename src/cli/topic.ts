// `larder topic create NAME [--partitions N] [--retention-ms MS] [--retention-bytes B]
// [--cluster C] [--url URL]` plus the start command's `--config`, `--host`, `--port` and
// `--data-dir`: asks the running server, through the cluster's admin endpoint, to create
// the topic. The credentials come from the config or the data dir's generated secrets, as
// the server takes them.

import { ConfigError, loadConfig } from '../config/load.js';
import type { StreamClusterConfig } from '../config/schema.js';
import { SecretStore } from '../config/secrets.js';
import { badName } from '../storage/names.js';
import { parseFlags } from './flags.js';

export const TOPIC_USAGE = `usage: larder topic create NAME [--partitions N] [--retention-ms MS] [--retention-bytes B]
                    [--cluster NAME] [--url http://HOST:PORT] [--config FILE] [--host H]
                    [--port N] [--data-dir DIR]

Creates a stream topic on the running server (the first configured cluster unless named).`;

const FLAGS = new Set(['partitions', 'retention-ms', 'retention-bytes', 'cluster', 'url', 'config', 'host', 'port', 'data-dir']);
const CONFIG_FLAGS = ['config', 'host', 'port', 'data-dir'];

/** The cluster's credentials from the config, or else those the server generated in its data dir. */
function credentials(name: string, cluster: StreamClusterConfig, dataDir: string): { username: string; password: string } {
  const secrets = new SecretStore(dataDir);
  const username = cluster.username ?? secrets.find(`streams.${name}.username`);
  const password = cluster.password ?? secrets.find(`streams.${name}.password`);
  if (username === undefined || password === undefined) {
    throw new ConfigError(
      `no credentials for stream cluster '${name}' in ${secrets.path}: give the data directory Larder was started with (--data-dir DIR or --config FILE), or run this in the folder it was started in`,
    );
  }
  return { username, password };
}

export async function topicCommand(args: readonly string[]): Promise<void> {
  const [sub, name, ...rest] = args;
  if (sub !== 'create' || name === undefined || name.startsWith('--')) throw new ConfigError(TOPIC_USAGE);
  // Checked here too: a URL path would resolve `.` and `..` before the server saw them.
  const bad = badName('topic', name);
  if (bad !== null) throw new ConfigError(bad);
  const { flags } = parseFlags(rest, FLAGS, TOPIC_USAGE);
  const config = loadConfig(Object.fromEntries(CONFIG_FLAGS.filter((f) => flags[f] !== undefined).map((f) => [f, flags[f]])));
  const clusterName = flags.cluster ?? Object.keys(config.streams.clusters)[0];
  const cluster = config.streams.clusters[clusterName];
  if (cluster === undefined) throw new ConfigError(`no stream cluster '${clusterName}' in the configuration`);
  const { username, password } = credentials(clusterName, cluster, config.dataDir);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const base = (flags.url ?? `http://${host}:${config.port}`).replace(/\/$/, '');
  const body: Record<string, number> = {};
  for (const [flag, field] of [['partitions', 'partitions'], ['retention-ms', 'retentionMs'], ['retention-bytes', 'retentionBytes']]) {
    if (flags[flag] === undefined) continue;
    if (!/^-?\d+$/.test(flags[flag])) throw new ConfigError(`--${flag} needs an integer`);
    body[field] = Number(flags[flag]);
  }
  const url = `${base}/kafka/${encodeURIComponent(clusterName)}/create-topic/${encodeURIComponent(name)}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: 'Basic ' + Buffer.from(`${username}:${password}`).toString('base64'), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new ConfigError(`cannot reach Larder at ${base}: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message}`);
  }
  const answer = (await res.json()) as { topic?: string; partitions?: number; error?: string };
  if (!res.ok) throw new ConfigError(`topic not created: ${answer.error ?? res.status}`);
  console.log(`created topic '${answer.topic}' with ${answer.partitions} partition(s) in cluster '${clusterName}'`);
}

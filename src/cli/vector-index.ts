// `larder vector-index create NAME:TYPE[:DIMENSION[:SIMILARITY]] [--url URL]` plus the start
// command's `--config`, `--host`, `--port` and `--data-dir`: asks the running server, through
// the vector admin endpoint, to create the index, and prints its env lines. The admin token
// comes from the config or the data dir's generated secrets, as the server takes it.

import { ConfigError, loadConfig } from '../config/load.js';
import { SecretStore } from '../config/secrets.js';
import { setVectorIndexFlags } from '../config/vector-index-flags.js';
import { vectorEnvLines } from './env-lines.js';
import { parseFlags } from './flags.js';

export const VECTOR_INDEX_USAGE = `usage: larder vector-index create NAME:TYPE[:DIMENSION[:SIMILARITY]] [--url http://HOST:PORT]
                    [--config FILE] [--host H] [--port N] [--data-dir DIR]

Creates a vector index on the running server and prints its env lines.`;

const FLAGS = new Set(['url', 'config', 'host', 'port', 'data-dir']);
const CONFIG_FLAGS = ['config', 'host', 'port', 'data-dir'];

/** The admin token the server generated in its data dir; never makes one (that would be no server's). */
function generatedAdminToken(dataDir: string): string {
  const secrets = new SecretStore(dataDir);
  const token = secrets.find('vector.adminToken');
  if (token === undefined) {
    throw new ConfigError(
      `no vector admin token in ${secrets.path}: give the data directory Larder was started with (--data-dir DIR or --config FILE), or run this in the folder it was started in`,
    );
  }
  return token;
}

export async function vectorIndexCommand(args: readonly string[]): Promise<void> {
  const [sub, spec, ...rest] = args;
  if (sub !== 'create' || spec === undefined || spec.startsWith('--')) throw new ConfigError(VECTOR_INDEX_USAGE);
  const { flags } = parseFlags(rest, FLAGS, VECTOR_INDEX_USAGE);
  const config = loadConfig(Object.fromEntries(CONFIG_FLAGS.filter((f) => flags[f] !== undefined).map((f) => [f, flags[f]])));
  const adminToken = config.vector.adminToken ?? generatedAdminToken(config.dataDir);
  // The spec is read as --vector-index reads it, so both validate alike.
  setVectorIndexFlags(config, [spec]);
  const [[name, settings]] = Object.entries(config.vector.indexes);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const base = (flags.url ?? `http://${host}:${config.port}`).replace(/\/$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/vector/_admin/create-index`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, ...settings }),
    });
  } catch (e) {
    throw new ConfigError(`cannot reach Larder at ${base}: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message}`);
  }
  const answer = (await res.json()) as { result?: { token: string; readOnlyToken: string }; error?: string };
  if (!res.ok || answer.result === undefined) throw new ConfigError(`vector index not created: ${answer.error ?? res.status}`);
  for (const line of vectorEnvLines(base, { index: name, ...answer.result })) console.log(line);
}

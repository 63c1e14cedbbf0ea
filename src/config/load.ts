// Settings come from, in rising priority: defaults (schema.ts), a JSON or YAML file, LARDER_*
// environment variables, and command-line flags. The result is validated once, with one
// message per bad value.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { configSchema, type Config } from './schema.js';

const require = createRequire(import.meta.url);
/** A YAML config file's parser, loaded only for one: a start with a JSON file or none goes without it. */
const parseYaml = (text: string): unknown => (require('yaml') as typeof import('yaml')).parse(text);

/** Flags and env vars that override a top-level or nested setting; value parsers coerce text. */
const OVERRIDES: readonly { env: string; flag: string; path: readonly string[]; parse: (s: string) => unknown }[] = [
  { env: 'LARDER_HOST', flag: 'host', path: ['host'], parse: String },
  { env: 'LARDER_PORT', flag: 'port', path: ['port'], parse: numberOrText },
  { env: 'LARDER_DATA_DIR', flag: 'data-dir', path: ['dataDir'], parse: String },
  { env: 'LARDER_WORKERS', flag: 'workers', path: ['workers'], parse: numberOrText },
  { env: 'LARDER_RUNTIME', flag: 'runtime', path: ['runtime'], parse: String },
  { env: 'LARDER_LOG_LEVEL', flag: 'log-level', path: ['logLevel'], parse: String },
  { env: 'LARDER_FSYNC', flag: 'fsync', path: ['kv', 'fsync'], parse: String },
  // The default database on a remote Redis (its engine follows from the url).
  { env: 'LARDER_KV_BACKEND', flag: 'kv-backend', path: ['kv', 'databases', 'default', 'url'], parse: String },
  // The queue on PostgreSQL (its engine follows from the url).
  { env: 'LARDER_QUEUE_BACKEND', flag: 'queue-backend', path: ['queue', 'url'], parse: String },
  { env: 'LARDER_QSTASH_DEV', flag: 'qstash-dev', path: ['queue', 'dev'], parse: booleanOrText },
];

/**
 * Where @upstash/qstash looks for its dev server (QSTASH_DEV=true): 127.0.0.1 on
 * QSTASH_DEV_PORT, else this port. In dev mode it is Larder's default port.
 */
const QSTASH_DEV_PORT = 8080;

export const CONFIG_ENV = 'LARDER_CONFIG';

export class ConfigError extends Error {}

function booleanOrText(s: string): unknown {
  return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : s;
}

function numberOrText(s: string): unknown {
  return /^\d+$/.test(s) ? Number(s) : s;
}

export function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  try {
    return /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new ConfigError(`config file ${path} is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
}

/** Builds the config: `flags` are the command line's `--name value` pairs, by name. */
export function loadConfig(flags: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv = process.env): Config {
  const file = flags.config ?? env[CONFIG_ENV];
  const raw = (file === undefined ? {} : readConfigFile(file)) ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError('the config file must hold an object');
  const merged = raw as Record<string, unknown>;
  for (const o of OVERRIDES) {
    const value = flags[o.flag] ?? env[o.env];
    if (value !== undefined) setPath(merged, o.path, o.parse(value));
  }
  // Dev mode moves the default port to the one the SDK probes: --port and LARDER_PORT still
  // win, then QSTASH_DEV_PORT (the app's own setting), then the file.
  const queue = merged.queue as { dev?: unknown } | undefined;
  if (queue?.dev === true && flags.port === undefined && env.LARDER_PORT === undefined) {
    const devPort = env.QSTASH_DEV_PORT;
    if (devPort !== undefined) merged.port = numberOrText(devPort);
    else merged.port ??= QSTASH_DEV_PORT;
  }
  return validate(merged);
}

export function validate(raw: unknown): Config {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    // A bad record key (a database, cluster, topic or index name): its own message names the key.
    if (i.code === 'invalid_key') return `  ${i.path.slice(0, -1).join('.')}: ${i.issues[0]?.message ?? i.message}`;
    return `  ${i.path.join('.') || '(root)'}: ${i.message}`;
  });
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

function setPath(obj: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = obj;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1]] = value;
}

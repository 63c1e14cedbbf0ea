// INFO's text (Redis server.c genRedisInfoString): "# Section" headers, "field:value" lines
// ending in CRLF, a blank line between sections. Fields Larder cannot know are left out
// rather than invented; larder_* fields are Larder's own.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { arch, release, totalmem, type } from 'node:os';
import { REDIS_VERSION } from '../../redis-version.js';
import type { Ctx } from '../spec.js';

/** From the package (dist/src/kv/commands/introspection/ is five levels below it). */
const LARDER_VERSION = (
  JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
/** Redis's run_id: random per process. */
const RUN_ID = randomBytes(20).toString('hex');

type Section = (ctx: Ctx) => [string, string | number][];

const SECTIONS: Record<string, Section> = {
  server: (ctx) => {
    const now = ctx.ks.now();
    const uptime = Math.floor((now - ctx.server.startedAt) / 1000);
    const bun = (process.versions as { bun?: string }).bun;
    return [
      ['redis_version', REDIS_VERSION],
      ['redis_mode', 'standalone'],
      ['os', `${type()} ${release()} ${arch()}`],
      ['arch_bits', 64],
      ['process_id', process.pid],
      ['run_id', RUN_ID],
      ['server_time_usec', now * 1000],
      ['uptime_in_seconds', uptime],
      ['uptime_in_days', Math.floor(uptime / 86400)],
      ['hz', 10],
      ['larder_version', LARDER_VERSION],
      ['larder_runtime', ctx.server.runtime],
      ['larder_runtime_version', bun ?? process.versions.node],
      ['larder_database', ctx.server.dbName],
    ];
  },
  // Over REST every request stands alone: there are no connections to count.
  clients: () => [
    ['connected_clients', 0],
    ['blocked_clients', 0],
  ],
  memory: () => {
    const m = process.memoryUsage();
    const total = totalmem();
    return [
      ['used_memory', m.heapUsed],
      ['used_memory_human', bytesToHuman(m.heapUsed)],
      ['used_memory_rss', m.rss],
      ['used_memory_rss_human', bytesToHuman(m.rss)],
      ['total_system_memory', total],
      ['total_system_memory_human', bytesToHuman(total)],
      ['maxmemory', 0],
      ['maxmemory_human', '0B'],
      ['maxmemory_policy', 'noeviction'],
    ];
  },
  persistence: (ctx) => [
    ['loading', ctx.ks.loading ? 1 : 0],
    ['aof_enabled', 1],
  ],
  stats: (ctx) => [
    ['total_commands_processed', ctx.server.commandsProcessed],
    ['expired_keys', ctx.ks.expiredKeys],
  ],
  replication: () => [
    ['role', 'master'],
    ['connected_slaves', 0],
  ],
  cpu: () => {
    const cpu = process.cpuUsage();
    return [
      ['used_cpu_sys', (cpu.system / 1e6).toFixed(6)],
      ['used_cpu_user', (cpu.user / 1e6).toFixed(6)],
    ];
  },
  keyspace: (ctx) =>
    ctx.ks.size === 0 ? [] : [['db0', `keys=${ctx.ks.size},expires=${ctx.ks.expires},avg_ttl=0`]],
};

/** Every section, in Redis's order, with its header. */
const TITLES: Record<string, string> = {
  server: 'Server',
  clients: 'Clients',
  memory: 'Memory',
  persistence: 'Persistence',
  stats: 'Stats',
  replication: 'Replication',
  cpu: 'CPU',
  keyspace: 'Keyspace',
};
const DEFAULT = Object.keys(TITLES);

/** The text for the named sections (any case; "all", "default" and "everything" mean all). */
export function infoText(ctx: Ctx, names: readonly string[]): string {
  const wanted = new Set<string>();
  for (const raw of names.length === 0 ? ['default'] : names) {
    const name = raw.toLowerCase();
    if (name === 'default' || name === 'all' || name === 'everything') for (const d of DEFAULT) wanted.add(d);
    else if (Object.hasOwn(SECTIONS, name)) wanted.add(name);
  }
  let out = '';
  for (const name of DEFAULT) {
    if (!wanted.has(name)) continue;
    if (out !== '') out += '\r\n';
    out += `# ${TITLES[name]}\r\n`;
    for (const [field, value] of SECTIONS[name](ctx)) out += `${field}:${value}\r\n`;
  }
  return out;
}

/**
 * The fields a remote server's INFO is cut to, by section title: those the embedded engine
 * shows (its larder_* apart), with the server's values. The rest shows past the database on a
 * server others share: its paths (executable, config_file), its other indexes' keys, every
 * client's command counts. Keyspace keeps the database's own index (`remoteInfo`).
 */
export const REMOTE_INFO_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  Server: new Set(['redis_version', 'redis_mode', 'os', 'arch_bits', 'process_id', 'run_id', 'server_time_usec', 'uptime_in_seconds', 'uptime_in_days', 'hz']),
  Clients: new Set(['connected_clients', 'blocked_clients']),
  Memory: new Set(['used_memory', 'used_memory_human', 'used_memory_rss', 'used_memory_rss_human', 'total_system_memory', 'total_system_memory_human', 'maxmemory', 'maxmemory_human', 'maxmemory_policy']),
  Persistence: new Set(['loading', 'aof_enabled']),
  Stats: new Set(['total_commands_processed', 'expired_keys']),
  Replication: new Set(['role', 'connected_slaves']),
  CPU: new Set(['used_cpu_sys', 'used_cpu_user']),
  Keyspace: new Set(),
};

/** A remote server's INFO text cut to REMOTE_INFO_FIELDS, and its keyspace to index `db`. */
export function remoteInfo(text: string, db: number): string {
  const own = `db${db}`;
  let out = '';
  let fields: ReadonlySet<string> | undefined;
  let keyspace = false;
  for (const line of text.split('\r\n')) {
    if (line.startsWith('# ')) {
      const title = line.slice(2);
      fields = Object.hasOwn(REMOTE_INFO_FIELDS, title) ? REMOTE_INFO_FIELDS[title] : undefined;
      keyspace = title === 'Keyspace';
      if (fields !== undefined) out += `${out === '' ? '' : '\r\n'}${line}\r\n`;
      continue;
    }
    if (fields === undefined || line === '') continue;
    const name = line.slice(0, line.indexOf(':'));
    if (fields.has(name) || (keyspace && name === own)) out += `${line}\r\n`;
  }
  return out;
}

/** Redis's bytesToHuman: B below 1K, then two decimals and K, M, G, T, P. */
function bytesToHuman(n: number): string {
  const units = ['K', 'M', 'G', 'T', 'P'];
  if (n < 1024) return `${n}B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)}${units[unit]}`;
}

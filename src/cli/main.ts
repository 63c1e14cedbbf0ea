// `larder` command line: `larder start [--config FILE] [--port N] [--host H] [--data-dir DIR]
// [--runtime node|bun] [--log-level L] [--fsync always|everysec] [--kv-backend URL] [--workers N]
// [--queue-backend URL] [--qstash-dev] [--topic NAME:PARTITIONS]... [--vector-index NAME:TYPE[:DIMENSION[:SIMILARITY]]]...`
// and `larder topic create ...` (topic.ts), `larder vector-index create ...` (vector-index.ts),
// `larder repair ...` (repair.ts), `larder migrate ...` (migrate.ts).

import { ConfigError, loadConfig } from '../config/load.js';
import { addTopicFlags } from '../config/topic-flags.js';
import { setVectorIndexFlags } from '../config/vector-index-flags.js';
import { startLarder } from '../larder.js';
import { endLog } from '../server/log.js';
import { CorruptDataError } from '../storage/errors.js';
import { envLines } from './env-lines.js';
import { parseFlags } from './flags.js';
import { MIGRATE_USAGE, migrateCommand } from './migrate.js';
import { REPAIR_USAGE, repairCommand } from './repair.js';
import { TOPIC_USAGE, topicCommand } from './topic.js';
import { VECTOR_INDEX_USAGE, vectorIndexCommand } from './vector-index.js';
import { isWorker, portFromPrimary, reportListening, runPrimary } from './workers.js';

const USAGE = `usage: larder start [--config FILE] [--port N] [--host H] [--data-dir DIR]
                    [--runtime auto|node|bun] [--log-level LEVEL] [--fsync always|everysec]
                    [--kv-backend redis://HOST:PORT | redis+cluster://HOST:PORT,HOST:PORT]
                    [--queue-backend postgres://USER:PASSWORD@HOST:PORT/DATABASE]
                    [--workers N] [--qstash-dev]
                    [--topic NAME:PARTITIONS]... [--vector-index NAME:TYPE[:DIMENSION[:SIMILARITY]]]...

Starts every configured service on one port. Settings: defaults < config file (JSON or
YAML; also LARDER_CONFIG) < LARDER_* environment variables < flags. --kv-backend keeps
the default key-value database on a remote Redis or Valkey instead of the data dir;
--queue-backend keeps the message queue and workflows in PostgreSQL, which several Larder
processes may share; \`larder migrate\` applies its schema changes and exits (start does too).
--workers N serves the port from N processes (every database on a remote Redis).
--qstash-dev serves the message queue the way @upstash/qstash's QSTASH_DEV=true mode expects:
its published dev token and signing keys, the queue API also at the root (/v2/...), and the
port it probes (8080, or QSTASH_DEV_PORT) unless --port names another.

${TOPIC_USAGE}

${VECTOR_INDEX_USAGE}

${REPAIR_USAGE}

${MIGRATE_USAGE}`;

const FLAGS = new Set(['config', 'port', 'host', 'data-dir', 'runtime', 'log-level', 'fsync', 'kv-backend', 'queue-backend', 'workers']);
/** Flags that may repeat. */
const LIST_FLAGS = new Set(['topic', 'vector-index']);
/** Flags without a value. */
const SWITCHES = new Set(['qstash-dev']);

/**
 * Why this runtime cannot run Larder, if it cannot: a database loads its Lua VM at its first
 * script with require() of ES modules (scripting.ts), which Node has from 20.19 (and Bun).
 */
function unsupportedRuntime(): string | undefined {
  if ((process.features as { require_module?: boolean }).require_module === true) return undefined;
  return `Node ${process.versions.node} cannot require() ES modules, which Larder needs (its Lua VM loads so at a database's first script): run it on Node 20.19 or later, or on Bun`;
}

async function main(argv: string[]): Promise<void> {
  const unsupported = unsupportedRuntime();
  if (unsupported !== undefined) throw new ConfigError(unsupported);
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  if (command === 'topic') return topicCommand(rest);
  if (command === 'vector-index') return vectorIndexCommand(rest);
  if (command === 'repair') return repairCommand(rest);
  if (command === 'migrate') return migrateCommand(rest);
  if (command !== 'start') throw new ConfigError(`unknown command '${command}'\n${USAGE}`);
  const { flags, lists } = parseFlags(rest, FLAGS, USAGE, LIST_FLAGS, SWITCHES);
  const config = loadConfig(flags);
  addTopicFlags(config, lists.topic ?? []);
  setVectorIndexFlags(config, lists['vector-index'] ?? []);
  if (config.workers > 1 && !isWorker()) return runPrimary(config);
  if (isWorker()) config.port = await portFromPrimary();
  const larder = await startLarder(config, undefined, isWorker());
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    larder.log.info({ signal }, 'shutting down');
    const exit = (code: number) => void endLog(larder.log).then(() => process.exit(code));
    larder.close().then(
      () => exit(0),
      (e) => {
        larder.log.error({ err: e }, 'shutdown failed');
        exit(1);
      },
    );
  };
  // Handlers first: whoever reads the lines below may signal at once.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (isWorker()) return reportListening(larder);
  console.log(`Larder listening on ${larder.url} (${larder.runtime})`);
  for (const line of envLines(larder)) console.log(line);
}

/** Failures the user fixes (settings, the data dir, a busy port) print one line; bugs print their stack. */
function explain(e: unknown): string | undefined {
  if (e instanceof ConfigError || e instanceof CorruptDataError) return e.message;
  if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && (e as NodeJS.ErrnoException).syscall) return e.message;
  return undefined;
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const message = explain(e);
  console.error(message === undefined ? e : `larder: ${message}`);
  process.exit(e instanceof ConfigError ? 2 : 1);
});

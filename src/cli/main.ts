// `larder` command line: `larder start [--config FILE] [--port N] [--host H] [--data-dir DIR]
// [--runtime node|bun] [--log-level L] [--fsync always|everysec] [--kv-backend URL] [--workers N]`.

import { ConfigError, loadConfig } from '../config/load.js';
import { startLarder } from '../larder.js';
import { CorruptDataError } from '../storage/errors.js';
import { envLines } from './env-lines.js';
import { isWorker, reportListening, runPrimary } from './workers.js';

const USAGE = `usage: larder start [--config FILE] [--port N] [--host H] [--data-dir DIR]
                    [--runtime auto|node|bun] [--log-level LEVEL] [--fsync always|everysec]
                    [--kv-backend redis://HOST:PORT | redis+cluster://HOST:PORT,HOST:PORT]
                    [--workers N]

Starts every configured service on one port. Settings: defaults < config file (JSON or
YAML; also LARDER_CONFIG) < LARDER_* environment variables < flags. --kv-backend keeps
the default key-value database on a remote Redis or Valkey instead of the data dir;
--workers N serves the port from N processes (Node only; every database on a remote Redis).`;

const FLAGS = new Set(['config', 'port', 'host', 'data-dir', 'runtime', 'log-level', 'fsync', 'kv-backend', 'workers']);

function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (m === null || !FLAGS.has(m[1])) throw new ConfigError(`unknown argument '${args[i]}'\n${USAGE}`);
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new ConfigError(`--${m[1]} needs a value`);
    flags[m[1]] = value;
  }
  return flags;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  if (command !== 'start') throw new ConfigError(`unknown command '${command}'\n${USAGE}`);
  const config = loadConfig(parseFlags(rest));
  if (config.workers > 1 && !isWorker()) return runPrimary(config);
  const larder = await startLarder(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    larder.log.info({ signal }, 'shutting down');
    larder.close().then(
      () => process.exit(0),
      (e) => {
        larder.log.error({ err: e }, 'shutdown failed');
        process.exit(1);
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

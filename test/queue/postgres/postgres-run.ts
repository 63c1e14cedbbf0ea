// `npm run test:postgres`: `postgres-run.js COMMAND...` runs the command (the queue and workflow
// test files under node --test) with one throwaway PostgreSQL cluster, started before and
// stopped after, which every test Larder of the run shares, each in its own schema
// (support/queue-backend.ts). Without arguments it does nothing: `node --test dist/test/` runs
// every file below it.

import { spawn } from 'node:child_process';
import { POSTGRES_URL_ENV } from '../../support/queue-backend.js';
import { startPostgres } from '../../support/postgres.js';

async function main(command: string[]): Promise<number> {
  const cluster = await startPostgres();
  try {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, [POSTGRES_URL_ENV]: cluster.url() } });
    // Interrupted, the tests stop first and the cluster after them, rather than outliving the run.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return await new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128))));
  } finally {
    await cluster.stop();
  }
}

const command = process.argv.slice(2);
if (command.length > 0) process.exitCode = await main(command);

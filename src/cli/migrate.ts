// `larder migrate [--config FILE] [--queue-backend URL]`: brings the queue's PostgreSQL schema
// (engine postgres) to this Larder's version and exits; `larder start` does the same before it
// serves. Several processes may run either at once: the migrations wait for each other.

import { ConfigError, loadConfig } from '../config/load.js';
import { migrateQueue } from '../queue/index.js';
import { parseFlags } from './flags.js';

export const MIGRATE_USAGE = `usage: larder migrate [--config FILE] [--queue-backend postgres://USER:PASSWORD@HOST:PORT/DATABASE]

Applies the schema changes of the message queue's PostgreSQL engine (queue.engine postgres) and exits.`;

const FLAGS = new Set(['config', 'queue-backend']);

export async function migrateCommand(args: readonly string[]): Promise<void> {
  const config = loadConfig(parseFlags(args, FLAGS, MIGRATE_USAGE).flags);
  if (config.queue.engine !== 'postgres') throw new ConfigError(`the queue is on the embedded engine: there is nothing to migrate (set queue.url, LARDER_QUEUE_BACKEND or --queue-backend)\n${MIGRATE_USAGE}`);
  console.log(await migrateQueue(config.queue));
}

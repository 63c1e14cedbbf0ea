// The process logger: pino, one JSON line per event on stdout's sibling, stderr, so that
// stdout stays for the env lines a user copies.

import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined }, pino.destination({ dest: 2, sync: false }));
}

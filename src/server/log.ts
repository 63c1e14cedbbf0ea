// The process logger: pino, one JSON line per event on stdout's sibling, stderr, so that
// stdout stays for the env lines a user copies.

import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined }, pino.destination({ dest: 2, sync: false }));
}

/**
 * Resolves once every line logged so far is written, for a process about to exit: the writes
 * are asynchronous, and pino's flush calls back at once (sonic-boom with no minLength), so the
 * last lines were lost when the process exited in its callback.
 */
export function endLog(log: Logger): Promise<void> {
  const destination = (log as unknown as Record<symbol, ReturnType<typeof pino.destination>>)[pino.symbols.streamSym];
  return new Promise((resolve) => {
    destination.once('close', () => resolve());
    destination.once('error', () => resolve());
    destination.end();
  });
}

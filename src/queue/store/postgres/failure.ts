// PostgreSQL's failures as the queue reports them, apart from the driver: the service
// (queue/index.ts) tells them apart without loading the driver, which loads only for engine
// postgres.

import { LogFailedError } from '../../../storage/errors.js';

/** The database's words for a failure, or the socket's ("connect ECONNREFUSED 127.0.0.1:5432"). */
export function reasonOf(e: unknown): string {
  const err = e as { message?: string; code?: string; errors?: { message: string }[] };
  // A host name with several addresses fails with an AggregateError of each attempt.
  if (err.errors !== undefined && err.errors.length > 0) return err.errors[0].message;
  return err.message || err.code || String(e);
}

/**
 * A write the shared log could not commit: PostgreSQL is stopped or unreachable. A kind of
 * LogFailedError, so the writers that hold off while a disk refuses writes hold off for it too.
 */
export class SharedLogUnavailable extends LogFailedError {
  constructor(cause: unknown) {
    super('PostgreSQL', new Error(reasonOf(cause)));
  }
}

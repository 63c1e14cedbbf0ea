// Failures of the data on disk, as opposed to bugs. Their message says which file and what to
// do, and the CLI prints it without a stack trace: the fix is in the data dir, not the code.

/** A file Larder must read is damaged beyond what recovery may cut (a snapshot, an orphan log). */
export class CorruptDataError extends Error {
  override readonly name = 'CorruptDataError';
}

/**
 * A damaged record with records after it (frames.ts tells that from a torn tail): the file is
 * left as it is and the start stops. `why` says what is wrong and why it is no torn tail;
 * `offset` is where the damaged record starts and `following` counts the bytes from there to
 * the end: what `larder repair` moves to a quarantine file.
 */
export class DamagedFileError extends CorruptDataError {
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly following: number,
    why: string,
  ) {
    super(
      `${path} is damaged at byte ${offset} (${why}); ${following} bytes follow from there and nothing was cut. ` +
        '`larder repair` (same --config/--data-dir, Larder stopped) moves them to a quarantine file beside it and keeps every record before them',
    );
  }
}

/**
 * A write or fsync failed (a full disk, a quota, an I/O error). The log that threw it keeps
 * what it could not write and tries again (append-log.ts); `reason` is the cause as strerror
 * words it, the text clients and /healthz are told.
 */
export class LogFailedError extends Error {
  override readonly name = 'LogFailedError';
  readonly reason: string;

  constructor(path: string, cause: unknown) {
    const reason = reasonOf(cause);
    super(`${path}: ${reason}`, { cause });
    this.reason = reason;
  }
}

/** strerror's words for the failures a full or broken disk gives (Redis prints these). */
const STRERROR: Readonly<Record<string, string>> = {
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  EIO: 'Input/output error',
  EROFS: 'Read-only file system',
};

/** Why a file operation failed, in strerror's words where known, else the runtime's message. */
export function reasonOf(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  return (code !== undefined && STRERROR[code]) || (cause as Error).message;
}

/** The reason a write failed for want of a working disk (a log's, a replaced file's), or null for any other error. */
export function diskFailureOf(err: unknown): string | null {
  if (err instanceof LogFailedError) return err.reason;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code !== undefined && code in STRERROR ? STRERROR[code] : null;
}

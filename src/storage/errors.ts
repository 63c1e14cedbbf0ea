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

/** A write or fsync failed; the log refuses further writes, which would follow a gap. */
export class LogFailedError extends Error {
  override readonly name = 'LogFailedError';
}

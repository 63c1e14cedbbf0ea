// Failures of the data on disk, as opposed to bugs. Their message says which file and what to
// do, and the CLI prints it without a stack trace: the fix is in the data dir, not the code.

/** A file Larder must read is damaged beyond what recovery may cut (a snapshot, an orphan log). */
export class CorruptDataError extends Error {
  override readonly name = 'CorruptDataError';
}

/** A write or fsync failed; the log refuses further writes, which would follow a gap. */
export class LogFailedError extends Error {
  override readonly name = 'LogFailedError';
}

// An append-only file of frames with an fsync policy.
//   always:   flush() writes and fdatasyncs before the caller answers.
//   everysec: flush() hands data to the OS (it survives kill -9); a timer fdatasyncs once a
//             second in the background, so a power loss costs about a second of writes.
// Rules that keep acknowledged writes true:
// - open() cuts only a torn tail, and reports it; a damaged record with records after it
//   (frames.ts has the rule) throws DamagedFileError and leaves the file for `larder repair`.
// - A file the log creates gets its directory fsynced, or a power loss could drop the file.
// - A failed write or fsync fails the log for good: every later flush throws LogFailedError.
//   A failed flush also cuts the file back to its last whole frame. Frames appended after a
//   torn one would be cut by the next recovery, and after an fsync error the kernel may have
//   dropped the unwritten pages, so answering later writes would be a lie.
// - sync() is group commit: it writes what was appended and resolves once an fdatasync that
//   began after the write has ended. Callers arriving while one runs share the next one.
// - close() flushes what was appended and fdatasyncs; a background fdatasync still running
//   keeps the descriptor open until it ends, so it never touches a reused descriptor number.
//   closeInBackground() flushes and leaves the fdatasync, and then the close, to the background.
// Not safe for concurrent use; one JS thread owns it.

import { closeSync, existsSync, fdatasync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FILE_MODE, syncDirectory } from './atomic-file.js';
import { DamagedFileError, LogFailedError } from './errors.js';
import { frame, isTornTail, readFrames, type StopReason } from './frames.js';

export type FsyncPolicy = 'always' | 'everysec';

export interface Recovered {
  frames: Buffer[];
  /** Bytes of torn tail that were cut. */
  cutBytes: number;
  /** Length of the valid prefix: the file's size now. */
  validBytes: number;
  /** Why the valid prefix ended, when bytes were cut. */
  stop?: StopReason;
}

const SYNC_EVERY_MS = 1000;

export class AppendLog {
  private readonly fd: number;
  private pending: Buffer[] = [];
  /** Bytes in the file, all of them whole frames. */
  private written: number;
  private unsynced = false;
  private syncing = false;
  private closed = false;
  private failure: LogFailedError | null = null;
  /** Callers of sync() waiting for the next fdatasync. */
  private waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private readonly timer: NodeJS.Timeout | null = null;
  /** Bytes written plus bytes appended and not yet flushed. */
  size: number;

  private constructor(
    readonly path: string,
    private readonly policy: FsyncPolicy,
    size: number,
  ) {
    this.fd = openSync(path, 'a', FILE_MODE);
    this.written = this.size = size;
    if (policy === 'everysec') {
      this.timer = setInterval(() => this.syncInBackground(), SYNC_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Opens (or creates) the log, validating every frame and cutting a torn tail; damage before the tail throws. */
  static open(path: string, policy: FsyncPolicy): { log: AppendLog; recovered: Recovered } {
    const existed = existsSync(path);
    const recovered: Recovered = { frames: [], cutBytes: 0, validBytes: 0 };
    if (existed) {
      const data = readFileSync(path);
      const scan = readFrames(data);
      if (scan.stop !== undefined && !isTornTail(data, scan.validBytes)) {
        throw new DamagedFileError(path, scan.validBytes, data.length - scan.validBytes, `${scan.stop}, with valid records after it`);
      }
      recovered.frames = scan.frames;
      recovered.validBytes = scan.validBytes;
      recovered.cutBytes = data.length - scan.validBytes;
      if (scan.stop !== undefined) recovered.stop = scan.stop;
      if (recovered.cutBytes > 0) {
        const fd = openSync(path, 'r+');
        try {
          ftruncateSync(fd, scan.validBytes);
          fdatasyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
    }
    const log = new AppendLog(path, policy, recovered.validBytes);
    if (!existed) syncDirectory(dirname(path));
    return { log, recovered };
  }

  append(payload: Uint8Array): void {
    const f = frame(payload);
    this.pending.push(f);
    this.size += f.length;
  }

  /** Writes what was appended; under `always` also waits for the disk. Throws once the log failed. */
  flush(): void {
    if (this.pending.length === 0) return;
    if (this.failure !== null) throw this.failure;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    try {
      for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off);
      if (this.policy === 'always') fdatasyncSync(this.fd);
    } catch (e) {
      this.size = this.written;
      try {
        ftruncateSync(this.fd, this.written);
      } catch {
        // Recovery on the next start cuts whatever torn frame is left.
      }
      throw this.fail(e);
    }
    this.written += data.length;
    this.unsynced = this.policy === 'everysec';
  }

  /** Writes what was appended and waits, without blocking, until it is on the disk. */
  sync(): Promise<void> {
    try {
      this.flush();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.startSync();
    });
  }

  close(): void {
    if (this.closed) return;
    if (this.timer !== null) clearInterval(this.timer);
    const waiting = this.waiting;
    this.waiting = [];
    try {
      this.flush();
      fdatasyncSync(this.fd);
    } catch (e) {
      for (const w of waiting) w.reject(e as Error);
      throw e;
    } finally {
      this.closed = true;
      if (!this.syncing) closeSync(this.fd);
    }
    for (const w of waiting) w.resolve();
  }

  /**
   * close() without waiting for the disk, for an `everysec` log that is done with (a rotated
   * diagnostics file): what was appended is written to the OS (it survives kill -9), and the
   * descriptor closes once a background fdatasync has ended.
   */
  closeInBackground(): void {
    if (this.closed) return;
    if (this.waiting.length > 0) return this.close();
    if (this.timer !== null) clearInterval(this.timer);
    try {
      this.flush();
    } finally {
      this.closed = true;
      if (!this.syncing) {
        this.syncing = true;
        fdatasync(this.fd, () => closeSync(this.fd));
      }
    }
  }

  private syncInBackground(): void {
    if (!this.unsynced || this.syncing || this.failure !== null) return;
    this.startSync();
  }

  /** One fdatasync for everyone waiting now; those who come while it runs get the next one. */
  private startSync(): void {
    if (this.syncing || this.closed) return;
    const batch = this.waiting;
    this.waiting = [];
    this.unsynced = false;
    this.syncing = true;
    fdatasync(this.fd, (err) => {
      this.syncing = false;
      if (err !== null && !this.closed) this.fail(err);
      for (const w of batch) {
        if (err === null) w.resolve();
        else w.reject(this.failure ?? err);
      }
      if (this.closed) closeSync(this.fd);
      else if (this.waiting.length > 0) this.startSync();
    });
  }

  private fail(cause: unknown): LogFailedError {
    this.failure ??= new LogFailedError(
      `${this.path}: ${(cause as Error).message}; writes are refused until Larder restarts`,
      { cause },
    );
    return this.failure;
  }
}

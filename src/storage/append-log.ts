// An append-only file of frames with an fsync policy.
//   always:   flush() writes and fdatasyncs before the caller answers.
//   everysec: flush() hands data to the OS (it survives kill -9); a timer fdatasyncs once a
//             second in the background, so a power loss costs about a second of writes.
// Rules that keep acknowledged writes true:
// - open() cuts only a torn tail, and reports it; a damaged record with records after it
//   (frames.ts has the rule) throws DamagedFileError and leaves the file for `larder repair`.
// - A file the log creates gets its directory fsynced, or a power loss could drop the file.
// - A failed write or fsync (a full disk, a quota, an I/O error) acknowledges nothing and
//   loses nothing acknowledged. The log rewinds: it cuts the file back to the end of the last
//   frame written whole (after an fdatasync error, to the end of what the last good fdatasync
//   covered, since the kernel may have dropped the pages it could not write, and the frames
//   since are written again). It keeps what it could not write, in order, ahead of later
//   appends, and is failing (`failure`) until a flush writes it all (or, with nothing left
//   to write, until a probe file in its directory can be written). Every flush, retry() and
//   the everysec timer try again, starting with the cut, so no frame ever follows a torn one
//   and writes resume by themselves once the disk has room.
// - Owners ask retry() before they change anything, and refuse the write while it fails. An
//   owner that counts appended frames as written already (kv's keyspace, a partition's
//   offsets) leaves a failed flush's frames pending: they reach the disk with the next good
//   flush, as a timed-out write may still land. An owner that writes ahead of applying (vector,
//   queue) calls discardPending(): what it never applied is never written.
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
import { assertWritable } from './write-probe.js';
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
  /** Frames appended and never written. */
  private pending: Buffer[] = [];
  /** Frames written once, then cut by a rewind: written again, before `pending`. */
  private rewound: Buffer[] = [];
  /** Bytes in the file, all of them whole frames. */
  private written: number;
  /** Bytes a finished fdatasync covered (under `always`, every flush's). */
  private durable: number;
  /** Writes since the last fdatasync began (`everysec`); written again if it fails. */
  private unsynced: Buffer[] = [];
  private syncing = false;
  private closed = false;
  private failed: LogFailedError | null = null;
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
    this.written = this.durable = this.size = size;
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

  /** Why the last write failed, while the log still holds back what it could not write. */
  get failure(): LogFailedError | null {
    return this.failed;
  }

  /** Whether every frame appended is on the disk: written, and covered by a finished fdatasync. */
  get synced(): boolean {
    return this.failed === null && this.pending.length === 0 && this.durable === this.written;
  }

  append(payload: Uint8Array): void {
    const f = frame(payload);
    this.pending.push(f);
    this.size += f.length;
  }

  /**
   * Writes what was appended (and what a failure held back); under `always` also waits for
   * the disk. Throws LogFailedError, keeping the frames, when the disk refuses them.
   */
  flush(): void {
    if (this.failed === null && this.pending.length === 0) return;
    const frames = this.rewound.length === 0 ? this.pending : this.rewound.concat(this.pending);
    const data = frames.length === 1 ? frames[0] : Buffer.concat(frames);
    try {
      // A failed write may have left part of a frame: cut it before writing after it.
      if (this.failed !== null) ftruncateSync(this.fd, this.written);
      // With nothing left to write (its owner discarded it), a probe says whether the disk
      // takes writes again, lest a cut alone pass for a recovery.
      if (data.length === 0) assertWritable(dirname(this.path));
      for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off);
      if (this.policy === 'always') fdatasyncSync(this.fd);
    } catch (e) {
      this.rewind();
      throw this.fail(e);
    }
    this.pending = [];
    this.rewound = [];
    this.failed = null;
    this.written += data.length;
    if (this.policy === 'always') this.durable = this.written;
    else if (data.length > 0) this.unsynced.push(data);
  }

  /** Tries again to write what a failure held back; the failure that still holds, or null. */
  retry(): LogFailedError | null {
    if (this.failed === null || this.closed) return this.failed;
    try {
      this.flush();
    } catch {
      // Still failing: `failed` says why.
    }
    return this.failed;
  }

  /** Forgets the frames appended since the last good flush: their writer never applied them. */
  discardPending(): void {
    for (const f of this.pending) this.size -= f.length;
    this.pending = [];
  }

  /** Writes what was appended and waits, without blocking, until it is on the disk. */
  sync(): Promise<void> {
    try {
      this.flush();
    } catch (e) {
      return Promise.reject(e as Error);
    }
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
    if (this.retry() !== null || this.unsynced.length === 0 || this.syncing) return;
    this.startSync();
  }

  /** One fdatasync for everyone waiting now; those who come while it runs get the next one. */
  private startSync(): void {
    if (this.syncing || this.closed) return;
    const batch = this.waiting;
    const covered = this.unsynced;
    const end = this.written;
    this.waiting = [];
    this.unsynced = [];
    this.syncing = true;
    fdatasync(this.fd, (err) => {
      this.syncing = false;
      if (err === null) this.durable = Math.max(this.durable, end);
      else if (!this.closed) {
        // The kernel may have dropped those pages: write them again, after a rewind.
        this.rewound = covered.concat(this.unsynced, this.rewound);
        this.unsynced = [];
        this.written = this.durable;
        this.fail(err);
      }
      for (const w of batch) {
        if (err === null) w.resolve();
        else w.reject(this.failed ?? err);
      }
      if (this.closed) closeSync(this.fd);
      else if (this.waiting.length > 0) this.startSync();
    });
  }

  /** Cuts the file back to its whole frames; a cut that fails now is made by the next flush. */
  private rewind(): void {
    try {
      ftruncateSync(this.fd, this.written);
    } catch {
      // flush() cuts first while the log is failing.
    }
  }

  private fail(cause: unknown): LogFailedError {
    this.failed = new LogFailedError(this.path, cause);
    return this.failed;
  }
}

// An append-only file of frames with an fsync policy.
//   always:   append() data reaches the disk (fdatasync) in flush(), before the caller answers.
//   everysec: flush() hands data to the OS (it survives kill -9); a timer fdatasyncs once a second.
// Not safe for concurrent use; one JS thread owns it.

import { closeSync, existsSync, fdatasync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { frame, readFrames } from './frames.js';

export type FsyncPolicy = 'always' | 'everysec';

export interface Recovered {
  frames: Buffer[];
  /** Bytes of invalid tail that were cut. */
  cutBytes: number;
}

export class AppendLog {
  private fd: number;
  private pending: Buffer[] = [];
  private unsynced = false;
  private timer: NodeJS.Timeout | null = null;
  size: number;

  private constructor(
    readonly path: string,
    private readonly policy: FsyncPolicy,
    size: number,
  ) {
    this.fd = openSync(path, 'a');
    this.size = size;
    if (policy === 'everysec') {
      this.timer = setInterval(() => this.syncInBackground(), 1000);
      this.timer.unref();
    }
  }

  /** Opens (or creates) the log, validating every frame and cutting an invalid tail. */
  static open(path: string, policy: FsyncPolicy): { log: AppendLog; recovered: Recovered } {
    let frames: Buffer[] = [];
    let cutBytes = 0;
    let size = 0;
    if (existsSync(path)) {
      const data = readFileSync(path);
      const scan = readFrames(data);
      frames = scan.frames;
      size = scan.validBytes;
      cutBytes = data.length - scan.validBytes;
      if (cutBytes > 0) {
        const fd = openSync(path, 'r+');
        ftruncateSync(fd, scan.validBytes);
        fdatasyncSync(fd);
        closeSync(fd);
      }
    }
    return { log: new AppendLog(path, policy, size), recovered: { frames, cutBytes } };
  }

  append(payload: Uint8Array): void {
    const f = frame(payload);
    this.pending.push(f);
    this.size += f.length;
  }

  /** Writes what was appended; under `always` also waits for the disk. */
  flush(): void {
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    writeAll(this.fd, data);
    if (this.policy === 'always') fdatasyncSync(this.fd);
    else this.unsynced = true;
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.flush();
    fdatasyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }

  private syncInBackground(): void {
    if (!this.unsynced || this.fd < 0) return;
    this.unsynced = false;
    fdatasync(this.fd, () => {});
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
}

// One snapshot file being written, a slice at a time, while its owner goes on serving.
// The file is `<path>.tmp` until it is whole and fsynced, then renamed over `path` and the
// directory fsynced (atomic-file.ts's rule), so a crash leaves no half snapshot under the real
// name. The entries come from an iterator the owner keeps point-in-time (kv's keyspace encodes an
// entry before a command changes it); how many there are is known only at the end, so the header
// frame is written first with its count padded to a fixed width and written over once the
// count is known.
// Not safe for concurrent use; its owner's JS thread owns it.

import { closeSync, fchmodSync, fsync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FILE_MODE, syncDirectory } from './atomic-file.js';
import { frame, FRAME_HEADER, writeFrame } from './frames.js';

/** Entries are gathered into writes of about this size. */
const WRITE_BYTES = 1 << 20;
/** Width of the header's count: any count below 10^15 fits. */
const COUNT_WIDTH = 16;

export class SnapshotWrite {
  private readonly tmp: string;
  private readonly fd: number;
  private readonly headerJson: string;
  /** Frames are gathered here and written out when it is full: one copy each, and no garbage. */
  private readonly chunk = Buffer.allocUnsafe(WRITE_BYTES);
  private chunkBytes = 0;
  private count = 0;
  /** Bytes in the file so far. */
  bytes = 0;
  private state: 'writing' | 'syncing' | 'done' | 'abandoned' = 'writing';

  /** `header` gets its format's `countField` filled in at the end. */
  constructor(
    readonly path: string,
    header: Record<string, unknown>,
    private readonly countField: string,
    private readonly entries: Iterator<Buffer>,
  ) {
    this.tmp = `${path}.tmp`;
    this.headerJson = JSON.stringify(header);
    this.fd = openSync(this.tmp, 'w', FILE_MODE);
    try {
      fchmodSync(this.fd, FILE_MODE); // a leftover temp file keeps its own mode through open()
      this.put(this.headerFrame());
    } catch (e) {
      this.abandon();
      throw e;
    }
  }

  /** Writes entries until `budgetMs` have passed or none is left; true once none is left. */
  step(budgetMs: number): boolean {
    const until = performance.now() + budgetMs;
    // Checking the clock costs more than encoding a small entry: look every 64 entries.
    for (let n = 1; ; n++) {
      const next = this.entries.next();
      if (next.done === true) {
        this.putChunk();
        return true;
      }
      this.add(next.value);
      if (n % 64 === 0 && performance.now() >= until) break;
    }
    this.putChunk();
    return false;
  }

  /** Writes what is left, makes the file durable and puts it in place; returns its size. */
  finish(): number {
    while (!this.step(Infinity));
    this.sealHeader();
    fsyncSync(this.fd);
    return this.install();
  }

  /** As finish() once step() returned true, with the fsync (the slow part) off the JS thread. */
  finishInBackground(): Promise<number> {
    this.sealHeader();
    this.state = 'syncing';
    return new Promise((resolve, reject) =>
      fsync(this.fd, (err) => {
        if (this.state === 'abandoned') return this.discard(); // closed meanwhile: the temp file is garbage
        if (err !== null) {
          this.abandon();
          return reject(err);
        }
        try {
          resolve(this.install());
        } catch (e) {
          reject(e as Error);
        }
      }),
    );
  }

  /** Stops the write and deletes the temp file (once a background fsync has ended). */
  abandon(): void {
    if (this.state === 'done' || this.state === 'abandoned') return;
    const syncing = this.state === 'syncing';
    this.state = 'abandoned';
    this.entries.return?.();
    if (!syncing) this.discard();
  }

  private discard(): void {
    closeSync(this.fd);
    rmSync(this.tmp, { force: true });
  }

  private install(): number {
    this.state = 'done';
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
    syncDirectory(dirname(this.path));
    return this.bytes;
  }

  private headerFrame(): Buffer {
    const count = String(this.count).padStart(COUNT_WIDTH, ' '); // JSON allows spaces before a number
    return frame(Buffer.from(`${this.headerJson.slice(0, -1)},"${this.countField}":${count}}`));
  }

  /** Writes the header again, now with the count; it has the same length as the first one. */
  private sealHeader(): void {
    const header = this.headerFrame();
    for (let off = 0; off < header.length; ) off += writeSync(this.fd, header, off, header.length - off, off);
  }

  private add(payload: Buffer): void {
    this.count++;
    const size = FRAME_HEADER + payload.length;
    if (this.chunkBytes + size > this.chunk.length) this.putChunk();
    if (size > this.chunk.length) return this.put(frame(payload));
    this.chunkBytes += writeFrame(this.chunk, this.chunkBytes, payload);
  }

  /** Writes the gathered frames; the chunk is reused, as the write copies it. */
  private putChunk(): void {
    if (this.chunkBytes === 0) return;
    this.put(this.chunk.subarray(0, this.chunkBytes));
    this.chunkBytes = 0;
  }

  private put(data: Buffer): void {
    for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off);
    this.bytes += data.length;
  }
}

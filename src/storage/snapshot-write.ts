// One snapshot file being written, a slice at a time, while its owner goes on serving.
// The file is `<path>.tmp` until it is whole and fsynced, then renamed over `path` and the
// directory fsynced (atomic-file.ts's rule), so a crash leaves no half snapshot under the real
// name. The entries come from an iterator the owner keeps point-in-time (kv's keyspace encodes an
// entry before a command changes it); how many there are is known only at the end, so the header
// frame is written first with its count padded to a fixed width and written over once the
// count is known. In the background the writes, the fsync, the rename and the directory's fsync
// run off the JS thread, in that order: a write the kernel holds back (a disk behind on dirty
// pages) then delays the snapshot, not requests.
// Not safe for concurrent use; its owner's JS thread owns it.

import { close, closeSync, fchmodSync, fsync, fsyncSync, openSync, renameSync, rmSync, write, writeSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { FILE_MODE, syncDirectory, syncDirectoryInBackground } from './atomic-file.js';
import { frame, FRAME_HEADER, writeFrame } from './frames.js';

/** Entries are gathered into writes of about this size. */
const WRITE_BYTES = 1 << 20;
/** Width of the header's count: any count below 10^15 fits. */
const COUNT_WIDTH = 16;
/** What a background step answers when the write was abandoned while it ran. */
const ABANDONED = Symbol('abandoned');

const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);

export class SnapshotWrite {
  private readonly tmp: string;
  private readonly fd: number;
  private readonly headerJson: string;
  /** Frames are gathered here, one copy each, and handed to `gathered` when it is full. */
  private chunk = Buffer.allocUnsafe(WRITE_BYTES);
  private chunkBytes = 0;
  /** Full chunks (and frames too large for one) waiting to be written. */
  private gathered: Buffer[] = [];
  private count = 0;
  /** Bytes in the file so far. */
  bytes = 0;
  private state: 'writing' | 'done' | 'abandoned' = 'writing';
  /** A background write or fsync is running: the descriptor stays open until it ends. */
  private busy = false;

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

  /**
   * Encodes entries until `budgetMs` have passed, a chunk is full or none is left; true once
   * none is left. What it gathered is written by writeGathered or writeGatheredInBackground.
   */
  step(budgetMs: number): boolean {
    const until = performance.now() + budgetMs;
    // Checking the clock costs more than encoding a small entry: look every 64 entries.
    for (let n = 1; ; n++) {
      const next = this.entries.next();
      if (next.done === true) return true;
      this.add(next.value);
      if (this.gathered.length > 0 || (n % 64 === 0 && performance.now() >= until)) return false;
    }
  }

  writeGathered(): void {
    for (const data of this.takeGathered()) this.put(data);
  }

  async writeGatheredInBackground(): Promise<void> {
    for (const data of this.takeGathered()) {
      if (!(await this.writeInBackground(data, null))) return;
      this.bytes += data.length;
    }
  }

  /** Writes what is left, makes the file durable and puts it in place; returns its size. */
  finish(): number {
    for (let done = false; !done; ) {
      done = this.step(Infinity);
      this.writeGathered();
    }
    this.sealHeader();
    fsyncSync(this.fd);
    return this.install();
  }

  /**
   * As finish() once step() returned true and the gathered frames are written, every step off
   * the JS thread: with its owner's deletion of the old log, these held the event loop 72 to
   * 103 ms at the end of a 2M-key snapshot, a stall for every request waiting. Null when the
   * write was abandoned meanwhile.
   */
  async finishInBackground(): Promise<number | null> {
    if (!(await this.writeInBackground(this.headerFrame(), 0))) return null;
    if ((await this.offThread(() => fsyncAsync(this.fd))) === ABANDONED) return null;
    this.state = 'done';
    await closeAsync(this.fd);
    await rename(this.tmp, this.path);
    await syncDirectoryInBackground(dirname(this.path));
    return this.bytes;
  }

  /** Stops the write and deletes the temp file (once a background write or fsync has ended). */
  abandon(): void {
    if (this.state !== 'writing') return;
    this.state = 'abandoned';
    this.entries.return?.();
    if (!this.busy) this.discard();
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

  /** Writes all of `data` at `position` (null: where the file ends); false when the write was abandoned meanwhile. */
  private async writeInBackground(data: Buffer, position: number | null): Promise<boolean> {
    for (let off = 0; off < data.length; ) {
      const at = position === null ? null : position + off;
      const written = await this.offThread(() => writeAsync(this.fd, data, off, data.length - off, at));
      if (written === ABANDONED) return false;
      off += written.bytesWritten;
    }
    return true;
  }

  /**
   * Runs `io` with the descriptor held open until it ends. An abandon() meanwhile (or a failure)
   * deletes the temp file once it has; what was abandoned answers ABANDONED.
   */
  private async offThread<T>(io: () => Promise<T>): Promise<T | typeof ABANDONED> {
    this.busy = true;
    try {
      const out = await io();
      return this.state === 'abandoned' ? ABANDONED : out;
    } catch (err) {
      this.abandon();
      throw err;
    } finally {
      this.busy = false;
      if (this.state === 'abandoned') this.discard();
    }
  }

  private add(payload: Buffer): void {
    this.count++;
    const size = FRAME_HEADER + payload.length;
    if (this.chunkBytes + size > this.chunk.length) this.handOver();
    if (size > this.chunk.length) this.gathered.push(frame(payload));
    else this.chunkBytes += writeFrame(this.chunk, this.chunkBytes, payload);
  }

  /** Moves the chunk's frames to `gathered` and starts a new chunk. */
  private handOver(): void {
    if (this.chunkBytes === 0) return;
    this.gathered.push(this.chunk.subarray(0, this.chunkBytes));
    this.chunk = Buffer.allocUnsafe(WRITE_BYTES);
    this.chunkBytes = 0;
  }

  private takeGathered(): Buffer[] {
    this.handOver();
    const all = this.gathered;
    this.gathered = [];
    return all;
  }

  private put(data: Buffer): void {
    for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off);
    this.bytes += data.length;
  }
}

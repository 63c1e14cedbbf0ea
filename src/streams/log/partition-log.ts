// One partition: a list of segment files in <dir>, each named by its first offset padded to
// 20 digits (`00000000000000000000.log`), holding frames of record-codec payloads. Offsets
// are dense from the first kept one. Appends go to the last segment; a message is visible
// to readers (below the high watermark) only once an fdatasync covered it, so nothing a
// reader saw or a producer was told can vanish in a crash. Concurrent appends share one
// fdatasync (AppendLog.sync). Retention deletes whole old segments.
// Recovery cuts a torn tail of the last segment (storage/frames.ts has the rule); damage anywhere
// else, a bad record in an earlier segment included, is DamagedFileError, for `larder repair`.
// While the disk refuses writes, appends are refused before any offset is assigned
// (writeFailure); records a failed sync left pending keep their offsets and are written once
// the disk has room (AppendLog's rule), then made visible by the next check or append, so the
// offsets in memory and on disk never part.
// Reads go to the files: memory holds only, per segment, the file position of every
// POSITION_EVERY-th record, and the sparse time index, both rebuilt at open.
// Not safe for concurrent use; one JS thread owns it.

import { closeSync, openSync, readdirSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AppendLog } from '../../storage/append-log.js';
import { makeDirectory, syncDirectory } from '../../storage/atomic-file.js';
import { CorruptDataError, DamagedFileError, type LogFailedError } from '../../storage/errors.js';
import { FRAME_HEADER, readFrames } from '../../storage/frames.js';
import { decodeRecord, encodeRecord, recordHead, type StoredRecord } from './record-codec.js';
import { TimeIndex } from './time-index.js';

export interface PartitionSettings {
  retentionMs: number;
  retentionBytes: number;
  segmentBytes: number;
}

interface Segment {
  base: number;
  path: string;
  /** Bytes of whole frames in the file. */
  bytes: number;
  count: number;
  maxTimestamp: number;
  /** File position of record base + k * POSITION_EVERY, by k. */
  positions: number[];
}

const SEGMENT_SUFFIX = '.log';
const POSITION_EVERY = 32;
/** Bytes read from a segment at a time. */
const READ_CHUNK = 256 * 1024;
const segmentName = (base: number) => String(base).padStart(20, '0') + SEGMENT_SUFFIX;

export class PartitionLog {
  private readonly segments: Segment[] = [];
  private start = 0;
  /** The next offset to assign. */
  private next = 0;
  /** Offsets below this are durable and readable. */
  private highWatermark = 0;
  private active!: AppendLog;
  private readonly index = new TimeIndex();
  private readonly waiters = new Set<() => void>();
  /** Appends whose sync has not settled yet. */
  private unsettled = 0;

  private constructor(
    private readonly dir: string,
    public settings: PartitionSettings,
  ) {}

  /** Opens the partition in `dir` (creating it), recovering its segments. `warn` hears of cut tails. */
  static open(dir: string, settings: PartitionSettings, warn: (msg: string, cut: number) => void): PartitionLog {
    makeDirectory(dir);
    const p = new PartitionLog(dir, settings);
    const names = readdirSync(dir).filter((n) => n.endsWith(SEGMENT_SUFFIX)).sort();
    if (names.length === 0) names.push(segmentName(0));
    names.forEach((name, i) => {
      const path = join(dir, name);
      const base = Number(name.slice(0, -SEGMENT_SUFFIX.length));
      if (i === 0) p.start = p.next = base;
      else if (base !== p.next) throw new CorruptDataError(`${path}: segment starts at ${base}, expected ${p.next}`);
      let frames: Buffer[];
      if (i === names.length - 1) {
        const { log, recovered } = AppendLog.open(path, 'everysec');
        if (recovered.cutBytes > 0) warn(`${path}: cut a torn tail (${recovered.stop})`, recovered.cutBytes);
        p.active = log;
        frames = recovered.frames;
      } else {
        const data = readFileSync(path);
        const scan = readFrames(data);
        if (scan.stop !== undefined) throw new DamagedFileError(path, scan.validBytes, data.length - scan.validBytes, `${scan.stop}, in a segment a later one follows`);
        frames = scan.frames;
      }
      const seg: Segment = { base, path, bytes: 0, count: 0, maxTimestamp: -Infinity, positions: [] };
      for (const f of frames) {
        const head = recordHead(f);
        if (head.offset !== p.next) throw new CorruptDataError(`${path}: record with offset ${head.offset} where ${p.next} was expected`);
        p.add(seg, head.offset, head.timestamp, f.length + FRAME_HEADER);
      }
      p.segments.push(seg);
    });
    p.highWatermark = p.next;
    return p;
  }

  /** Writes what a failure held back, if it can now; the failure that still holds, or null. */
  writeFailure(): LogFailedError | null {
    const failure = this.active.retry();
    // Records a failed sync held back, and no append waits for: visible once a sync covers them.
    if (failure === null && this.unsettled === 0 && this.highWatermark < this.next) this.publish(this.next).catch(() => undefined);
    return failure;
  }

  get range(): { start: number; end: number } {
    return { start: this.start, end: this.highWatermark };
  }

  /**
   * Appends records (offsets are assigned here) and resolves once they are durable, which
   * is when readers see them. Returns the first offset at once.
   */
  append(messages: readonly Omit<StoredRecord, 'offset'>[]): { first: number; durable: Promise<void> } {
    const first = this.next;
    for (const m of messages) {
      if (this.tail().bytes >= this.settings.segmentBytes && this.tail().count > 0) this.roll();
      const payload = encodeRecord(m, this.next);
      this.active.append(payload);
      this.add(this.tail(), this.next, m.timestamp, payload.length + FRAME_HEADER);
    }
    this.unsettled++;
    const durable = this.publish(this.next).finally(() => this.unsettled--);
    return { first, durable };
  }

  /** Resolves once offsets below `end` are durable, having made them visible to readers. */
  private publish(end: number): Promise<void> {
    return this.active.sync().then(() => {
      if (end <= this.highWatermark) return;
      this.highWatermark = end;
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    });
  }

  /** Records from `offset` (or the first kept) below the high watermark, at most `max`. */
  read(offset: number, max: number): StoredRecord[] {
    let from = Math.max(offset, this.start);
    const to = Math.min(this.highWatermark, from + max);
    const out: StoredRecord[] = [];
    for (let s = this.segmentOf(from); from < to && s < this.segments.length; s++) {
      const seg = this.segments[s];
      const k = Math.floor((from - seg.base) / POSITION_EVERY);
      const records = readSegment(seg, seg.positions[k], seg.base + k * POSITION_EVERY, from, Math.min(to, seg.base + seg.count));
      out.push(...records);
      from += records.length;
    }
    return out;
  }

  /** Calls `wake` once, when the high watermark next moves; returns a cancel. */
  onAppend(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }

  /** The first offset whose timestamp is at least `timestamp`; the end when there is none. */
  offsetForTime(timestamp: number): number {
    for (let o = this.index.scanFrom(timestamp, this.start); o < this.highWatermark; ) {
      const batch = this.read(o, POSITION_EVERY);
      for (const r of batch) if (r.timestamp >= timestamp) return r.offset;
      o += batch.length;
    }
    return this.highWatermark;
  }

  /**
   * Deletes old segments by time and size. An active segment whose every message has
   * expired is rolled first, so it can go too; an empty active segment always stays.
   */
  enforceRetention(now: number): void {
    const { retentionMs, retentionBytes } = this.settings;
    if (retentionMs >= 0 && this.tail().count > 0 && this.tail().maxTimestamp < now - retentionMs && this.next === this.highWatermark) {
      this.roll();
    }
    let total = this.segments.reduce((n, s) => n + s.bytes, 0);
    let deleted = false;
    while (this.segments.length > 1) {
      const oldest = this.segments[0];
      const expired = retentionMs >= 0 && oldest.maxTimestamp < now - retentionMs;
      const oversize = retentionBytes >= 0 && total - oldest.bytes >= retentionBytes;
      if (!expired && !oversize) break;
      unlinkSync(oldest.path);
      this.segments.shift();
      total -= oldest.bytes;
      this.start += oldest.count;
      deleted = true;
    }
    if (!deleted) return;
    syncDirectory(this.dir);
    this.index.dropBefore(this.start);
  }

  close(): void {
    this.active.close();
  }

  private tail(): Segment {
    return this.segments[this.segments.length - 1];
  }

  /** Index of the segment holding `offset` (the last one when past the end). */
  private segmentOf(offset: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.segments[mid].base <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private add(seg: Segment, offset: number, timestamp: number, bytes: number): void {
    if (seg.count % POSITION_EVERY === 0) seg.positions.push(seg.bytes);
    this.index.add(offset, timestamp);
    seg.bytes += bytes;
    seg.count++;
    if (timestamp > seg.maxTimestamp) seg.maxTimestamp = timestamp;
    this.next = offset + 1;
  }

  /** Closes the active segment (flushed and fsynced) and starts the next one. */
  private roll(): void {
    // A flush the disk refuses throws with the segment still open, keeping its frames to retry.
    this.active.flush();
    this.active.close();
    const path = join(this.dir, segmentName(this.next));
    this.active = AppendLog.open(path, 'everysec').log;
    this.segments.push({ base: this.next, path, bytes: 0, count: 0, maxTimestamp: -Infinity, positions: [] });
  }
}

/** Records [from, to) of a segment, scanning from the record `at` which starts at byte `position`. */
function readSegment(seg: Segment, position: number, at: number, from: number, to: number): StoredRecord[] {
  const out: StoredRecord[] = [];
  const fd = openSync(seg.path, 'r');
  try {
    let chunk = READ_CHUNK;
    while (at < to && position < seg.bytes) {
      const buf = Buffer.allocUnsafe(Math.min(chunk, seg.bytes - position));
      const got = readSync(fd, buf, 0, buf.length, position);
      const scan = readFrames(buf.subarray(0, got));
      if (scan.frames.length === 0) {
        // One frame larger than the chunk: read it whole next time.
        if (got >= FRAME_HEADER && chunk < buf.readUInt32LE(0) + FRAME_HEADER) chunk = buf.readUInt32LE(0) + FRAME_HEADER;
        else throw new CorruptDataError(`${seg.path}: unreadable frame at byte ${position}`);
        continue;
      }
      for (const f of scan.frames) {
        if (at >= to) break;
        if (at >= from) out.push(decodeRecord(f));
        at++;
      }
      position += scan.validBytes;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

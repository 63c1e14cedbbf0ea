// <dataDir>/queue/events.log and events.prev.log: the events of /v2/logs, one JSON event per
// frame (storage/frames.ts), appended to events.log as they happen, so the logs read the same
// after a restart or a crash. The owner (event-log.ts) keeps them bounded by rotating: a full
// events.log is renamed over events.prev.log and a new one begun, which costs a rename and a
// file creation however many events there are (rewriting the kept events held the thread for
// tens of milliseconds every time). Events are diagnostics, not state: they are written once
// per tick rather than with each store write, always under `everysec` (written frames survive
// kill -9; a power loss may cost the last second). While the disk refuses writes (full, a
// quota), the events of each failed write stay in memory only and writing goes on once it
// can, logged once per failing spell; any other failure is logged once and ends the writing,
// never the service.
// Not safe for concurrent use; the service's JS thread owns it.

import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../server/log.js';
import { AppendLog } from '../../storage/append-log.js';
import { replaceFile } from '../../storage/atomic-file.js';
import { LogFailedError } from '../../storage/errors.js';
import { frame, readFrames } from '../../storage/frames.js';
import type { QueueEvent } from './event-log.js';

const encode = (e: QueueEvent) => Buffer.from(JSON.stringify(e));

const CURRENT = 'events.log';
const PREVIOUS = 'events.prev.log';

export class EventFile {
  private flushQueued = false;
  private stopped = false;
  /** Whether the disk refused the last write (logged once until a write succeeds). */
  private refused = false;

  private constructor(
    private log: AppendLog,
    private readonly previous: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens (or creates) the files in `dir`: the events they hold, oldest first, and how many of
   * them are in events.log. A torn tail is cut and reported.
   */
  static open(dir: string, logger: Logger): { file: EventFile; events: QueueEvent[]; current: number } {
    const previous = join(dir, PREVIOUS);
    const older = existsSync(previous) ? readPrevious(previous, logger) : [];
    const path = join(dir, CURRENT);
    const { log, recovered } = AppendLog.open(path, 'everysec');
    if (recovered.cutBytes > 0) logger.warn({ file: path, cutBytes: recovered.cutBytes, reason: recovered.stop }, 'queue event log had an invalid tail; cut it');
    const current = parse(recovered.frames, path, logger);
    return { file: new EventFile(log, previous, logger), events: older.concat(current), current: current.length };
  }

  /** Appends one event; it is written at the end of the current tick, with the others of that tick. */
  append(e: QueueEvent): void {
    if (this.stopped) return;
    this.log.append(encode(e));
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.guard(() => this.log.flush());
    });
  }

  /** events.log becomes events.prev.log (the one before goes) and a new events.log begins. */
  rotate(): void {
    this.guard(() => {
      const path = this.log.path;
      this.log.flush(); // a disk that refuses it throws here, the log still open
      this.log.closeInBackground();
      renameSync(path, this.previous);
      this.log = AppendLog.open(path, 'everysec').log;
    });
  }

  /** Replaces both files with `events` in events.prev.log and an empty events.log (at start, to a smaller bound). */
  replace(events: readonly QueueEvent[]): void {
    this.guard(() => {
      const path = this.log.path;
      this.log.close();
      replaceFile(this.previous, (write) => {
        for (const e of events) write(frame(encode(e)));
      });
      replaceFile(path, () => undefined);
      this.log = AppendLog.open(path, 'everysec').log;
    });
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      this.log.close();
    } catch (err) {
      this.logger.error({ err, file: this.log.path }, 'queue event log could not be closed; the newest events may be lost');
    }
  }

  private guard(write: () => void): void {
    if (this.stopped) return;
    try {
      write();
      this.refused = false;
    } catch (err) {
      if (err instanceof LogFailedError) {
        this.log.discardPending();
        if (!this.refused) this.logger.warn({ err, file: this.log.path }, 'queue event log cannot be written; new events stay in memory until it can');
        this.refused = true;
        return;
      }
      this.stopped = true;
      this.logger.error({ err, file: this.log.path }, 'queue event log failed; /v2/logs keeps events in memory only until Larder restarts');
    }
  }
}

/** events.prev.log is never written again: an invalid tail is reported and left in place. */
function readPrevious(path: string, logger: Logger): QueueEvent[] {
  const data = readFileSync(path);
  const scan = readFrames(data);
  if (scan.validBytes < data.length) logger.warn({ file: path, invalidBytes: data.length - scan.validBytes, reason: scan.stop }, 'queue event log had an invalid tail; read the events before it');
  return parse(scan.frames, path, logger);
}

function parse(frames: readonly Buffer[], file: string, logger: Logger): QueueEvent[] {
  const events: QueueEvent[] = [];
  let unreadable = 0;
  for (const payload of frames) {
    try {
      events.push(JSON.parse(payload.toString('utf8')) as QueueEvent);
    } catch {
      unreadable++;
    }
  }
  if (unreadable > 0) logger.warn({ file, unreadable }, 'queue event log held frames that are not events; skipped them');
  return events;
}

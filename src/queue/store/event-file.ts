// <dataDir>/queue/events.log: the events of /v2/logs, one JSON event per frame (storage/frames.ts),
// appended as they happen, so the logs read the same after a restart or a crash. The owner
// (event-log.ts) keeps it bounded by replacing it, atomically, with the events it keeps.
// Events are diagnostics, not state: they are written once per tick rather than with each
// store write, always under `everysec` (written frames survive kill -9; a power loss may cost
// the last second), and a failed write is logged once and ends the writing, never the service.
// Not safe for concurrent use; the service's JS thread owns it.

import type { Logger } from '../../server/log.js';
import { AppendLog } from '../../storage/append-log.js';
import { replaceFile } from '../../storage/atomic-file.js';
import { frame } from '../../storage/frames.js';
import type { QueueEvent } from './event-log.js';

const encode = (e: QueueEvent) => Buffer.from(JSON.stringify(e));

export class EventFile {
  private flushQueued = false;
  private stopped = false;

  private constructor(
    private log: AppendLog,
    private readonly logger: Logger,
  ) {}

  /** Opens (or creates) the file; the events it holds, oldest first. A torn tail is cut and reported. */
  static open(path: string, logger: Logger): { file: EventFile; events: QueueEvent[] } {
    const { log, recovered } = AppendLog.open(path, 'everysec');
    if (recovered.cutBytes > 0) logger.warn({ file: path, cutBytes: recovered.cutBytes, reason: recovered.stop }, 'queue event log had an invalid tail; cut it');
    const events: QueueEvent[] = [];
    let unreadable = 0;
    for (const payload of recovered.frames) {
      try {
        events.push(JSON.parse(payload.toString('utf8')) as QueueEvent);
      } catch {
        unreadable++;
      }
    }
    if (unreadable > 0) logger.warn({ file: path, unreadable }, 'queue event log held frames that are not events; skipped them');
    return { file: new EventFile(log, logger), events };
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

  /** Replaces the file with `events` (temp file, fsync, rename), and appends after them. */
  replace(events: readonly QueueEvent[]): void {
    if (this.stopped) return;
    this.guard(() => {
      const path = this.log.path;
      this.log.close();
      replaceFile(path, (write) => {
        for (const e of events) write(frame(encode(e)));
      });
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
    } catch (err) {
      this.stopped = true;
      this.logger.error({ err, file: this.log.path }, 'queue event log failed; /v2/logs keeps events in memory only until Larder restarts');
    }
  }
}

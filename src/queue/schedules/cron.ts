// Cron expressions as QStash takes them in Upstash-Cron: five fields (minute hour day month
// weekday), evaluated in UTC unless prefixed `CRON_TZ=<IANA zone> ` (or `TZ=`). Larder also
// takes six fields, seconds first, which the service does not (its resolution is a minute):
// local development and tests then need not wait minutes. Parsing and next times are croner's.

import { Cron } from 'croner';
import { invalidCron, type QueueError } from '../errors.js';

export interface CronSchedule {
  /** The first time strictly after `afterMs` (ms), or null when there is none. */
  next(afterMs: number): number | null;
}

const ZONE_PREFIX = /^\s*(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/;

/** Parses `text`; `nowMs` checks that it fires at all from now on (and that its zone exists). */
export function parseCron(text: string, nowMs: number): CronSchedule | QueueError {
  const zoned = ZONE_PREFIX.exec(text);
  const pattern = (zoned === null ? text : zoned[2]).trim();
  const timezone = zoned?.[1] ?? 'UTC';
  let cron: Cron;
  try {
    cron = new Cron(pattern, { timezone, mode: '5-or-6-parts' });
    // A bad zone shows only when a time is computed.
    if (cron.nextRun(new Date(nowMs)) === null) return invalidCron(text, 'it never fires');
  } catch (e) {
    return invalidCron(text, (e as Error).message);
  }
  return { next: (afterMs) => cron.nextRun(new Date(afterMs))?.getTime() ?? null };
}

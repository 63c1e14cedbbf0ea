// A schedule: a cron expression and the message it publishes each time it fires, to a URL or
// to every endpoint of a URL group. The template is the message a publish with the same
// headers and body would make; each firing copies it with a fresh id and times.

import { randomBytes } from 'node:crypto';
import type { QueueMessage } from './message.js';

export interface Schedule {
  id: string;
  /** As given, with its CRON_TZ= prefix if any. */
  cron: string;
  /** A URL, or a URL group's name. */
  destination: string;
  createdAt: number;
  paused: boolean;
  /** Upstash-Delay of each fired message. */
  delayMs: number;
  /** The message to publish; its id, url and times are replaced on each firing. */
  template: QueueMessage;
  /** When it last fired (ms). */
  lastScheduleTime?: number;
}

export const newScheduleId = () => `scd_${randomBytes(18).toString('base64url')}`;

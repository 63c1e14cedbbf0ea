// What the console's admin endpoints answer: shared by the server (index.ts) and the page
// (app/), so both sides agree on one shape. Types only.

import type { ServiceFigures } from '../server/request-metrics.js';

/** GET /console/api/info. URLs are paths on the console's own origin. */
export interface ConsoleInfo {
  /** The read-only admin token was sent: every token below is a read-only one. */
  readonly readOnly: boolean;
  readonly kv: readonly { readonly db: string; readonly url: string; readonly token: string }[];
  /** Stream clusters have no read-only credentials: a read-only console gets no password. */
  readonly streams: readonly { readonly cluster: string; readonly url: string; readonly username: string | null; readonly password: string | null }[];
  readonly vector: readonly { readonly index: string; readonly url: string; readonly token: string }[];
  readonly queue: { readonly url: string; readonly token: string } | null;
}

/** GET /console/api/metrics: each service's totals since start; the page turns them into rates. */
export interface ConsoleMetrics {
  /** Server clock, ms since the epoch. */
  readonly at: number;
  readonly services: readonly ServiceFigures[];
}

/** Every console error: `{error, status}`, as the stream, vector and queue services answer. */
export interface ConsoleError {
  readonly error: string;
  readonly status: number;
}

/** GET /console/api/streams/<cluster>: what the stream REST API does not report (retention, group positions). */
export interface ConsoleStreams {
  readonly topics: readonly ConsoleTopic[];
  readonly groups: readonly ConsoleGroup[];
}

export interface ConsoleTopic {
  readonly topic: string;
  /** Retention limits as the topic's settings hold them; -1 means none. */
  readonly retentionMs: number;
  readonly retentionBytes: number;
  readonly segmentBytes: number;
  /** One per partition, in order: the first offset kept and the next to be written. */
  readonly partitions: readonly { readonly partition: number; readonly earliest: number; readonly latest: number }[];
}

export interface ConsoleGroup {
  readonly group: string;
  readonly instances: readonly {
    readonly instance: string;
    /** Server clock, ms since the epoch. */
    readonly lastSeen: number;
    /** The partitions assigned to it now. */
    readonly partitions: readonly ConsoleAssignment[];
  }[];
}

export interface ConsoleAssignment {
  readonly topic: string;
  readonly partition: number;
  /** The group's committed offset; null when nothing is committed. */
  readonly committed: number | null;
  /** The next offset this instance delivers; null before its first consume of the partition. */
  readonly position: number | null;
  readonly latest: number;
  /** latest minus committed (minus the earliest offset kept when nothing is committed). */
  readonly lag: number;
}

/** GET /console/api/queue/messages?cursor=&count=: messages not yet delivered, by next delivery time. */
export interface ConsolePendingPage {
  readonly messages: readonly ConsolePendingMessage[];
  /** Present when there are more: pass it back as `cursor`. */
  readonly cursor?: string;
}

export interface ConsolePendingMessage {
  readonly messageId: string;
  /** IN_PROGRESS: an attempt is running now; RETRY: an attempt failed and another is due; CREATED: not tried yet. */
  readonly state: 'IN_PROGRESS' | 'RETRY' | 'CREATED';
  readonly url: string;
  readonly method: string;
  readonly queueName?: string;
  /** Failed attempts so far, and how many retries it is allowed. */
  readonly retried: number;
  readonly retries: number;
  readonly createdAt: number;
  /** When the next attempt is due (ms since the epoch). */
  readonly nextDeliveryAt: number;
}

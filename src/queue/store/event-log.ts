// The logs of /v2/events and /v2/logs: one event per state change of a message, newest last.
// The newest `max` are answered. Memory and the events files (event-file.ts) hold the same
// events, fewer than 2·`max`: the previous `max` and the current ones; when the current reach
// `max`, the file rotates and the previous go, so a restart answers as before.
// Each event carries the message's headers and body as the API shows them (redacted per
// Upstash-Redact-Fields, credential headers always); bodies over LOG_BODY_BYTES are left out, so the log's memory and
// file stay bounded however large messages are.

import type { QueueMessage } from './message.js';
import { matches, type RecordFilter } from './record-filter.js';
import { shownBody, shownHeaders, type CredentialHeaders } from './redaction.js';

export type State = 'CREATED' | 'ACTIVE' | 'IN_PROGRESS' | 'DELIVERED' | 'ERROR' | 'RETRY' | 'FAILED' | 'CANCELED';

export interface QueueEvent {
  time: number;
  state: State;
  messageId: string;
  url: string;
  topicName?: string;
  endpointName?: string;
  queueName?: string;
  scheduleId?: string;
  callerIp?: string;
  flowControlKey?: string;
  labels?: string[];
  label?: string;
  nextDeliveryTime?: number;
  error?: string;
  responseStatus?: number;
  header?: Record<string, string>;
  /** base64 */
  body?: string;
}

/** Where the events are kept besides memory: event-file.ts (embedded) or postgres/event-table.ts. */
export interface EventSink {
  /** Keeps one more event (soon; never throws). */
  append(e: QueueEvent): void;
  /** The current events become the previous ones; those before go. */
  rotate(): void;
  /** Keeps exactly `events` (at start, to a smaller bound). */
  replace(events: readonly QueueEvent[]): void;
  close(): void;
}

/** Bodies up to this size (base64 characters) are kept in the log. */
const LOG_BODY_BYTES = 2048;

export class EventLog {
  /**
   * `events` are those `file` held at start (oldest first), the last `current` of them in its
   * current file; without a file the log lives in memory only.
   */
  constructor(
    private readonly now: () => number,
    private readonly max: number,
    private readonly credentials: CredentialHeaders,
    private readonly file: EventSink | null = null,
    private events: QueueEvent[] = [],
    private current = events.length,
  ) {
    // Files written under a larger bound, or by a Larder that rewrote one file, start over.
    if (current >= max || events.length - current > max) {
      this.events = events.slice(Math.max(0, events.length - max));
      this.current = 0;
      file?.replace(this.events);
    }
  }

  add(state: State, m: QueueMessage, extra: Partial<QueueEvent> = {}): void {
    const e: QueueEvent = { time: this.now(), state, messageId: m.id, url: m.url, ...extra };
    if (m.topicName !== undefined) e.topicName = m.topicName;
    if (m.endpointName !== undefined) e.endpointName = m.endpointName;
    if (m.queueName !== undefined) e.queueName = m.queueName;
    if (m.scheduleId !== undefined) e.scheduleId = m.scheduleId;
    e.callerIp = m.callerIp;
    if (m.flowControl !== undefined) e.flowControlKey = m.flowControl.key;
    if (m.labels !== undefined && m.labels.length > 0) {
      e.labels = m.labels;
      e.label = m.labels[0];
    }
    e.header = shownHeaders(m, this.credentials);
    const body = shownBody(m, this.credentials);
    if (body.length <= LOG_BODY_BYTES) e.body = body;
    this.file?.append(e);
    this.keep(e);
  }

  /** An event another process logged (engine postgres): kept in memory, its sink already holds it. */
  receive(e: QueueEvent): void {
    this.keep(e);
  }

  private keep(e: QueueEvent): void {
    this.events.push(e);
    if (++this.current < this.max) return;
    this.file?.rotate();
    this.events = this.events.slice(this.events.length - this.max);
    this.current = 0;
  }

  close(): void {
    this.file?.close();
  }

  /** Newest first: up to `count` matching events from `cursor` (an offset from the newest), and the next cursor. */
  list(filter: RecordFilter, count: number, cursor: number): { events: QueueEvent[]; cursor?: string } {
    const out: QueueEvent[] = [];
    const oldest = Math.max(0, this.events.length - this.max);
    let i = this.events.length - 1 - cursor;
    for (; i >= oldest && out.length < count; i--) {
      const e = this.events[i];
      if (matches(e, filter)) out.push(e);
    }
    return i >= oldest ? { events: out, cursor: String(this.events.length - 1 - i) } : { events: out };
  }
}

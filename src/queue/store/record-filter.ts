// The filters of the logs, the DLQ and bulk cancel, and the one matcher for events, waiting
// messages and dead letters. A field given several values matches a record that has one of them
// (OR); different fields must all match (AND); fromDate/toDate bound the record's time (ms).

import type { State } from './event-log.js';
import type { DlqEntry, QueueMessage } from './message.js';

export const FILTER_FIELDS = [
  'state',
  'messageId',
  'url',
  'topicName',
  'scheduleId',
  'queueName',
  'callerIp',
  'flowControlKey',
  'label',
  'host',
  'path',
  'responseStatus',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

export type RecordFilter = Partial<Record<FilterField, string[]>> & { fromDate?: number; toDate?: number };

/** What a record offers to the filters: a log event is one as it is. */
export interface Filterable {
  /** The event's time, a message's creation, a dead letter's failure (ms). */
  time: number;
  messageId: string;
  url: string;
  topicName?: string;
  scheduleId?: string;
  queueName?: string;
  callerIp?: string;
  flowControlKey?: string;
  labels?: string[];
  state?: State;
  responseStatus?: number;
}

/** The filter state=IN_PROGRESS matches every state of a message still on its way. */
const IN_PROGRESS = new Set<State>(['ACTIVE', 'RETRY', 'ERROR']);

export function matches(r: Filterable, f: RecordFilter): boolean {
  for (const field of FILTER_FIELDS) {
    const wanted = f[field];
    if (wanted !== undefined && !valuesOf(r, field).some((v) => wanted.includes(v))) return false;
  }
  return (f.fromDate === undefined || r.time >= f.fromDate) && (f.toDate === undefined || r.time <= f.toDate);
}

export function messageFilterable(m: QueueMessage): Filterable {
  return { ...m, time: m.createdAt, messageId: m.id, flowControlKey: m.flowControl?.key };
}

export function dlqFilterable(e: DlqEntry): Filterable {
  return { ...messageFilterable(e.message), time: e.failedAt, responseStatus: e.response.status };
}

/** What a record offers to one filter field. */
function valuesOf(r: Filterable, field: FilterField): readonly string[] {
  switch (field) {
    case 'state':
      return r.state === undefined ? [] : IN_PROGRESS.has(r.state) ? [r.state, 'IN_PROGRESS'] : [r.state];
    case 'label':
      return r.labels ?? [];
    case 'host':
    case 'path': {
      let u: URL;
      try {
        u = new URL(r.url);
      } catch {
        return [];
      }
      // That host, named with or without its port; that exact path.
      return field === 'host' ? [u.host, u.hostname] : [u.pathname];
    }
    default: {
      const v = r[field];
      return v === undefined ? [] : [String(v)];
    }
  }
}

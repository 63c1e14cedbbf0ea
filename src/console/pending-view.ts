// GET /console/api/queue/messages?cursor=&count=: the queue's messages not yet delivered,
// ordered by when their next attempt is due, a page at a time (the queue REST API has no list
// of them). The cursor is a position in that order, so a page may repeat or skip a message
// that was published or finished between two reads.

import type { PendingMessage } from '../queue/index.js';
import type { ConsolePendingMessage, ConsolePendingPage } from './wire.js';

export const PENDING_PAGE = 50;
const MAX_PAGE = 1000;

export function pendingView(all: Iterable<PendingMessage>, cursor: number, count: number): ConsolePendingPage {
  const sorted = [...all].sort((a, b) => a.notBefore - b.notBefore || (a.id < b.id ? -1 : 1));
  const size = Math.min(Math.max(count, 1), MAX_PAGE);
  const messages = sorted.slice(cursor, cursor + size).map((m): ConsolePendingMessage => ({
    messageId: m.id,
    state: m.delivering ? 'IN_PROGRESS' : m.retried > 0 ? 'RETRY' : 'CREATED',
    url: m.url,
    method: m.method,
    ...(m.queueName !== undefined && { queueName: m.queueName }),
    retried: m.retried,
    retries: m.retries,
    createdAt: m.createdAt,
    nextDeliveryAt: m.notBefore,
  }));
  return cursor + size < sorted.length ? { messages, cursor: String(cursor + size) } : { messages };
}

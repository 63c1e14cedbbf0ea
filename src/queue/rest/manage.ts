// Management: messages (get, cancel one, cancel many), the dead-letter queue (list, get,
// delete, retry), signing keys, and the logs at /v2/events and /v2/logs.

import type { HttpResponse } from '../../server/http.js';
import { percentDecode } from '../../server/url.js';
import { badRequest, isError } from '../errors.js';
import { LIST_FILTERS, type EventFilter } from '../store/event-log.js';
import type { DlqEntry, QueueMessage } from '../store/message.js';
import { workflowDlqListCommand } from '../workflow/dlq-api.js';
import { fail, ok } from './envelope.js';
import { dlqJson, messageJson } from './message-json.js';
import { query, queryAll, type Call } from './request.js';

const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;

/** The first path segment after the group, decoded; '' when none. */
const idOf = (call: Call) => Buffer.from(percentDecode(call.rest.split('/')[0] ?? ''), 'latin1').toString('utf8');

// GET /v2/messages/{id}
export function getMessageCommand(call: Call): HttpResponse {
  const m = call.ctx.engine.message(idOf(call));
  return isError(m) ? fail(m) : ok(messageJson(m, call.ctx.credentials));
}

// DELETE /v2/messages/{id} | DELETE /v2/messages?messageIds=...|filters
export function cancelCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const id = idOf(call);
  if (id !== '') {
    const err = engine.cancel(id);
    return err === null ? ok({ cancelled: 1 }) : fail(err);
  }
  const ids = queryAll(call, 'messageIds');
  const targets = ids.length > 0 ? ids : [...engine.store.pending()].filter((m) => matchesMessage(m, call)).map((m) => m.id);
  let cancelled = 0;
  for (const t of targets) if (engine.cancel(t) === null) cancelled++;
  return ok({ cancelled });
}

// GET /v2/dlq?cursor=&count=&dlqIds=&url=&label=&queueName=&topicName=
export function listDlqCommand(call: Call): HttpResponse {
  if (query(call, 'source') === 'workflow') return workflowDlqListCommand(call);
  const count = countOf(call);
  if (isError(count)) return fail(count);
  const cursor = Number(query(call, 'cursor') ?? 0) || 0;
  const ids = new Set(queryAll(call, 'dlqIds'));
  const all = [...call.ctx.engine.store.dlq()].filter((e) => (ids.size === 0 ? matchesMessage(e.message, call) : ids.has(e.dlqId)));
  const page = all.slice(cursor, cursor + count);
  const next = cursor + count < all.length ? { cursor: String(cursor + count) } : {};
  return ok({ messages: page.map((e) => dlqJson(e, call.ctx.credentials)), ...next });
}

// GET /v2/dlq/{dlqId}
export function getDlqCommand(call: Call): HttpResponse {
  const e = call.ctx.engine.dlqEntry(idOf(call));
  return isError(e) ? fail(e) : ok(dlqJson(e, call.ctx.credentials));
}

// DELETE /v2/dlq/{dlqId} | DELETE /v2/dlq?dlqIds=...|filters
export function deleteDlqCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const id = idOf(call);
  if (id !== '') {
    const err = engine.deleteDlq(id);
    return err === null ? ok({ deleted: 1 }) : fail(err);
  }
  let deleted = 0;
  for (const e of dlqTargets(call)) if (engine.deleteDlq(e.dlqId) === null) deleted++;
  return ok({ deleted });
}

// POST /v2/dlq/retry/{dlqId} | POST /v2/dlq/retry?dlqIds=...|filters
export function retryDlqCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const rest = call.rest.split('/');
  const one = rest[0] === 'retry' && rest[1] !== undefined && rest[1] !== '' ? Buffer.from(percentDecode(rest[1]), 'latin1').toString('utf8') : undefined;
  if (one !== undefined) {
    const out = engine.retryDlq(one);
    return isError(out) ? fail(out) : ok({ responses: [out] });
  }
  const responses = [];
  for (const e of dlqTargets(call)) {
    const out = engine.retryDlq(e.dlqId);
    if (!isError(out)) responses.push(out);
  }
  return ok({ responses });
}

// GET /v2/keys
export function keysCommand(call: Call): HttpResponse {
  return ok(call.ctx.engine.keys());
}

// POST /v2/keys/rotate
export function rotateKeysCommand(call: Call): HttpResponse {
  const keys = call.ctx.engine.rotateKeys();
  return isError(keys) ? fail(keys) : ok(keys);
}

// GET /v2/events | /v2/logs ?messageIds=&state=&messageId=&url=&topicName=&scheduleId=&queueName=&callerIp=
//   &flowControlKey=&label=&host=&path=&fromDate=&toDate=&count=&cursor=   (each list filter repeatable)
export function eventsCommand(call: Call): HttpResponse {
  const count = countOf(call);
  if (isError(count)) return fail(count);
  const filter: EventFilter = {};
  for (const k of LIST_FILTERS) {
    const v = queryAll(call, k);
    if (v.length > 0) filter[k] = v;
  }
  // The SDK sends `messageIds` (at the request's root) rather than the filter's `messageId`.
  const ids = queryAll(call, 'messageIds');
  if (ids.length > 0) filter.messageId = [...(filter.messageId ?? []), ...ids];
  for (const k of ['fromDate', 'toDate'] as const) {
    const v = query(call, k);
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) return fail(badRequest(`${k} must be a unix time in ms`));
    filter[k] = Number(v);
  }
  const cursor = Number(query(call, 'cursor') ?? 0) || 0;
  return ok(call.ctx.engine.events.list(filter, count, cursor));
}

function dlqTargets(call: Call): DlqEntry[] {
  const ids = new Set(queryAll(call, 'dlqIds'));
  return [...call.ctx.engine.store.dlq()].filter((e) => (ids.size === 0 ? matchesMessage(e.message, call) : ids.has(e.dlqId)));
}

/** The filters the SDK sends for bulk actions and lists: url, label, queueName, topicName, flowControlKey (several values OR). */
function matchesMessage(m: QueueMessage, call: Call): boolean {
  const test = (name: string, value: string | undefined) => {
    const wanted = queryAll(call, name);
    return wanted.length === 0 || (value !== undefined && wanted.includes(value));
  };
  const labels = queryAll(call, 'label');
  return (
    test('url', m.url) &&
    test('queueName', m.queueName) &&
    test('topicName', m.topicName) &&
    test('flowControlKey', m.flowControl?.key) &&
    (labels.length === 0 || (m.labels ?? []).some((l) => labels.includes(l)))
  );
}

function countOf(call: Call): number | ReturnType<typeof badRequest> {
  const v = query(call, 'count');
  if (v === undefined) return DEFAULT_COUNT;
  if (!/^\d+$/.test(v) || Number(v) === 0) return badRequest('count must be a positive integer');
  return Math.min(MAX_COUNT, Number(v));
}

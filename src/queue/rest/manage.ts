// Management: messages (get, cancel one, cancel many), the dead-letter queue (list, get,
// delete, retry), signing keys, and the logs at /v2/events and /v2/logs.

import type { HttpResponse } from '../../server/http.js';
import { percentDecode } from '../../server/url.js';
import { isError, type QueueError } from '../errors.js';
import type { DlqEntry } from '../store/message.js';
import { dlqFilterable, matches, messageFilterable } from '../store/record-filter.js';
import { workflowDlqListCommand } from '../workflow/dlq-api.js';
import { fail, ok } from './envelope.js';
import { dlqJson, messageJson } from './message-json.js';
import { CANCEL_QUERY, DLQ_QUERY, LIST_COUNT, LOG_QUERY, pageOf, readListQuery, timePosition, type ListQuery } from './list-query.js';
import { query, type Call } from './request.js';

/** A bulk action given no count acts on every match, as the service's cancel does (the SDK always sends one). */
const EVERY_MATCH = Infinity;

/** A bulk or list answer, with the cursor to continue from while more match. */
const withCursor = <T extends object>(answer: T, cursor: string | undefined) => (cursor === undefined ? answer : { ...answer, cursor });

/** The first path segment after the group, decoded; '' when none. */
const idOf = (call: Call) => Buffer.from(percentDecode(call.rest.split('/')[0] ?? ''), 'latin1').toString('utf8');

// GET /v2/messages/{id}
export function getMessageCommand(call: Call): HttpResponse {
  const m = call.ctx.engine.message(idOf(call));
  return isError(m) ? fail(m) : ok(messageJson(m, call.ctx.credentials));
}

// DELETE /v2/messages/{id} | DELETE /v2/messages?messageIds=...|filters&count=&cursor=
export function cancelCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const id = idOf(call);
  if (id !== '') {
    const err = engine.cancel(id);
    return err === null ? ok({ cancelled: 1 }) : fail(err);
  }
  const q = readListQuery(call, CANCEL_QUERY);
  if (isError(q)) return fail(q);
  const { page, cursor } = q.ids.length > 0 ? { page: q.ids, cursor: undefined } : pendingPage(call, q);
  let cancelled = 0;
  for (const t of page) if (engine.cancel(t) === null) cancelled++;
  return ok(withCursor({ cancelled }, cursor));
}

/** The ids of up to `count` waiting messages matching the filter, oldest first. */
function pendingPage(call: Call, q: ListQuery): { page: string[]; cursor?: string } {
  const matching = [...call.ctx.engine.store.pending()].filter((m) => matches(messageFilterable(m), q.filter));
  const { page, cursor } = pageOf(matching, (m) => timePosition(m.createdAt, m.id), q.count ?? EVERY_MATCH, q.cursor);
  return { page: page.map((m) => m.id), ...(cursor !== undefined && { cursor }) };
}

// GET /v2/dlq?cursor=&count=&dlqIds=|filters
export function listDlqCommand(call: Call): HttpResponse {
  if (query(call, 'source') === 'workflow') return workflowDlqListCommand(call);
  const page = dlqPage(call, LIST_COUNT);
  return isError(page) ? fail(page) : ok(withCursor({ messages: page.page.map((e) => dlqJson(e, call.ctx.credentials)) }, page.cursor));
}

// GET /v2/dlq/{dlqId}
export function getDlqCommand(call: Call): HttpResponse {
  const e = call.ctx.engine.dlqEntry(idOf(call));
  return isError(e) ? fail(e) : ok(dlqJson(e, call.ctx.credentials));
}

// DELETE /v2/dlq/{dlqId} | DELETE /v2/dlq?dlqIds=...|filters&count=&cursor=
export function deleteDlqCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const id = idOf(call);
  if (id !== '') {
    const err = engine.deleteDlq(id);
    return err === null ? ok({ deleted: 1 }) : fail(err);
  }
  const targets = dlqPage(call, EVERY_MATCH);
  if (isError(targets)) return fail(targets);
  let deleted = 0;
  for (const e of targets.page) if (engine.deleteDlq(e.dlqId) === null) deleted++;
  return ok(withCursor({ deleted }, targets.cursor));
}

// POST /v2/dlq/retry/{dlqId} | POST /v2/dlq/retry?dlqIds=...|filters&count=&cursor=
export function retryDlqCommand(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const rest = call.rest.split('/');
  const one = rest[0] === 'retry' && rest[1] !== undefined && rest[1] !== '' ? Buffer.from(percentDecode(rest[1]), 'latin1').toString('utf8') : undefined;
  if (one !== undefined) {
    const out = engine.retryDlq(one);
    return isError(out) ? fail(out) : ok({ responses: [out] });
  }
  const targets = dlqPage(call, EVERY_MATCH);
  if (isError(targets)) return fail(targets);
  const responses = [];
  for (const e of targets.page) {
    const out = engine.retryDlq(e.dlqId);
    if (!isError(out)) responses.push(out);
  }
  return ok(withCursor({ responses }, targets.cursor));
}

/** The dead letters a DLQ call names (by id, all of them) or filters (up to `count`, else `unnamed`, in failure order). */
function dlqPage(call: Call, unnamed: number): { page: DlqEntry[]; cursor?: string } | QueueError {
  const q = readListQuery(call, DLQ_QUERY);
  if (isError(q)) return q;
  const store = call.ctx.engine.store;
  if (q.ids.length > 0) return { page: q.ids.map((id) => store.dlqEntry(id)).filter((e) => e !== undefined) };
  const matching = [...store.dlq()].filter((e) => matches(dlqFilterable(e), q.filter));
  return pageOf(matching, (e) => timePosition(e.failedAt, e.dlqId), q.count ?? unnamed, q.cursor);
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

// GET /v2/events | /v2/logs ?messageIds=|filters&count=&cursor=   (each filter repeatable)
export function eventsCommand(call: Call): HttpResponse {
  const q = readListQuery(call, LOG_QUERY);
  if (isError(q)) return fail(q);
  // The SDK sends `messageIds` (at the request's root) rather than the filter's `messageId`.
  if (q.ids.length > 0) q.filter.messageId = [...(q.filter.messageId ?? []), ...q.ids];
  return ok(call.ctx.engine.events.list(q.filter, q.count ?? LIST_COUNT, Number(q.cursor ?? 0) || 0));
}

// Messages at /v2/messages: get one, cancel one, or cancel many by id or filter.

import type { HttpResponse } from '../../server/http.js';
import { isError } from '../errors.js';
import { matches, messageFilterable } from '../store/record-filter.js';
import { fail, ok } from './envelope.js';
import { messageJson } from './message-json.js';
import { CANCEL_QUERY, EVERY_MATCH, pageOf, readListQuery, withCursor, type ListQuery } from './list-query.js';
import { firstPathName, type Call } from './request.js';

// GET /v2/messages/{id}
export function getMessage(call: Call): HttpResponse {
  const m = call.ctx.engine.message(firstPathName(call));
  return isError(m) ? fail(m) : ok(messageJson(m, call.ctx.credentials));
}

// DELETE /v2/messages/{id} | DELETE /v2/messages?messageIds=...|filters&count=&cursor=
export function cancelMessages(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const id = firstPathName(call);
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
  const engine = call.ctx.engine;
  const { page, cursor } = pageOf(
    (after) => engine.pendingAfter(after),
    (m) => ({ time: m.createdAt, id: m.id }),
    (m) => matches(messageFilterable(m), q.filter),
    q.count ?? EVERY_MATCH,
    q.cursor,
  );
  return { page: page.map((m) => m.id), ...(cursor !== undefined && { cursor }) };
}

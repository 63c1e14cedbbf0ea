// Messages at /v2/messages: get one, cancel one, or cancel many by id or filter.

import type { HttpResponse } from '../../server/http.js';
import { isError } from '../errors.js';
import { matches, messageFilterable } from '../store/record-filter.js';
import { fail, ok } from './envelope.js';
import { messageJson } from './message-json.js';
import { CANCEL_QUERY, EVERY_MATCH, pageOf, readListQuery, type ListQuery } from './list-query.js';
import { firstPathName, type Call } from './request.js';

// GET /v2/messages/{id}
export function getMessage(call: Call): HttpResponse {
  const m = call.ctx.engine.message(firstPathName(call));
  return isError(m) ? fail(m) : ok(messageJson(m, call.ctx.credentials));
}

// DELETE /v2/messages/{id} | DELETE /v2/messages?messageIds=...|filters | DELETE /v2/messages with {"messageIds": [..]}
// A filter (or none: all) cancels every waiting match in one call, as the service does: it
// ignores count, which the SDK still sends (100), and answers no cursor.
export function cancelMessages(call: Call, body?: unknown): HttpResponse {
  const engine = call.ctx.engine;
  const id = firstPathName(call);
  if (id !== '') {
    const err = engine.cancel(id);
    return err === null ? ok({ cancelled: 1 }) : fail(err);
  }
  const q = readListQuery(call, CANCEL_QUERY, body);
  if (isError(q)) return fail(q);
  let cancelled = 0;
  for (const t of q.named ? q.ids : waitingMatches(call, q)) if (engine.cancel(t) === null) cancelled++;
  return ok({ cancelled });
}

/** The ids of every waiting message matching the filter, oldest first. */
function waitingMatches(call: Call, q: ListQuery): string[] {
  const engine = call.ctx.engine;
  const { page } = pageOf(
    (after) => engine.pendingAfter(after),
    (m) => ({ time: m.createdAt, id: m.id }),
    (m) => matches(messageFilterable(m), q.filter),
    EVERY_MATCH,
    undefined,
  );
  return page.map((m) => m.id);
}

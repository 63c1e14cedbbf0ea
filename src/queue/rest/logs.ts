// The logs at /v2/logs (and /v2/events, its older name): what happened to each message.

import type { HttpResponse } from '../../server/http.js';
import { isError } from '../errors.js';
import { fail, ok } from './envelope.js';
import { LIST_COUNT, LOG_QUERY, offsetCursor, readListQuery } from './list-query.js';
import type { Call } from './request.js';

// GET /v2/events | /v2/logs ?messageIds=|filters&count=&cursor=   (each filter repeatable)
export function listLogs(call: Call): HttpResponse {
  const q = readListQuery(call, LOG_QUERY);
  if (isError(q)) return fail(q);
  // The SDK sends `messageIds` (at the request's root) rather than the filter's `messageId`.
  if (q.ids.length > 0) q.filter.messageId = [...(q.filter.messageId ?? []), ...q.ids];
  const cursor = offsetCursor(q.cursor);
  return ok(cursor === undefined ? { events: [] } : call.ctx.engine.logs(q.filter, q.count ?? LIST_COUNT, cursor));
}

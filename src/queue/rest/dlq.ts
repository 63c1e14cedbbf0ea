// The dead-letter queue at /v2/dlq: list, get, delete and retry dead letters, one by id or many
// by ids or filters. `?source=workflow` lists the dead letters of workflow runs (workflow-dlq.ts).

import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { isError, type QueueError } from '../errors.js';
import type { DlqEntry } from '../store/message.js';
import { dlqFilterable, matches } from '../store/record-filter.js';
import { fail, ok } from './envelope.js';
import { dlqJson } from './message-json.js';
import { DLQ_QUERY, EVERY_MATCH, LIST_COUNT, pageOf, readListQuery, withCursor } from './list-query.js';
import { firstPathName, query, type Call } from './request.js';
import { listWorkflowDlq } from './workflow-dlq.js';

// GET /v2/dlq?cursor=&count=&dlqIds=|filters
export function listDlq(call: Call): HttpResponse {
  if (query(call, 'source') === 'workflow') return listWorkflowDlq(call);
  const page = dlqPage(call, LIST_COUNT);
  return isError(page) ? fail(page) : ok(withCursor({ messages: page.page.map((e) => dlqJson(e, call.ctx.credentials)) }, page.cursor));
}

// GET /v2/dlq/{dlqId}
export function getDlq(call: Call): HttpResponse {
  const e = call.ctx.engine.dlqEntry(firstPathName(call));
  return isError(e) ? fail(e) : ok(dlqJson(e, call.ctx.credentials));
}

// DELETE /v2/dlq/{dlqId} | DELETE /v2/dlq?dlqIds=...|filters&count=&cursor= | DELETE /v2/dlq with {"dlqIds": [..]}
export function deleteDlq(call: Call, body?: unknown): HttpResponse {
  const engine = call.ctx.engine;
  const id = firstPathName(call);
  if (id !== '') {
    const err = engine.deleteDlq(id);
    return err === null ? ok({ deleted: 1 }) : fail(err);
  }
  const targets = dlqPage(call, EVERY_MATCH, body);
  if (isError(targets)) return fail(targets);
  let deleted = 0;
  for (const e of targets.page) if (engine.deleteDlq(e.dlqId) === null) deleted++;
  return ok(withCursor({ deleted }, targets.cursor));
}

// POST /v2/dlq/retry/{dlqId} | POST /v2/dlq/retry?dlqIds=...|filters&count=&cursor=
export function retryDlq(call: Call): HttpResponse {
  const engine = call.ctx.engine;
  const rest = call.rest.split('/');
  const one = rest[0] === 'retry' && rest[1] !== undefined && rest[1] !== '' ? percentDecodeText(rest[1]) : undefined;
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
function dlqPage(call: Call, unnamed: number, body?: unknown): { page: DlqEntry[]; cursor?: string } | QueueError {
  const q = readListQuery(call, DLQ_QUERY, body);
  if (isError(q)) return q;
  const engine = call.ctx.engine;
  if (q.named) return { page: q.ids.map((id) => engine.dlqEntry(id)).filter((e): e is DlqEntry => !isError(e)) };
  return pageOf(
    (after) => engine.dlqAfter(after),
    (e) => ({ time: e.failedAt, id: e.dlqId }),
    (e) => matches(dlqFilterable(e), q.filter),
    q.count ?? unnamed,
    q.cursor,
  );
}

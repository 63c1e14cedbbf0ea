// The /v2/workflows endpoints (issue 10): a run's steps for an empty-body delivery, ending and
// cancelling runs, and the runs' logs.

import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { badRequest, invalidCancelBody, isError, notFound, unknownWorkflowRun, type QueueError } from '../errors.js';
import { rawSteps } from '../workflow/run-delivery.js';
import type { RunRecord } from '../workflow/run.js';
import { fail, ok } from './envelope.js';
import { bodyBytes, jsonBody, query, type Call } from './request.js';
import { deleteWorkflowDlq } from './workflow-dlq.js';
import { offsetCursor, readParams } from './list-query.js';
import { anyOf, hostAndPath, withinDates, type Filters } from './workflow-filter.js';

const DEFAULT_LOG_COUNT = 10;
const MAX_COUNT = 1000;

/** The path after /v2/workflows/: its first segment, and the next one decoded ('' when none). */
function parts(call: Call): [string, string] {
  const [what, id] = call.rest.split('/');
  return [what, percentDecodeText(id ?? '')];
}

// GET /v2/workflows/runs/{runId} | GET /v2/workflows/events | GET /v2/workflows/logs
export function getWorkflows(call: Call): HttpResponse {
  const [what, id] = parts(call);
  if (what === 'events' || what === 'logs') return listWorkflowLogs(call);
  if (what !== 'runs' || id === '') return fail(notFound(call.req.path));
  const run = call.ctx.workflows.activeRun(id);
  return run === undefined ? fail(unknownWorkflowRun(id)) : ok(rawSteps(run));
}

// DELETE /v2/workflows/dlq?dlqIds=..|filters (workflow-dlq.ts)
// DELETE /v2/workflows/runs/{runId}?cancel=true|false (body: the run's result)
// DELETE /v2/workflows/runs?workflowRunIds=..|workflowUrl=&workflowUrlExactMatch=&label=&fromDate=&toDate=
//   (older clients: the body {workflowRunIds: [..]} | {workflowUrl} | {})
export async function deleteWorkflows(call: Call): Promise<HttpResponse> {
  const [what, id] = parts(call);
  if (what === 'dlq' && id === '') return deleteWorkflowDlq(call);
  if (what !== 'runs') return fail(notFound(call.req.path));
  const workflows = call.ctx.workflows;
  if (id === '') {
    // Every match at once: the service ignores the count the SDK sends, and cancel has no cursor.
    const fromQuery = readParams(call, CANCEL_FILTERS);
    if (isError(fromQuery)) return fail(fromQuery);
    const body = await jsonBody(call);
    if (isError(body)) return fail(body);
    const f = body === undefined ? fromQuery : withBodyFilters(fromQuery, body);
    return isError(f) ? fail(f) : ok({ cancelled: workflows.cancelWhere((r) => matchesCancel(r, f)) });
  }
  const body = await bodyBytes(call);
  if (isError(body)) return fail(body);
  const cancel = query(call, 'cancel') === 'true';
  const err = workflows.end(id, cancel ? 'RUN_CANCELED' : 'RUN_SUCCESS', cancel || body.length === 0 ? undefined : body.toString('utf8'));
  return err === null ? ok({}) : fail(err);
}

const CANCEL_FILTERS = ['workflowRunIds', 'workflowUrl', 'workflowUrlExactMatch', 'host', 'path', 'label', 'flowControlKey', 'callerIp', 'fromDate', 'toDate'];
/** What older @upstash/workflow clients send as a cancel's JSON body: {workflowRunIds: [..]}, {workflowUrl} or {} (all). */
const BODY_FILTERS = ['workflowRunIds', 'workflowUrl'];

/**
 * The query's filters with those of a cancel's JSON body. Anything else in the body is refused:
 * ignored, it would leave the cancel without a filter, and so cancelling every run.
 */
function withBodyFilters(query: Filters, body: unknown): Filters | QueueError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalidCancelBody(BODY_FILTERS);
  const out = new Map(query);
  for (const [name, value] of Object.entries(body)) {
    const values = typeof value === 'string' ? [value] : value;
    if (!BODY_FILTERS.includes(name) || !Array.isArray(values) || !values.every((v) => typeof v === 'string')) return invalidCancelBody(BODY_FILTERS);
    out.set(name, [...(out.get(name) ?? []), ...values]);
  }
  return out;
}

function matchesCancel(r: RunRecord, f: Filters): boolean {
  const exact = f.get('workflowUrlExactMatch')?.[0] === 'true';
  return (
    anyOf(f, 'workflowRunIds', (id) => id === r.id) &&
    anyOf(f, 'workflowUrl', (url) => (exact ? r.url === url : r.url.startsWith(url))) &&
    matchesShared(r, f)
  );
}

/** The filters cancel and the logs share. */
function matchesShared(r: RunRecord, f: Filters): boolean {
  const { host, path } = hostAndPath(r.url);
  return (
    anyOf(f, 'host', (h) => h === host) &&
    anyOf(f, 'path', (p) => p === path) &&
    anyOf(f, 'label', (label) => (r.labels ?? []).includes(label)) &&
    anyOf(f, 'flowControlKey', (key) => r.settings['upstash-flow-control-key'] === key) &&
    anyOf(f, 'callerIp', (ip) => r.callerIp === ip) &&
    withinDates(f, r.createdAt)
  );
}

const LOG_FILTERS = ['groupBy', 'workflowRunId', 'workflowUrl', 'workflowCreatedAt', 'state', 'label', 'messageId', 'host', 'path', 'flowControlKey', 'callerIp', 'fromDate', 'toDate'];

// GET /v2/workflows/events?groupBy=workflowRunId&<LOG_FILTERS>&count=&cursor=
function listWorkflowLogs(call: Call): HttpResponse {
  const f = readParams(call, LOG_FILTERS);
  if (isError(f)) return fail(f);
  const c = query(call, 'count');
  if (c !== undefined && (!/^\d+$/.test(c) || Number(c) === 0)) return fail(badRequest('count must be a positive integer'));
  const count = c === undefined ? DEFAULT_LOG_COUNT : Math.min(MAX_COUNT, Number(c));
  const cursor = offsetCursor(query(call, 'cursor'));
  return ok(cursor === undefined ? { runs: [] } : call.ctx.workflows.logs((r) => matchesLog(r, f), count, cursor));
}

function matchesLog(r: RunRecord, f: Filters): boolean {
  return (
    anyOf(f, 'workflowRunId', (id) => r.id === id) &&
    anyOf(f, 'workflowUrl', (url) => r.url === url) &&
    anyOf(f, 'workflowCreatedAt', (at) => r.createdAt === Number(at)) &&
    anyOf(f, 'state', (state) => r.state === state) &&
    anyOf(f, 'messageId', (id) => r.triggerMessageId === id || r.steps.some((s) => s.messageId === id)) &&
    matchesShared(r, f)
  );
}

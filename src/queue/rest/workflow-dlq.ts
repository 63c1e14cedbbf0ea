// The workflow side of the dead-letter queue (issue 10): GET /v2/dlq?source=workflow lists the
// dead letters of runs with their run, POST /v2/workflows/dlq/resume|restart makes new runs of
// them, POST /v2/workflows/dlq/callback/{dlqId} calls the failure function again, DELETE
// /v2/workflows/dlq deletes them.

import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { badRequest, isError, notFound, type QueueError } from '../errors.js';
import type { DlqEntry } from '../store/message.js';
import type { NewRun, Overrides } from '../workflow/run-dlq.js';
import type { RunRecord } from '../workflow/run.js';
import { fail, ok } from './envelope.js';
import { dlqJson } from './message-json.js';
import { query, type Call } from './request.js';
import { offsetCursor, readParams } from './list-query.js';
import { anyOf, withinDates } from './workflow-filter.js';

const DEFAULT_COUNT = 100;

interface Found {
  entry: DlqEntry;
  run: RunRecord | undefined;
}

// GET /v2/dlq?source=workflow&cursor=&count=&dlqIds=&workflowRunId=&workflowUrl=&label=&fromDate=&toDate=
export function listWorkflowDlq(call: Call): HttpResponse {
  const count = Number(query(call, 'count') ?? DEFAULT_COUNT);
  if (!Number.isInteger(count) || count <= 0) return fail(badRequest('count must be a positive integer'));
  const cursor = offsetCursor(query(call, 'cursor'));
  if (cursor === undefined) return ok({ messages: [] });
  const all = targets(call);
  if (isError(all)) return fail(all);
  const page = all.slice(cursor, cursor + count).map(({ entry, run }) => {
    const out: Record<string, unknown> = { ...dlqJson(entry, call.ctx.credentials), workflowRunId: entry.message.workflow!.runId };
    if (run !== undefined) {
      Object.assign(out, { workflowCreatedAt: run.createdAt, workflowUrl: run.url });
      const cb = run.failure?.dlqId === entry.dlqId ? run.failure.callback : undefined;
      if (run.settings['upstash-failure-callback'] !== undefined) out.failureCallback = run.settings['upstash-failure-callback'];
      if (cb !== undefined) out.failureCallbackInfo = { state: cb.state };
    }
    return out;
  });
  return ok({ messages: page, ...(cursor + count < all.length && { cursor: String(cursor + count) }) });
}

// POST /v2/workflows/dlq/callback/{dlqId}
// POST /v2/workflows/dlq/resume|restart?dlqIds=..|filters (Upstash-Retries, Upstash-Flow-Control-Key/-Value apply to the new runs)
export function actOnWorkflowDlq(call: Call): HttpResponse {
  const [group, action, more] = call.rest.split('/');
  if (group === 'dlq' && action === 'callback' && more !== undefined && more !== '') {
    const out = call.ctx.workflows.dlq.callback(percentDecodeText(more));
    return isError(out) ? fail(out) : ok(out);
  }
  if (group !== 'dlq' || (action !== 'resume' && action !== 'restart') || more !== undefined) return fail(notFound(call.req.path));
  const overrides: Overrides = {};
  for (const name of ['upstash-retries', 'upstash-flow-control-key', 'upstash-flow-control-value']) {
    const v = call.req.header(name);
    if (v !== undefined) overrides[name] = v;
  }
  if (overrides['upstash-retries'] !== undefined && !/^\d+$/.test(overrides['upstash-retries'])) return fail(badRequest(`invalid retries: '${overrides['upstash-retries']}'`));
  const dlq = call.ctx.workflows.dlq;
  const found = targets(call);
  if (isError(found)) return fail(found);
  const workflowRuns: NewRun[] = [];
  for (const { entry } of found) {
    const out = action === 'resume' ? dlq.resume(entry.dlqId, overrides) : dlq.restart(entry.dlqId, overrides);
    if (isError(out)) return fail(out);
    workflowRuns.push(out);
  }
  return ok({ workflowRuns });
}

// DELETE /v2/workflows/dlq?dlqIds=..|filters
export function deleteWorkflowDlq(call: Call): HttpResponse {
  const found = targets(call);
  if (isError(found)) return fail(found);
  let deleted = 0;
  for (const { entry } of found) if (call.ctx.engine.deleteDlq(entry.dlqId) === null) deleted++;
  return ok({ deleted });
}

const DLQ_FILTERS = ['source', 'dlqIds', 'workflowRunId', 'workflowUrl', 'url', 'label', 'flowControlKey', 'callerIp', 'workflowCreatedAt', 'failureFunctionState', 'fromDate', 'toDate'];

/** The workflow dead letters `dlqIds` names, else those the filters select. */
function targets(call: Call): Found[] | QueueError {
  const f = readParams(call, DLQ_FILTERS);
  if (isError(f)) return f;
  const ids = new Set(f.get('dlqIds') ?? []);
  return call.ctx.workflows.dlq.entries().filter(({ entry, run }) => {
    if (ids.size > 0) return ids.has(entry.dlqId);
    const failure = run?.failure?.dlqId === entry.dlqId ? run.failure : undefined;
    return (
      anyOf(f, 'workflowRunId', (id) => entry.message.workflow!.runId === id) &&
      // `url` is the SDK's deprecated name for workflowUrl.
      anyOf(f, 'workflowUrl', (url) => run?.url === url) &&
      anyOf(f, 'url', (url) => run?.url === url) &&
      anyOf(f, 'label', (label) => (entry.message.labels ?? []).includes(label)) &&
      anyOf(f, 'flowControlKey', (key) => run?.settings['upstash-flow-control-key'] === key) &&
      anyOf(f, 'callerIp', (ip) => run?.callerIp === ip) &&
      anyOf(f, 'workflowCreatedAt', (at) => run?.createdAt === Number(at)) &&
      anyOf(f, 'failureFunctionState', (state) => failure?.callback?.state === state) &&
      withinDates(f, entry.failedAt)
    );
  });
}

// The endpoints of workflow events (issue 10): a run starts waiting for an event, notify wakes
// the runs waiting (or keeps the data for one run's later wait), the waiters of an event, and the
// inbound webhooks of context.createWebhook (a notify of one run, with the request as the data).

import { sameSecret } from '../../server/credentials.js';
import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { badRequest, isError, notFound } from '../errors.js';
import { fail, ok } from './envelope.js';
import { bodyBytes, jsonBody, type Call } from './request.js';

const segments = (call: Call) => call.rest.split('/').map((s) => percentDecodeText(s));

// POST /v2/wait/{eventId} with {url, timeout, timeoutUrl, timeoutHeaders, step}; Upstash-Workflow-RunId names the run
export async function waitForEvent(call: Call): Promise<HttpResponse> {
  const [eventId] = segments(call);
  const runId = call.req.header('upstash-workflow-runid');
  if (runId === undefined) return fail(badRequest('wait needs an Upstash-Workflow-RunId header'));
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  if (typeof body !== 'object' || body === null) return fail(badRequest('wait needs a JSON object body'));
  const err = call.ctx.workflows.waits.wait(runId, eventId, body);
  return err === null ? ok({}) : fail(err);
}

// POST /v2/notify/{eventId} | POST /v2/notify/{workflowRunId}/{eventId} (body: the event data)
export async function notify(call: Call): Promise<HttpResponse> {
  const parts = segments(call);
  if (parts.length > 2 || parts.some((p) => p === '')) return fail(notFound(call.req.path));
  const data = await bodyBytes(call);
  if (isError(data)) return fail(data);
  const waits = call.ctx.workflows.waits;
  if (parts.length === 1) return ok(waits.notify(parts[0], data));
  const out = waits.notifyRun(parts[0], parts[1], data);
  return isError(out) ? fail(out) : ok(out);
}

// ANY /v2/workflows/hooks/{userId}/{runId}/{eventId} (context.createWebhook's URL, called without a token)
export async function callWebhook(call: Call, token: string): Promise<HttpResponse> {
  const [, userId, runId, eventId, more] = segments(call);
  const owner = userIdOf(token);
  if (eventId === undefined || eventId === '' || more !== undefined || owner === undefined || !sameSecret(userId, owner)) return fail(notFound(call.req.path));
  const body = await bodyBytes(call);
  if (isError(body)) return fail(body);
  const req = call.req;
  // What waitForWebhook rebuilds the request from: method, proto://host + url, headers, body.
  const request = {
    method: req.method,
    proto: 'http',
    host: req.header('host') ?? '',
    url: req.query === '' ? req.path : `${req.path}?${req.query}`,
    header: Object.fromEntries(req.headerNames().map((n) => [n, [req.header(n) ?? '']])),
    body: body.toString('base64'),
  };
  const out = call.ctx.workflows.waits.notifyRun(runId, eventId, Buffer.from(JSON.stringify(request)));
  return isError(out) ? fail(out) : ok(out);
}

/** The UserID inside a token (base64 of {"UserID", "Password"}), as the library puts it in hook URLs. */
function userIdOf(token: string): string | undefined {
  try {
    const id = (JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { UserID?: unknown }).UserID;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

// GET /v2/waiters/{eventId}
export function listWaiters(call: Call): HttpResponse {
  return ok(call.ctx.workflows.waits.waiters(segments(call)[0]));
}

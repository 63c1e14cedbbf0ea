// Schedules at /v2/schedules, as the SDK's client.schedules calls them: create (POST
// /v2/schedules/{destination} with Upstash-Cron, optional Upstash-Schedule-Id to replace one,
// and any publish header, which applies to every fired message), list, get, delete, and pause
// and resume by PATCH (the SDK) or POST (the API reference).

import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { isError, MISSING_CRON, notFound } from '../errors.js';
import type { Schedule } from '../store/schedule.js';
import { done, fail, ok } from './envelope.js';
import { canonicalHeaders } from './header-case.js';
import { messageJson } from './message-json.js';
import { destinationOf, draftsOf, refusal } from './publish.js';
import { bodyBytes, requestHeaders, withQuerySettings, type Call, type QueueContext } from './request.js';

/** `{id}/pause` or `{id}/resume`; a destination URL (which has a scheme) never matches. */
const TOGGLE = /^([^/:%]+)\/(pause|resume)$/;

const idOf = (raw: string) => percentDecodeText(raw);

// GET /v2/schedules
export function listSchedules(call: Call): HttpResponse {
  return ok(call.ctx.schedules.list().map((s) => scheduleJson(s, call.ctx)));
}

// GET /v2/schedules/{id}
export function getSchedule(call: Call): HttpResponse {
  if (call.rest.includes('/')) return fail(notFound(call.req.path));
  const s = call.ctx.schedules.get(idOf(call.rest));
  return isError(s) ? fail(s) : ok(scheduleJson(s, call.ctx));
}

// DELETE /v2/schedules/{id}
export function deleteSchedule(call: Call): HttpResponse {
  if (call.rest.includes('/')) return fail(notFound(call.req.path));
  const err = call.ctx.schedules.delete(idOf(call.rest));
  return err === null ? done() : fail(err);
}

// PATCH|POST /v2/schedules/{id}/pause | /v2/schedules/{id}/resume
export function pauseResumeSchedule(call: Call): HttpResponse {
  const m = TOGGLE.exec(call.rest);
  if (m === null) return fail(notFound(call.req.path));
  const err = call.ctx.schedules.setPaused(idOf(m[1]), m[2] === 'pause');
  return err === null ? done() : fail(err);
}

// POST /v2/schedules/{destination}  Upstash-Cron: [CRON_TZ=<zone> ]<cron>  [Upstash-Schedule-Id: <id>]
export async function createSchedule(call: Call): Promise<HttpResponse> {
  if (TOGGLE.test(call.rest)) return pauseResumeSchedule(call);
  const h = withQuerySettings(requestHeaders(call.req), call.req.query);
  const cron = (h.get('upstash-cron') ?? h.get('service-cron'))?.trim();
  if (cron === undefined || cron === '') return fail(MISSING_CRON);
  const body = await bodyBytes(call);
  if (isError(body)) return fail(body);
  const queueName = h.get('upstash-queue-name') ?? h.get('service-queue-name');
  // The message a publish with these headers would make (one per endpoint for a URL group,
  // each the same but for its URL): the template of every firing.
  const destination = destinationOf(call, call.rest);
  const drafts = draftsOf(call, destination, h, body, queueName);
  if (isError(drafts)) return fail(drafts);
  const refused = await refusal(call, drafts);
  if (refused !== null) return fail(refused);
  // The group and endpoint are set per endpoint at each firing.
  const { topicName: _group, endpointName: _endpoint, ...template } = drafts[0].message;
  const id = h.get('upstash-schedule-id') ?? h.get('service-schedule-id');
  const s = call.ctx.schedules.create({
    ...(id !== undefined && { id }),
    cron,
    destination,
    delayMs: Math.max(0, template.notBefore - template.createdAt),
    template,
  });
  return isError(s) ? fail(s) : ok({ scheduleId: s.id });
}

/** What a schedule shows of its template, under the names messageJson gives them. */
const TEMPLATE_FIELDS = ['bodyBase64', 'callback', 'failureCallback', 'queueName', 'labels', 'label', 'retryDelayExpression', 'timeout', 'flowControlKey', 'parallelism', 'rate', 'period'];

/** A schedule as the SDK's Schedule type reads it: canonical header names, no body when it has none. */
function scheduleJson(s: Schedule, ctx: QueueContext): Record<string, unknown> {
  const m = messageJson(s.template, ctx.credentials);
  const out: Record<string, unknown> = {
    scheduleId: s.id,
    cron: s.cron,
    createdAt: s.createdAt,
    destination: s.destination,
    method: s.template.method,
    header: canonicalHeaders(m.header as Record<string, string[]>),
    retries: s.template.retries,
    isPaused: s.paused,
    callerIp: s.template.callerIp,
    callerIP: s.template.callerIp,
  };
  if (m.body !== undefined && m.body !== '') out.body = m.body;
  for (const k of TEMPLATE_FIELDS) if (m[k] !== undefined) out[k] = m[k];
  if (s.delayMs > 0) out.delay = Math.round(s.delayMs / 1000);
  if (s.lastScheduleTime !== undefined) out.lastScheduleTime = s.lastScheduleTime;
  const next = ctx.schedules.nextTime(s);
  if (next !== undefined) out.nextScheduleTime = next;
  return out;
}

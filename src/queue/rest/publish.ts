// Publishing: /v2/publish/{destination}, /v2/enqueue/{queue}/{destination} and /v2/batch.
// The destination is the rest of the path as sent (its own query is the request's, minus
// qstash_token and the settings given as `upstash-*` parameters); a percent-encoded URL is
// accepted too. A destination that is a URL group's name fans out to one message per endpoint,
// answered as an array. Every URL a message will call is checked against the destination rules.

import type { HttpResponse } from '../../server/http.js';
import { nestsDeeperThan, tooDeep } from '../../server/json-body.js';
import { percentDecode, percentDecodeText, queryPairs, utf8Text } from '../../server/url.js';
import { badRequest, invalidQueueName, isError, refusedDestination, TOO_MANY_PENDING, type QueueError } from '../errors.js';
import { isPathName } from '../store/gate-records.js';
import type { Draft } from '../store/message.js';
import { isUrlGroupName } from '../url-groups.js';
import { fail, ok } from './envelope.js';
import { isHttpUrl, readPublish, type HeaderSource } from '../options/publish-options.js';
import { bodyBytes, callerIp, isSettingParam, objectHeaders, requestHeaders, withQuerySettings, type Call } from './request.js';

// POST /v2/publish/{destination}
export async function publishMessage(call: Call): Promise<HttpResponse> {
  return publishTo(call, destinationOf(call, call.rest));
}

// POST /v2/enqueue/{queue}/{destination}
export async function enqueueMessage(call: Call): Promise<HttpResponse> {
  const slash = call.rest.indexOf('/');
  if (slash <= 0) return fail(badRequest('enqueue needs /v2/enqueue/{queue}/{destination}'));
  const queueName = percentDecodeText(call.rest.slice(0, slash));
  return publishTo(call, destinationOf(call, call.rest.slice(slash + 1)), queueName);
}

async function publishTo(call: Call, destination: string, queueName?: string): Promise<HttpResponse> {
  const body = await bodyBytes(call);
  if (isError(body)) return fail(body);
  const drafts = draftsOf(call, destination, withQuerySettings(requestHeaders(call.req), call.req.query), body, queueName);
  if (isError(drafts)) return fail(drafts);
  const refused = await refusal(call, drafts);
  if (refused !== null) return fail(refused);
  const out = call.ctx.engine.publish(drafts);
  return isError(out) ? fail(out) : ok(isHttpUrl(destination) ? out[0] : out);
}

// POST /v2/batch with [{destination, headers?, body?, queue?}]
export async function publishBatch(call: Call, items: unknown): Promise<HttpResponse> {
  const malformed = batchShapeError(items);
  if (malformed !== null) return fail(malformed);
  const entries = items as BatchEntry[];
  // Each entry makes at least one message: a batch past the room left is refused before any
  // is built (a 64 MiB body holds about 900,000 entries, seconds of the thread's time each 20,000).
  if (entries.length > call.ctx.engine.room()) return fail(TOO_MANY_PENDING);
  const drafts: Draft[] = [];
  /** Per entry: how many drafts it made, or null for a URL (answered as one object, not an array). */
  const made: (number | null)[] = [];
  for (const item of entries) {
    const headers = typeof item.headers === 'object' && item.headers !== null ? (item.headers as Record<string, unknown>) : {};
    const some = draftsOf(call, item.destination, withQuerySettings(objectHeaders(headers), call.req.query), Buffer.from(item.body ?? ''), item.queue);
    if (isError(some)) return fail(some);
    const refused = await refusal(call, some);
    if (refused !== null) return fail(refused);
    drafts.push(...some);
    made.push(isHttpUrl(item.destination) ? null : some.length);
  }
  const out = call.ctx.engine.publish(drafts);
  if (isError(out)) return fail(out);
  let at = 0;
  return ok(made.map((n) => (n === null ? out[at++] : out.slice(at, (at += n)))));
}

interface BatchEntry {
  destination: string;
  headers?: unknown;
  body?: string;
  queue?: string;
}

/** Why a batch body is not a non-empty array of entries, or null when it is. */
function batchShapeError(items: unknown): QueueError | null {
  if (!Array.isArray(items) || items.length === 0) return badRequest('batch needs a non-empty JSON array of {destination, headers, body}');
  for (const item of items) {
    if (typeof item !== 'object' || item === null || typeof item.destination !== 'string') return badRequest('each batch entry needs a destination (string)');
    if (item.body !== undefined && typeof item.body !== 'string') return badRequest('a batch entry body must be a string');
    if (item.queue !== undefined && typeof item.queue !== 'string') return badRequest('a batch entry queue must be a string');
  }
  return null;
}

/** The message a publish to a URL makes, or one per endpoint for a URL group's name. */
export function draftsOf(call: Call, destination: string, h: HeaderSource, body: Buffer, queueName?: string): Draft[] | QueueError {
  const { ctx } = call;
  // Enqueue, a batch entry's queue and a schedule's Upstash-Queue-Name: a queue made with a name
  // the queue endpoints cannot address (none, or a '/') could be neither paused nor deleted.
  if (queueName !== undefined && !isPathName(queueName)) return invalidQueueName(queueName);
  // A workflow run's messages are JSON Larder parses and keeps parts of (an invoke's step), so
  // they are bounded as request bodies are; other bodies are passed on unread.
  if (h.get('upstash-workflow-runid') !== undefined && nestsDeeperThan(body.toString('utf8'), ctx.maxNestingDepth)) return tooDeep(ctx.maxNestingDepth);
  const make = (url: string) =>
    ctx.workflows.draft(h, (h) =>
      readPublish(url, h, body, {
        now: ctx.now(),
        callerIp: callerIp(call.req),
        defaultRetries: ctx.defaultRetries,
        maxMessageBytes: ctx.maxMessageBytes,
        maxForwardedHeaders: ctx.maxForwardedHeaders,
        maxRetries: ctx.maxRetries,
        maxDelayMs: ctx.maxDelayMs,
        ...(queueName !== undefined && { queueName }),
      }),
    );
  if (!isHttpUrl(destination) && isUrlGroupName(destination)) return ctx.urlGroups.fanOut(destination, make);
  const draft = make(destination);
  return isError(draft) ? draft : [draft];
}

/** The first of the messages' URLs (destination, callbacks) that queue.allow/denyDestinations or production refuse. */
export async function refusal(call: Call, drafts: readonly Draft[]): Promise<QueueError | null> {
  for (const { message: m } of drafts) {
    const urls: [string, string][] = [['destination', m.url]];
    if (m.callback !== undefined) urls.push(['Upstash-Callback', m.callback.url]);
    if (m.failureCallback !== undefined) urls.push(['Upstash-Failure-Callback', m.failureCallback.url]);
    for (const [what, url] of urls) {
      const r = await call.ctx.destinations.check(url);
      if (r !== null) return refusedDestination(what, url, r.why);
    }
  }
  return null;
}

export function destinationOf(call: Call, raw: string): string {
  let dest = /^https?%3A/i.test(raw) ? percentDecode(raw) : raw;
  dest = utf8Text(dest);
  const q = queryPairs(call.req.query).filter(([k]) => k !== 'qstash_token' && !isSettingParam(k));
  if (q.length === 0) return dest;
  const enc = (s: string) => encodeURIComponent(utf8Text(s));
  const text = q.map(([k, v]) => (v === undefined ? enc(k) : `${enc(k)}=${enc(v)}`)).join('&');
  return `${dest}${dest.includes('?') ? '&' : '?'}${text}`;
}

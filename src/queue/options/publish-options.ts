// The publish settings, read from headers under the SDK's Upstash-* names or the spec's
// Service-* names: Method, Delay, Not-Before, Retries, Timeout, Forward-*, Callback and
// Failure-Callback (with their own Upstash-Callback-* / Upstash-Failure-Callback-* settings),
// Deduplication-Id, Content-Based-Deduplication, Label, Retry-Delay, Redact-Fields,
// Header-Forward and Flow-Control-Key/-Value. The one parser of publish settings and URLs in the
// queue service; rest/ (publish, batch, schedules, trigger) and workflow/ (a run's own messages)
// both read through it.

import { createHash } from 'node:crypto';
import { isProblem, parseRetryDelay } from '../delivery/retry-delay.js';
import { badRequest, durationAboveLimit, invalidCallback, invalidForwardHeader, tooManyForwardHeaders, retriesAboveLimit, invalidDestination, invalidRetryDelay, isError, messageTooLarge, notBeforeAboveLimit, type QueueError } from '../errors.js';
import { parseRedactFields } from '../store/redaction.js';
import { newMessageId, type Draft, type FollowUp, type MessageSettings, type QueueMessage } from '../store/message.js';
import { duration, LONGEST_TIMER_MS, TOO_LONG } from './duration.js';
import { readFlowControl } from './flow-control-value.js';

/** A header lookup by lower-case name, and every name present. */
export interface HeaderSource {
  get(lowerName: string): string | undefined;
  names(): string[];
}

export interface PublishContext {
  now: number;
  callerIp: string;
  defaultRetries: number;
  maxMessageBytes: number;
  /** The plan limit on Upstash-Retries; absent for the messages Larder makes from a run's settings (checked at its trigger). */
  maxRetries?: number;
  /** queue.maxDelayMs: the furthest ahead a delay or not-before may put a delivery. */
  maxDelayMs: number;
  /** queue.maxForwardedHeaders, for each of the message and its callbacks; absent for a run's own messages (checked at its trigger). */
  maxForwardedHeaders?: number;
  queueName?: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Builds the message a publish to `destination` describes. */
export function readPublish(destination: string, h: HeaderSource, body: Buffer, c: PublishContext): Draft | QueueError {
  if (!isHttpUrl(destination)) return invalidDestination(destination);
  if (body.length > c.maxMessageBytes) return messageTooLarge(body.length, c.maxMessageBytes);
  const setting = (name: string) => h.get(`upstash-${name}`) ?? h.get(`service-${name}`);
  const passed = forwarded(h, ['upstash-forward-', 'service-forward-']);
  const own = readSettings(setting, setting('header-forward')?.trim().toLowerCase() === 'true' ? { ...plainHeaders(h), ...passed } : passed, 'Upstash', c);
  if (isError(own)) return own;
  const redact = parseRedactFields(setting('redact-fields') ?? '');
  if (isError(redact)) return redact;
  const contentType = h.get('content-type');
  if (contentType !== undefined) own.headers['content-type'] ??= contentType;
  const unsendable = unsendableHeader(own.headers, c);
  if (isError(unsendable)) return unsendable;
  const callback = followUp(h, 'callback', c);
  if (isError(callback)) return callback;
  const failureCallback = followUp(h, 'failure-callback', c);
  if (isError(failureCallback)) return failureCallback;
  let notBefore = c.now + (own.delayMs ?? 0);
  const nb = setting('not-before');
  if (nb !== undefined) {
    if (!/^\d+$/.test(nb.trim())) return badRequest(`invalid Upstash-Not-Before: '${nb}' (a unix time in seconds)`);
    notBefore = Number(nb.trim()) * 1000;
    if (notBefore > c.now + c.maxDelayMs) return notBeforeAboveLimit(nb, c.maxDelayMs);
  }
  const message: QueueMessage = {
    id: newMessageId(),
    url: destination,
    method: own.method ?? 'POST',
    headers: own.headers,
    body: body.toString('base64'),
    createdAt: c.now,
    notBefore,
    retries: own.retries ?? c.defaultRetries,
    retried: 0,
    timeoutMs: own.timeoutMs ?? null,
    callerIp: c.callerIp,
  };
  if (callback !== undefined) message.callback = callback;
  if (failureCallback !== undefined) message.failureCallback = failureCallback;
  if (c.queueName !== undefined) message.queueName = c.queueName;
  if (own.retryDelay !== undefined) message.retryDelay = own.retryDelay;
  if (redact !== undefined) message.redact = redact;
  const flowControl = readFlowControl(setting('flow-control-key'), setting('flow-control-value'), c.maxDelayMs);
  if (isError(flowControl)) return flowControl;
  if (flowControl !== undefined) message.flowControl = flowControl;
  // Several labels: comma-separated, or the header repeated (which arrives joined by commas).
  const label = setting('label');
  if (label !== undefined) message.labels = label.split(',').map((l) => l.trim()).filter((l) => l !== '');
  const draft: Draft = { message };
  const dedupId = setting('deduplication-id');
  if (dedupId !== undefined) draft.dedupKey = `id:${dedupId}`;
  else if (setting('content-based-deduplication')?.toLowerCase() === 'true') draft.dedupKey = contentKey(message);
  return draft;
}

type SettingLimits = Pick<PublishContext, 'maxRetries' | 'maxDelayMs' | 'maxForwardedHeaders'>;

/**
 * Method, Retries, Timeout, Delay and Retry-Delay under `setting`'s names, and the forwarded
 * headers; `prefix` names the headers in errors (Upstash, Upstash-Callback, Upstash-Failure-Callback).
 */
function readSettings(setting: (name: string) => string | undefined, headers: Record<string, string>, prefix: string, limits: SettingLimits): MessageSettings | QueueError {
  const out: MessageSettings = { headers };
  const method = setting('method');
  if (method !== undefined) {
    if (!METHODS.has(method.toUpperCase())) return badRequest(`invalid method: '${method}'`);
    out.method = method.toUpperCase();
  }
  const retries = setting('retries');
  if (retries !== undefined) {
    if (!/^\d+$/.test(retries.trim())) return badRequest(`invalid retries: '${retries}' (a non-negative integer)`);
    out.retries = Number(retries.trim());
    if (limits.maxRetries !== undefined && out.retries > limits.maxRetries) return retriesAboveLimit(out.retries, limits.maxRetries);
  }
  const timeout = setting('timeout');
  if (timeout !== undefined) {
    // A delivery's timeout is a timer: refused past the longest one rather than firing at once.
    const ms = duration(timeout, LONGEST_TIMER_MS);
    if (ms === TOO_LONG) return durationAboveLimit('timeout', timeout, LONGEST_TIMER_MS);
    if (ms === undefined || ms === 0) return badRequest(`invalid timeout: '${timeout}' (a duration such as 30s, 5m)`);
    out.timeoutMs = ms;
  }
  const delay = setting('delay');
  if (delay !== undefined) {
    const ms = duration(delay, limits.maxDelayMs);
    if (ms === TOO_LONG) return durationAboveLimit('delay', delay, limits.maxDelayMs);
    if (ms === undefined) return badRequest(`invalid delay: '${delay}' (a duration such as 10s, 5m, 2h, 1d)`);
    out.delayMs = ms;
  }
  const retryDelay = setting('retry-delay');
  if (retryDelay !== undefined) {
    const e = parseRetryDelay(retryDelay);
    if (isProblem(e)) return invalidRetryDelay(`${prefix}-Retry-Delay`, retryDelay, e.at, e.what);
    out.retryDelay = retryDelay.trim();
  }
  return out;
}

/** A callback URL and its settings from Upstash-<kind>-* headers. */
function followUp(h: HeaderSource, kind: 'callback' | 'failure-callback', limits: SettingLimits): FollowUp | undefined | QueueError {
  const url = h.get(`upstash-${kind}`) ?? h.get(`service-${kind}`);
  if (url === undefined) return undefined;
  const name = kind === 'callback' ? 'Upstash-Callback' : 'Upstash-Failure-Callback';
  if (!isHttpUrl(url)) return invalidCallback(name, url);
  const settings = readSettings(
    (n) => h.get(`upstash-${kind}-${n}`) ?? h.get(`service-${kind}-${n}`),
    forwarded(h, [`upstash-${kind}-forward-`, `service-${kind}-forward-`]),
    name,
    limits,
  );
  if (isError(settings)) return settings;
  const unsendable = unsendableHeader(settings.headers, limits);
  return isError(unsendable) ? unsendable : { url, settings };
}

// What node:http and Bun's fetch both accept in a request's header. A header the request itself
// brought always fits; one from a batch entry's JSON or a query parameter may not, and would
// fail every delivery attempt of a message accepted for delivery.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The refusal of headers no delivery could send, or of more than the limit; null when they fit. */
function unsendableHeader(headers: Record<string, string>, limits: SettingLimits): QueueError | null {
  const names = Object.keys(headers);
  if (limits.maxForwardedHeaders !== undefined && names.length > limits.maxForwardedHeaders) return tooManyForwardHeaders(names.length, limits.maxForwardedHeaders);
  for (const name of names) if (!TOKEN.test(name) || !FIELD_VALUE.test(headers[name])) return invalidForwardHeader(name);
  return null;
}

function forwarded(h: HeaderSource, prefixes: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of h.names()) {
    const p = prefixes.find((x) => name.startsWith(x));
    if (p !== undefined && name.length > p.length) out[name.slice(p.length)] = h.get(name)!;
  }
  return out;
}

/**
 * Upstash-Header-Forward: true forwards the request's own headers (for webhook senders that
 * cannot prefix them), but never the queue's settings, the connection's own headers, or an
 * `Authorization: Bearer` (the queue token travels there).
 */
function plainHeaders(h: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of h.names()) {
    if (name.startsWith('upstash-') || name.startsWith('service-') || NOT_FORWARDED.has(name)) continue;
    const v = h.get(name)!;
    if (name === 'authorization' && /^bearer /i.test(v)) continue;
    out[name] = v;
  }
  return out;
}

const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization', 'proxy-connection']);

export function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

/** Same destination, method, forwarded headers and body: the same content. */
function contentKey(m: QueueMessage): string {
  const hash = createHash('sha256');
  hash.update(`${m.method} ${m.url}\n`);
  for (const k of Object.keys(m.headers).sort()) hash.update(`${k}: ${m.headers[k]}\n`);
  hash.update(m.body);
  return `content:${hash.digest('base64url')}`;
}

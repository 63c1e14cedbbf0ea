// One delivery attempt: the signed HTTP request to the destination and what it answered.
// The response body is read only up to `maxBodyBytes`, so a huge or endless answer costs no
// more memory than that; the rest is dropped. The request goes through the runtime's client
// (server/http-client.ts), which follows no redirect.

import type { HttpClient } from '../../server/http-client.js';
import { LONGEST_TIMER_MS } from '../options/duration.js';
import type { DeliveryResponse, QueueMessage } from '../store/message.js';
import { sign } from '../signing/signature.js';
import type { DestinationPolicy } from './destination-policy.js';

export interface AttemptSettings {
  signingKey: string;
  defaultTimeoutMs: number;
  maxBodyBytes: number;
  now: () => number;
  /** Aborts the request when the service stops, so shutdown never waits out a slow destination. */
  stop: AbortSignal;
  /** Checked before each request: a refused destination fails for good, an unresolvable one is retried. */
  destinations: DestinationPolicy;
  http: HttpClient;
}

export interface Outcome extends DeliveryResponse {
  /** 2xx. */
  ok: boolean;
  /** 489 with Upstash-NonRetryable-Error: true: no more retries. */
  final: boolean;
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);
/** Headers about one connection or one body framing: the client sets its own, and a stale one (a forwarded
 *  Content-Length of another body) would make the request hang or fail. */
const CONNECTION_HEADERS = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

function sendable(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (!CONNECTION_HEADERS.has(k)) out[k] = v;
  return out;
}

export async function attempt(m: QueueMessage, s: AttemptSettings): Promise<Outcome> {
  const refused = await s.destinations.check(m.url);
  if (refused !== null) return { ok: false, final: !refused.transient, status: 0, headers: {}, body: '', error: `destination not allowed: ${refused.why}` };
  const body = Buffer.from(m.body, 'base64');
  const headers: Record<string, string> = {
    ...sendable(m.headers),
    'user-agent': 'Upstash-QStash',
    'upstash-message-id': m.id,
    'upstash-retried': String(m.retried),
    'upstash-caller-ip': m.callerIp,
    'upstash-signature': await sign(s.signingKey, m.url, body, s.now()),
  };
  if (m.topicName !== undefined) headers['upstash-topic-name'] = m.topicName;
  if (m.scheduleId !== undefined) headers['upstash-schedule-id'] = m.scheduleId;
  const controller = new AbortController();
  // A message an earlier version stored may ask for longer than a timer waits (one that long fires at once).
  const timer = setTimeout(() => controller.abort(), Math.min(m.timeoutMs ?? s.defaultTimeoutMs, LONGEST_TIMER_MS));
  const onStop = () => controller.abort();
  s.stop.addEventListener('abort', onStop);
  try {
    const res = await s.http({
      url: m.url,
      method: m.method,
      headers,
      body: NO_BODY_METHODS.has(m.method) ? undefined : body,
      signal: controller.signal,
      maxBodyBytes: s.maxBodyBytes,
    });
    const final = res.status === 489 && res.headers['upstash-nonretryable-error']?.toLowerCase() === 'true';
    return { ok: res.status >= 200 && res.status < 300, final, status: res.status, headers: res.headers, body: res.body.toString('base64') };
  } catch (e) {
    const error = controller.signal.aborted ? `timed out after ${m.timeoutMs ?? s.defaultTimeoutMs} ms` : describe(e);
    return { ok: false, final: false, status: 0, headers: {}, body: '', error };
  } finally {
    clearTimeout(timer);
    s.stop.removeEventListener('abort', onStop);
  }
}

function describe(e: unknown): string {
  const cause = (e as { cause?: { message?: string } }).cause;
  return cause?.message ?? (e as Error).message ?? String(e);
}

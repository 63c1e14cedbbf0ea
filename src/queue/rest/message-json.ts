// Messages and dead letters as the API shows them (the SDK's Message and DlqMessage types).

import { multi } from '../delivery/callbacks.js';
import type { DlqEntry, QueueMessage } from '../store/message.js';
import { shownBody, shownHeaders, type CredentialHeaders } from '../store/redaction.js';

export function messageJson(m: QueueMessage, credentials: CredentialHeaders): Record<string, unknown> {
  const shown = shownBody(m, credentials);
  const body = Buffer.from(shown, 'base64');
  const out: Record<string, unknown> = {
    messageId: m.id,
    url: m.url,
    method: m.method,
    header: multi(shownHeaders(m, credentials)),
    maxRetries: m.retries,
    notBefore: m.notBefore,
    createdAt: m.createdAt,
    callerIp: m.callerIp,
  };
  if (isUtf8(body)) out.body = body.toString('utf8');
  else out.bodyBase64 = shown;
  if (m.callback !== undefined) out.callback = m.callback.url;
  if (m.failureCallback !== undefined) out.failureCallback = m.failureCallback.url;
  if (m.queueName !== undefined) out.queueName = m.queueName;
  if (m.topicName !== undefined) out.topicName = m.topicName;
  if (m.endpointName !== undefined) out.endpointName = m.endpointName;
  if (m.scheduleId !== undefined) out.scheduleId = m.scheduleId;
  if (m.retryDelay !== undefined) out.retryDelayExpression = m.retryDelay;
  // Seconds, as the SDK's publish `timeout` takes a number.
  if (m.timeoutMs !== null) out.timeout = m.timeoutMs / 1000;
  if (m.flowControl !== undefined) {
    const fc = m.flowControl;
    out.flowControlKey = fc.key;
    if (fc.parallelism > 0) out.parallelism = fc.parallelism;
    if (fc.rate > 0) Object.assign(out, { rate: fc.rate, period: fc.periodMs / 1000 });
  }
  if (m.labels !== undefined && m.labels.length > 0) {
    out.labels = m.labels;
    out.label = m.labels[0];
  }
  return out;
}

export function dlqJson(e: DlqEntry, credentials: CredentialHeaders): Record<string, unknown> {
  const out = { ...messageJson(e.message, credentials), dlqId: e.dlqId, responseStatus: e.response.status, responseHeader: multi(e.response.headers) } as Record<string, unknown>;
  const body = Buffer.from(e.response.body, 'base64');
  if (isUtf8(body)) out.responseBody = body.toString('utf8');
  else out.responseBodyBase64 = e.response.body;
  if (e.response.error !== undefined) out.error = e.response.error;
  return out;
}

function isUtf8(b: Buffer): boolean {
  return Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}

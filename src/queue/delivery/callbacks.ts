// The messages a finished delivery makes: the callback (delivery finished with an answer) and
// the failure callback (every retry failed). Each is an ordinary message to the callback URL,
// signed and retried like any other, with the JSON body of the spec. `sourceMessasgeId` is the
// spec's own spelling; `sourceMessageId` is sent too for readers who expect the right one.

import type { DeliveryResponse, FollowUp, QueueMessage } from '../store/message.js';
import { newMessageId } from '../store/message.js';

export interface CallbackDefaults {
  retries: number;
  now: number;
}

export function callbackMessage(
  origin: 'callback' | 'failureCallback',
  to: FollowUp,
  source: QueueMessage,
  response: DeliveryResponse,
  d: CallbackDefaults,
  dlqId?: string,
): QueueMessage {
  const payload: Record<string, unknown> = {
    status: response.status,
    header: multi(response.headers),
    body: response.body,
    retried: source.retried,
    maxRetries: source.retries,
    sourceMessageId: source.id,
    sourceMessasgeId: source.id,
    topicName: source.topicName ?? '',
    endpointName: source.endpointName ?? '',
    url: source.url,
    method: source.method,
    sourceHeader: multi(source.headers),
    sourceBody: source.body,
    notBefore: String(source.notBefore),
    createdAt: String(source.createdAt),
    scheduleId: source.scheduleId ?? '',
    callerIP: source.callerIp,
  };
  if (dlqId !== undefined) payload.dlqId = dlqId;
  const s = to.settings;
  return {
    id: newMessageId(),
    url: to.url,
    method: s.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...s.headers },
    body: Buffer.from(JSON.stringify(payload)).toString('base64'),
    createdAt: d.now,
    notBefore: d.now + (s.delayMs ?? 0),
    retries: s.retries ?? d.retries,
    retried: 0,
    timeoutMs: s.timeoutMs ?? null,
    callerIp: source.callerIp,
    origin,
    ...(s.retryDelay !== undefined && { retryDelay: s.retryDelay }),
  };
}

/** Headers as the service reports them: each name with a list of values. */
export const multi = (h: Record<string, string>): Record<string, string[]> => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, [v]]));

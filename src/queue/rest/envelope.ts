// The one place queue responses are shaped: JSON bodies, `{error, status}` for failures.

import { jsonResponse, type HttpResponse } from '../../server/http.js';
import type { QueueError } from '../errors.js';

export function fail(e: QueueError): HttpResponse {
  return jsonResponse(e.status, JSON.stringify({ error: e.text, status: e.status }));
}

export function ok(value: unknown, status = 200): HttpResponse {
  return jsonResponse(status, JSON.stringify(value));
}

/** 200 with no body: what the service answers when there is nothing to say (pause, delete). */
export function done(): HttpResponse {
  return { status: 200, headers: {}, body: '' };
}

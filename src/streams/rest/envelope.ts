// The one place stream responses are shaped: JSON bodies, `{error, status}` for failures.

import { jsonResponse, type HttpResponse } from '../../server/http.js';
import { UNAUTHORIZED, type StreamError } from '../errors.js';

const SUCCESS_BODY = JSON.stringify({ result: 'Success', status: 200 });

export function fail(e: StreamError): HttpResponse {
  const headers: Record<string, string> | undefined = e === UNAUTHORIZED ? { 'www-authenticate': 'Basic realm="larder"' } : undefined;
  return jsonResponse(e.status, JSON.stringify({ error: e.text, status: e.status }), headers);
}

export function ok(value: unknown): HttpResponse {
  return jsonResponse(200, JSON.stringify(value));
}

export function success(): HttpResponse {
  return jsonResponse(200, SUCCESS_BODY);
}

// The vector service's envelopes: `{"result": ...}` on success and `{"error", "status"}` on
// failure, built only here.

import type { HttpResponse } from '../../server/http.js';
import type { VectorError } from '../errors.js';

const JSON_TYPE = { 'content-type': 'application/json' };
/** Constant answers, encoded once. */
export const SUCCESS_BODY = '{"result":"Success"}';

export function ok(result: unknown): HttpResponse {
  return { status: 200, headers: { ...JSON_TYPE }, body: result === 'Success' ? SUCCESS_BODY : JSON.stringify({ result }) };
}

export function fail(e: VectorError): HttpResponse {
  return { status: e.status, headers: { ...JSON_TYPE }, body: JSON.stringify({ error: e.text, status: e.status }) };
}

// The signing keys at /v2/keys: read them, or rotate (next becomes current, a new next is made).

import type { HttpResponse } from '../../server/http.js';
import { isError } from '../errors.js';
import { fail, ok } from './envelope.js';
import type { Call } from './request.js';

// GET /v2/keys
export function getKeys(call: Call): HttpResponse {
  return ok(call.ctx.engine.keys());
}

// POST /v2/keys/rotate
export function rotateKeys(call: Call): HttpResponse {
  const keys = call.ctx.engine.rotateKeys();
  return isError(keys) ? fail(keys) : ok(keys);
}

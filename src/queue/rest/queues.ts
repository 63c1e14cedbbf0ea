// Queues, as client.queue({queueName}) calls them: POST /v2/queues {queueName, parallelism,
// paused} (create or update), GET /v2/queues, GET and DELETE /v2/queues/{name}, POST
// /v2/queues/{name}/pause and /resume. Queues answer as the SDK's QueueResponse.

import type { HttpResponse } from '../../server/http.js';
import { badRequest, isError } from '../errors.js';
import { DEFAULT_QUEUE_PARALLELISM, isPathName } from '../store/gate-records.js';
import { fail, ok } from './envelope.js';
import { jsonBody, pathNames, type Call } from './request.js';

const MAX_PARALLELISM = 1_000_000;

// GET /v2/queues
export function listQueues(call: Call): HttpResponse {
  return ok(call.ctx.engine.gates.queueList());
}

// GET /v2/queues/{name}
export function getQueue(call: Call): HttpResponse {
  const names = pathNames(call);
  if (names.length !== 1) return fail(badRequest('expected /v2/queues/{queueName}'));
  const q = call.ctx.engine.gates.queue(names[0]);
  return isError(q) ? fail(q) : ok(q);
}

// POST /v2/queues {queueName, parallelism?, paused?}
export async function upsertQueue(call: Call): Promise<HttpResponse> {
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(badRequest('expected a JSON object {queueName, parallelism, paused}'));
  const { queueName, parallelism = DEFAULT_QUEUE_PARALLELISM, paused = false } = body as Record<string, unknown>;
  if (typeof queueName !== 'string' || !isPathName(queueName)) return fail(badRequest('queueName must be a non-empty string without /'));
  if (typeof parallelism !== 'number' || !Number.isInteger(parallelism) || parallelism < 1 || parallelism > MAX_PARALLELISM) {
    return fail(badRequest(`parallelism must be an integer from 1 to ${MAX_PARALLELISM}`));
  }
  if (typeof paused !== 'boolean') return fail(badRequest('paused must be true or false'));
  const gates = call.ctx.engine.gates;
  gates.upsertQueue(queueName, parallelism, paused);
  return ok(gates.queue(queueName));
}

// POST /v2/queues/{name}/pause | /v2/queues/{name}/resume
export function pauseQueue(call: Call): HttpResponse {
  const names = pathNames(call);
  if (names.length !== 2 || (names[1] !== 'pause' && names[1] !== 'resume')) return fail(badRequest('expected /v2/queues/{queueName}/pause or /resume'));
  const gates = call.ctx.engine.gates;
  const err = gates.pauseQueue(names[0], names[1] === 'pause');
  return err === null ? ok(gates.queue(names[0])) : fail(err);
}

// DELETE /v2/queues/{name}: its waiting messages are cancelled with it.
export function deleteQueue(call: Call): HttpResponse {
  const names = pathNames(call);
  if (names.length !== 1) return fail(badRequest('expected /v2/queues/{queueName}'));
  const { engine } = call.ctx;
  const ids = engine.gates.queueMessages(names[0]);
  let cancelled = 0;
  for (const id of ids) if (engine.cancel(id) === null) cancelled++;
  const err = engine.gates.deleteQueue(names[0]);
  return err === null ? ok({ cancelled }) : fail(err);
}

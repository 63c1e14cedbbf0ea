// Flow control, as client.flowControl calls it: GET /v2/flowControl (every key), GET
// /v2/flowControl/{key}, POST /v2/flowControl/{key}/pause | resume | pin | unpin | resetRate,
// and GET /v2/globalParallelism. Keys answer as the SDK's FlowControlInfo.

import type { HttpResponse } from '../../server/http.js';
import { badRequest, durationAboveLimit, isError, type QueueError } from '../errors.js';
import type { PinSettings } from '../delivery/gates.js';
import { fail, ok } from './envelope.js';
import { duration, TOO_LONG } from '../options/duration.js';
import { pathNames, query, type Call } from './request.js';

// GET /v2/flowControl
export function listFlowControl(call: Call): HttpResponse {
  return ok(call.ctx.engine.gates.flowList());
}

// GET /v2/flowControl/{key}
export function getFlowControl(call: Call): HttpResponse {
  const f = call.ctx.engine.gates.flow(pathNames(call).join('/'));
  return isError(f) ? fail(f) : ok(f);
}

// POST /v2/flowControl/{key}/pause | resume | resetRate | pin?parallelism=&rate=&period= | unpin?parallelism=&rate=
export function changeFlowControl(call: Call): HttpResponse {
  const names = pathNames(call);
  const action = names.pop();
  const key = names.join('/');
  if (key === '') return fail(badRequest('expected /v2/flowControl/{key}/{pause|resume|pin|unpin|resetRate}'));
  const gates = call.ctx.engine.gates;
  let err: QueueError | null;
  switch (action) {
    case 'pause':
    case 'resume':
      err = gates.pauseFlow(key, action === 'pause');
      break;
    case 'resetRate':
      err = gates.resetRate(key);
      break;
    case 'pin': {
      const pin = pinSettings(call);
      err = isError(pin) ? pin : gates.pin(key, pin);
      break;
    }
    case 'unpin': {
      const parallelism = flag(call, 'parallelism');
      const rate = flag(call, 'rate');
      if (isError(parallelism)) return fail(parallelism);
      if (isError(rate)) return fail(rate);
      // Neither named: both are unpinned.
      const both = parallelism === undefined && rate === undefined;
      err = gates.unpin(key, both || parallelism === true, both || rate === true);
      break;
    }
    default:
      return fail(badRequest(`unknown flow control action '${action ?? ''}' (pause, resume, pin, unpin, resetRate)`));
  }
  if (err !== null) return fail(err);
  return ok(gates.flow(key));
}

// GET /v2/globalParallelism
export function getGlobalParallelism(call: Call): HttpResponse {
  return ok(call.ctx.engine.globalParallelism());
}

/** parallelism and rate: non-negative integers (0: no limit); period: seconds or a duration. */
function pinSettings(call: Call): PinSettings | QueueError {
  const out: PinSettings = {};
  for (const name of ['parallelism', 'rate'] as const) {
    const v = query(call, name);
    if (v === undefined) continue;
    if (!/^\d{1,9}$/.test(v)) return badRequest(`${name} must be a non-negative integer`);
    out[name] = Number(v);
  }
  const period = query(call, 'period');
  if (period !== undefined) {
    const ms = duration(period, call.ctx.maxDelayMs);
    if (ms === TOO_LONG) return durationAboveLimit('period', period, call.ctx.maxDelayMs);
    if (ms === undefined || ms === 0) return badRequest(`invalid period: '${period}' (seconds, or a duration such as 10s, 5m)`);
    out.periodMs = ms;
  }
  if (Object.keys(out).length === 0) return badRequest('pin needs parallelism, rate or period');
  return out;
}

function flag(call: Call, name: string): boolean | undefined | QueueError {
  const v = query(call, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') return badRequest(`${name} must be true or false`);
  return v === 'true';
}

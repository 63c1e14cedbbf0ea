// Upstash-Flow-Control-Key with Upstash-Flow-Control-Value: `parallelism=N, rate=N, period=<duration>`
// (the SDK's flowControl option writes these), at least one of parallelism and rate. A missing
// parallelism or rate means no limit of that kind; the period defaults to one second and is no
// longer than queue.maxDelayMs (a message the rate holds back waits up to a period: a delay).

import { badRequest, durationAboveLimit, invalidFlowControl, type QueueError } from '../errors.js';
import { DEFAULT_RATE_PERIOD_MS, type FlowControlSetting } from '../store/gate-records.js';
import { duration, TOO_LONG } from './duration.js';

export function readFlowControl(key: string | undefined, value: string | undefined, maxPeriodMs: number): FlowControlSetting | undefined | QueueError {
  if (key === undefined && value === undefined) return undefined;
  if (key === undefined || key.trim() === '') return badRequest('Upstash-Flow-Control-Value needs an Upstash-Flow-Control-Key');
  if (value === undefined) return badRequest('Upstash-Flow-Control-Key needs an Upstash-Flow-Control-Value (parallelism=N, rate=N, period=<duration>)');
  const out: FlowControlSetting = { key: key.trim(), parallelism: 0, rate: 0, periodMs: DEFAULT_RATE_PERIOD_MS };
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const m = /^\s*([A-Za-z]+)\s*=\s*(\S+)\s*$/.exec(part);
    const name = m?.[1].toLowerCase();
    if (m === null || name === undefined || seen.has(name)) return invalidFlowControl(value);
    seen.add(name);
    if (name === 'period') {
      const ms = duration(m[2], maxPeriodMs);
      if (ms === TOO_LONG) return durationAboveLimit('period', m[2], maxPeriodMs);
      if (ms === undefined || ms === 0) return invalidFlowControl(value);
      out.periodMs = ms;
    } else if (name === 'parallelism' || name === 'rate') {
      if (!/^[1-9]\d{0,8}$/.test(m[2])) return invalidFlowControl(value);
      out[name] = Number(m[2]);
    } else return invalidFlowControl(value);
  }
  return out.parallelism === 0 && out.rate === 0 ? invalidFlowControl(value) : out;
}

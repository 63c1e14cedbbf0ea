// When the next attempt is due: the service's back-off min(86400, e^(2.5·n)) seconds after the
// n-th failed attempt, unless the destination named a time itself (Retry-After as seconds, an
// HTTP date or a duration such as `6m5s` as QStash documents it, or the
// X-RateLimit-Reset* headers some APIs send). Both are multiplied by `scale`
// (queue.retryDelayScale), so tests run the real schedule in milliseconds. A message's own
// Upstash-Retry-Delay expression replaces the back-off (the destination's answer still wins).

import { retryDelayMs } from './retry-delay.js';

const MAX_DELAY_S = 86_400;

/** The wait before retry number `retried` (1 for the first), from `expression` when it gives one. */
export function backoffMs(retried: number, scale: number, expression?: string): number {
  // The expression's `retried` counts the retries made before this one: 0 for the first.
  const custom = expression === undefined ? undefined : retryDelayMs(expression, retried - 1);
  // Whole ms: the API shows the next attempt's time (nextDeliveryTime, notBefore) as an integer.
  return Math.round((custom ?? Math.min(MAX_DELAY_S, Math.exp(2.5 * retried)) * 1000) * scale);
}

/** A Go-style duration: one or more number-unit pairs, e.g. `6m5s`, `1h`, `1.5s`, `500ms`. */
const DURATION = /^(?:\d+(?:\.\d+)?(?:h|m|s|ms))+$/;
const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };

function durationSeconds(text: string): number {
  let seconds = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) seconds += Number(n) * UNIT_SECONDS[unit];
  return seconds;
}

/** The delay the destination asked for, in ms, or undefined. */
export function requestedDelayMs(headers: Record<string, string>, nowMs: number, scale: number): number | undefined {
  const retryAfter = headers['retry-after'];
  let seconds: number | undefined;
  if (retryAfter !== undefined) {
    const text = retryAfter.trim();
    if (/^\d+$/.test(text)) seconds = Number(text);
    else if (DURATION.test(text)) seconds = durationSeconds(text);
    else {
      const at = Date.parse(retryAfter);
      if (!Number.isNaN(at)) seconds = Math.max(0, (at - nowMs) / 1000);
    }
  }
  for (const name of ['x-ratelimit-reset', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens']) {
    if (seconds !== undefined) break;
    const v = headers[name];
    if (v === undefined) continue;
    const text = v.trim();
    const n = Number(text);
    // Seconds to wait, a unix time in seconds, or a duration (OpenAI's `6m0s`), as APIs differ.
    if (Number.isFinite(n) && n >= 0) seconds = n > 1e9 ? Math.max(0, n - nowMs / 1000) : n;
    else if (DURATION.test(text)) seconds = durationSeconds(text);
  }
  return seconds === undefined ? undefined : Math.round(Math.min(MAX_DELAY_S, seconds) * 1000 * scale);
}

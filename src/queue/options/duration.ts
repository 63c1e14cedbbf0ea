// Durations as the queue's settings write them (Upstash-Delay, Upstash-Timeout, a flow-control
// period, a wait's timeout): the one duration parser of the queue service. Each caller names its
// bound, and a longer duration is refused rather than returned: so no duration is ever Infinity
// (400 digits) or an integer a double cannot hold (99999999999999999d), and a clock plus one
// stays exact.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** setTimeout's longest wait: a longer one fires at once (Node warns and waits 1 ms). */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A duration longer than the caller's bound. */
export const TOO_LONG = 'too long';

/**
 * `10s`, `5m`, `2h`, `1d`, `500ms`, or a bare number of seconds; undefined when malformed,
 * TOO_LONG when longer than `maxMs` (at most Number.MAX_SAFE_INTEGER).
 */
export function duration(text: string, maxMs: number): number | undefined | typeof TOO_LONG {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (m === null) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] ?? 's'];
  return ms > maxMs ? TOO_LONG : ms;
}

/** `ms` in the largest unit that writes it whole: 7d, 36h, 2147483647ms. */
export function showDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's']) if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}

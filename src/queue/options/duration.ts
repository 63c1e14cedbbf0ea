// Durations as the queue's settings write them (Upstash-Delay, Upstash-Timeout, a flow-control
// period, a wait's timeout): the one duration parser of the queue service.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `10s`, `5m`, `2h`, `1d`, `500ms`, or a bare number of seconds; undefined when malformed. */
export function duration(text: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  return m === null ? undefined : Number(m[1]) * UNIT_MS[m[2] ?? 's'];
}

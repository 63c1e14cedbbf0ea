// The filters @upstash/workflow sends to its bulk and list endpoints (cancel, the workflow DLQ,
// the logs), read by list-query.ts's readParams as the queue's own: a filter may repeat (a
// record matches one of its values), different filters must all match, and a name the endpoint
// does not take is refused. Ignored, it would select every record: a cancel of the runs on one
// host would end them all.

import type { QueryParams } from './list-query.js';

export type Filters = QueryParams;

/** True when the filter `name` is absent, or `test` holds for one of its values. */
export function anyOf(f: Filters, name: string, test: (v: string) => boolean): boolean {
  const values = f.get(name);
  return values === undefined || values.some(test);
}

/** True when `time` lies within fromDate and toDate (ms), where given. */
export function withinDates(f: Filters, time: number): boolean {
  return time >= Number(f.get('fromDate')?.[0] ?? -Infinity) && time <= Number(f.get('toDate')?.[0] ?? Infinity);
}

/** The host and path of a workflow URL ('' for either when it does not parse). */
export function hostAndPath(url: string): { host: string; path: string } {
  try {
    const u = new URL(url);
    return { host: u.host, path: u.pathname };
  } catch {
    return { host: '', path: '' };
  }
}

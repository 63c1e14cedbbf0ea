// The filters @upstash/workflow sends to its bulk and list endpoints (cancel, the workflow DLQ,
// the logs): a filter may repeat (a record matches one of its values), different filters must
// all match, and a name the endpoint does not take is refused. Ignored, it would select every
// record: a cancel of the runs on one host would end them all.

import { queryPairs, utf8Text } from '../../server/url.js';
import { badRequest, type QueueError } from '../errors.js';
import type { Call } from './request.js';

/** Query parameters every such endpoint takes besides its filters. */
const PAGING = ['count', 'cursor', 'qstash_token'];

export type Filters = ReadonlyMap<string, readonly string[]>;

/** The query's values by name; a name outside `filters` (and the paging words) is refused. */
export function readFilters(call: Call, filters: readonly string[]): Filters | QueueError {
  const out = new Map<string, string[]>();
  for (const [k, v] of queryPairs(call.req.query)) {
    const name = utf8Text(k);
    if (!filters.includes(name) && !PAGING.includes(name)) {
      return badRequest(`unknown filter '${name}': this endpoint takes ${filters.join(', ')}, count and cursor`);
    }
    out.set(name, [...(out.get(name) ?? []), utf8Text(v ?? '')]);
  }
  return out;
}

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

// The query of the logs, the DLQ and bulk cancel: filters (each repeatable), ids, count and
// cursor; and the page of a bulk action or DLQ list they select. Each endpoint takes the filters
// @upstash/qstash declares for it. Any other parameter is refused naming it: ignoring a typo
// would turn "delete where labeel=x" into "delete everything".

import { queryPairs, utf8Text } from '../../server/url.js';
import { badRequest, invalidIdsBody, isError, type QueueError } from '../errors.js';
import type { FilterField, RecordFilter } from '../store/record-filter.js';
import type { Call } from './request.js';
import type { ListingPosition } from '../store/listing-order.js';

export interface QuerySpec {
  /** The parameter naming records one by one (`messageIds`, `dlqIds`). */
  readonly ids: string;
  readonly filters: ReadonlySet<FilterField | 'fromDate' | 'toDate'>;
}

export interface ListQuery {
  filter: RecordFilter;
  ids: string[];
  /** Whether the call names its records one by one (query or body), even if none: it then acts on those only. */
  named: boolean;
  /** As given (at most MAX_COUNT); undefined when not. */
  count: number | undefined;
  cursor: string | undefined;
}

// The SDK's UniversalFilterFields and QStashIdentityFields (its urlGroup is sent as topicName).
const UNIVERSAL = ['fromDate', 'toDate', 'callerIp', 'label', 'flowControlKey'] as const;
const IDENTITY = ['url', 'topicName', 'scheduleId', 'queueName'] as const;

/** DELETE /v2/messages (MessageCancelFilterFields). */
export const CANCEL_QUERY: QuerySpec = { ids: 'messageIds', filters: new Set([...UNIVERSAL, ...IDENTITY, 'host', 'path']) };
/** /v2/dlq list, delete and retry (DLQFilterFields: no host or path, which the service refuses there). */
export const DLQ_QUERY: QuerySpec = { ids: 'dlqIds', filters: new Set([...UNIVERSAL, ...IDENTITY, 'messageId', 'responseStatus']) };
/** /v2/logs and /v2/events (LogsListFilters). */
export const LOG_QUERY: QuerySpec = { ids: 'messageIds', filters: new Set([...UNIVERSAL, ...IDENTITY, 'host', 'path', 'state', 'messageId']) };

/** How many a list (the logs, the DLQ) answers when the caller names no count. */
export const LIST_COUNT = 100;
/** A bulk action given no count acts on every match; a cancel always does (messages.ts). */
export const EVERY_MATCH = Infinity;
const MAX_COUNT = 1000;

/** Query parameters every such endpoint takes besides its filters (the token, when the caller puts it in the query). */
const PAGING = ['count', 'cursor', 'qstash_token'];

export type QueryParams = ReadonlyMap<string, readonly string[]>;

/** Filters that hold a unix time in ms, wherever an endpoint takes them: any other text would match nothing, silently. */
const TIMES = ['fromDate', 'toDate', 'workflowCreatedAt'];

/**
 * The query's values by name, in the order they first come; a name outside `takes` and PAGING
 * is refused, and so is a time filter that is not a unix time in ms.
 */
export function readParams(call: Call, takes: readonly string[]): QueryParams | QueueError {
  const out = new Map<string, string[]>();
  for (const [k, v] of queryPairs(call.req.query)) {
    const name = utf8Text(k);
    if (!takes.includes(name) && !PAGING.includes(name)) {
      return badRequest(`unknown filter '${name}': this endpoint takes ${takes.join(', ')}, count and cursor`);
    }
    const value = utf8Text(v ?? '');
    if (TIMES.includes(name) && !/^\d+$/.test(value)) return badRequest(`${name} must be a unix time in ms`);
    out.set(name, [...(out.get(name) ?? []), value]);
  }
  return out;
}

/** `body`: a bulk action's JSON body, undefined when it has none (see bodyIds). */
export function readListQuery(call: Call, spec: QuerySpec, body?: unknown): ListQuery | QueueError {
  const params = readParams(call, [...spec.filters, spec.ids]);
  if (isError(params)) return params;
  const out: ListQuery = { filter: {}, ids: [], named: false, count: undefined, cursor: undefined };
  for (const [name, values] of params) {
    for (const value of values) {
      const err = readParam(out, spec, name, value);
      if (err !== null) return err;
    }
  }
  if (body === undefined) return out;
  const ids = bodyIds(body, spec.ids);
  if (isError(ids)) return ids;
  out.ids.push(...ids);
  out.named = true;
  return out;
}

/**
 * The ids of a bulk delete's JSON body, `{"dlqIds": [..]}` or `{"messageIds": [..]}`, as the
 * service's API documents them and older SDKs send them (dlq.deleteMany, messages.deleteMany).
 * Any other body is refused: ignored, it would leave the call without ids, and so acting on every record.
 */
function bodyIds(body: unknown, name: string): string[] | QueueError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalidIdsBody(name);
  const keys = Object.keys(body);
  const ids = (body as Record<string, unknown>)[name];
  if (keys.length !== 1 || keys[0] !== name || !Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return invalidIdsBody(name);
  return ids;
}

function readParam(out: ListQuery, spec: QuerySpec, name: string, value: string): QueueError | null {
  if (name === spec.ids) {
    out.ids.push(value);
    out.named = true;
  } else if (name === 'count') {
    if (!/^\d+$/.test(value) || Number(value) === 0) return badRequest('count must be a positive integer');
    out.count = Math.min(MAX_COUNT, Number(value));
  } else if (name === 'cursor') out.cursor = value === '' ? undefined : value;
  else if (name === 'qstash_token') return null;
  else if (name === 'fromDate' || name === 'toDate') out.filter[name] = Number(value);
  else if (name === 'responseStatus') {
    if (!/^\d+$/.test(value)) return badRequest('responseStatus must be an HTTP status code');
    (out.filter.responseStatus ??= []).push(String(Number(value)));
  } else (out.filter[name as FilterField] ??= []).push(value);
  return null;
}

/**
 * Up to `count` of the records that `keep` accepts after `cursor`, read in listing order from
 * `ordered` (time, then id), and the cursor to continue from while more remain. A position, not
 * an offset: a bulk action removes what it acted on, and the next call must not skip past the
 * rest. A cursor that is not a position answers an empty page.
 */
export function pageOf<T>(
  ordered: (after: ListingPosition | undefined) => Iterable<T>,
  position: (t: T) => ListingPosition,
  keep: (t: T) => boolean,
  count: number,
  cursor: string | undefined,
): { page: T[]; cursor?: string } {
  const after = cursor === undefined ? undefined : parsePosition(cursor);
  if (after === null) return { page: [] };
  const page: T[] = [];
  for (const t of ordered(after)) {
    if (!keep(t)) continue;
    if (page.length === count) {
      const last = position(page[page.length - 1]);
      return { page, cursor: cursorAt(last) };
    }
    page.push(t);
  }
  return { page };
}

/**
 * The cursor of the logs (the queue's and the workflow runs') and of the workflow DLQ: an offset
 * from the newest, as they answer it; 0 when none is given. Anything but a whole number is no
 * position (undefined), which the endpoint answers with an empty page, as the DLQ answers a cursor
 * it did not give: a negative offset read past the newest event, whose hole a filter then failed
 * on (500).
 */
export function offsetCursor(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return 0;
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** A position as a cursor: the time padded so that cursors sort as the records do. */
const cursorAt = (p: ListingPosition) => `${String(p.time).padStart(15, '0')}-${p.id}`;

function parsePosition(cursor: string): ListingPosition | null {
  const m = /^(\d{15})-/.exec(cursor);
  return m === null ? null : { time: Number(m[1]), id: cursor.slice(16) };
}

/** A bulk or list answer, with the cursor to continue from while more match. */
export const withCursor = <T extends object>(answer: T, cursor: string | undefined) => (cursor === undefined ? answer : { ...answer, cursor });

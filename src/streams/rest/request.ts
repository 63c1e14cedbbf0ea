// What every endpoint reads from a request: the cluster, the decoded path arguments, the
// query, and the JSON body, and the readers for the shapes the spec names (TopicPartition,
// TopicPartitionOffset, timeouts). The only JSON and number parsing of the stream service.

import type { StreamClusterConfig } from '../../config/schema.js';
import type { Secrets } from '../../server/endpoint.js';
import type { HttpRequest } from '../../server/http.js';
import { readBody, readJsonBody, type BodyLimits } from '../../server/json-body.js';
import { queryText } from '../../server/url.js';
import type { Position, StreamBackend, TopicPartition } from '../backend.js';
import { BODY_TOO_LARGE, badRequest, isError, NOT_JSON, type StreamError } from '../errors.js';
import type { GroupCoordinator } from '../groups/coordinator.js';

export interface Cluster {
  readonly name: string;
  readonly settings: StreamClusterConfig;
  /** The cluster's user and password. */
  readonly secrets: Secrets;
  readonly backend: StreamBackend;
  readonly groups: GroupCoordinator;
}

export interface Call {
  readonly req: HttpRequest;
  readonly cluster: Cluster;
  /** Path segments after the endpoint's name, percent-decoded as UTF-8. */
  readonly args: readonly string[];
  readonly limits: BodyLimits;
}

export const query = (call: Call, name: string): string | undefined => queryText(call.req.query, name);

const BODY_ERRORS = { tooLarge: BODY_TOO_LARGE, notJson: NOT_JSON };

/** The raw body; an error when over the limit. */
export const bodyBytes = (call: Call): Promise<Buffer | StreamError> => readBody(call.req, call.limits.maxBodyBytes, BODY_TOO_LARGE);

/** The parsed JSON body; undefined when there is none. */
export const jsonBody = (call: Call): Promise<unknown | StreamError> => readJsonBody(call.req, call.limits, BODY_ERRORS);

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-negative integer field (JSON number or decimal text). */
export function integer(v: unknown, what: string, min = 0): number | StreamError {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) return badRequest(`${what} must be an integer${min === 0 ? ' >= 0' : ` >= ${min}`}`);
  return n;
}

export function text(v: unknown, what: string): string | StreamError {
  return typeof v === 'string' && v !== '' ? v : badRequest(`${what} must be a non-empty string`);
}

const MAX_TIMEOUT_MS = 300_000;

/** A `timeout` in ms, `fallback` when absent. */
export function timeout(v: unknown, fallback: number): number | StreamError {
  if (v === undefined || v === null) return fallback;
  const n = integer(v, 'timeout');
  if (typeof n !== 'number') return n;
  return n > MAX_TIMEOUT_MS ? badRequest(`timeout must be at most ${MAX_TIMEOUT_MS} ms`) : n;
}

export function topicPartition(v: unknown): TopicPartition | StreamError {
  if (!isObject(v)) return badRequest('expected an object with topic and partition');
  const topic = text(v.topic, 'topic');
  if (typeof topic !== 'string') return topic;
  const partition = integer(v.partition, 'partition');
  if (typeof partition !== 'number') return partition;
  return { topic, partition };
}

export function position(v: unknown): Position | StreamError {
  const tp = topicPartition(v);
  if (isError(tp)) return tp;
  const offset = integer((v as Record<string, unknown>).offset, 'offset');
  return typeof offset === 'number' ? { ...tp, offset } : offset;
}

/** One item or an array of them, each read by `read`. */
export function oneOrMany<T>(body: unknown, read: (v: unknown) => T | StreamError): T[] | StreamError {
  const items = Array.isArray(body) ? body : [body];
  const out: T[] = [];
  for (const item of items) {
    const r = read(item);
    if (isError(r)) return r;
    out.push(r);
  }
  return out;
}

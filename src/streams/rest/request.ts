// What every endpoint reads from a request: the cluster, the decoded path arguments, the
// query, and the JSON body, and the readers for the shapes the spec names (TopicPartition,
// TopicPartitionOffset, timeouts). The only JSON and number parsing of the stream service.

import type { StreamClusterConfig } from '../../config/schema.js';
import type { HttpRequest } from '../../server/http.js';
import { parseJsonText, type BodyLimits } from '../../server/json-body.js';
import { percentDecode, queryParam } from '../../server/url.js';
import type { Position, StreamBackend, TopicPartition } from '../backend.js';
import { BODY_TOO_LARGE, badRequest, isError, NOT_JSON, type StreamError } from '../errors.js';
import type { GroupCoordinator } from '../groups/coordinator.js';

export interface Cluster {
  readonly name: string;
  readonly settings: StreamClusterConfig;
  readonly username: string;
  readonly password: string;
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

/** Percent-decoded UTF-8 text of a path segment or query value. */
export const decodeText = (s: string, plusIsSpace = false) => Buffer.from(percentDecode(s, plusIsSpace), 'latin1').toString('utf8');

export function query(call: Call, name: string): string | undefined {
  const v = queryParam(call.req.query, name);
  return v === undefined ? undefined : Buffer.from(v, 'latin1').toString('utf8');
}

/** The raw body; an error when over the limit. */
export async function bodyBytes(call: Call): Promise<Buffer | StreamError> {
  const bytes = await call.req.body(call.limits.maxBodyBytes);
  return bytes === null ? BODY_TOO_LARGE : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The parsed JSON body; undefined when there is none. */
export async function jsonBody(call: Call): Promise<unknown | StreamError> {
  const bytes = await bodyBytes(call);
  if (!(bytes instanceof Buffer)) return bytes;
  const text = bytes.toString('utf8');
  return text.trim() === '' ? undefined : parseJsonText(text, call.limits.maxNestingDepth, NOT_JSON);
}

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

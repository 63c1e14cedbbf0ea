// Fetch (no consumer group), metadata (topics, consumers, offsets) and the admin endpoint
// that creates a topic.

import { streamTopic } from '../../config/schema.js';
import type { HttpResponse } from '../../server/http.js';
import type { Position } from '../backend.js';
import { badRequest, isError } from '../errors.js';
import { fail, ok } from './envelope.js';
import { integer, isObject, jsonBody, oneOrMany, position, query, timeout, topicPartition, type Call } from './request.js';

const FETCH_TIMEOUT_MS = 1000;
const OFFSETS_TIMEOUT_MS = 10_000;
/** Most messages one fetch returns. */
const MAX_FETCH = 1000;

// [GET|POST] /fetch with {topic, partition, offset} and/or {topicPartitionOffsets}, and timeout
export async function fetchMessages(call: Call, body: unknown): Promise<HttpResponse> {
  if (!isObject(body)) return fail(badRequest('fetch needs a body with topic, partition and offset, or topicPartitionOffsets'));
  const positions: Position[] = [];
  if (body.topic !== undefined) {
    const p = position(body);
    if (isError(p)) return fail(p);
    positions.push(p);
  }
  if (body.topicPartitionOffsets !== undefined) {
    if (!Array.isArray(body.topicPartitionOffsets)) return fail(badRequest('topicPartitionOffsets must be an array'));
    const list = oneOrMany(body.topicPartitionOffsets, position);
    if (isError(list)) return fail(list);
    positions.push(...list);
  }
  if (positions.length === 0) return fail(badRequest('fetch needs topic, partition and offset, or topicPartitionOffsets'));
  const wait = timeout(body.timeout, FETCH_TIMEOUT_MS);
  if (isError(wait)) return fail(wait);
  const out = await call.cluster.backend.read(positions, MAX_FETCH, wait);
  return isError(out) ? fail(out) : ok(out);
}

// GET /topics
export function listTopics(call: Call): HttpResponse {
  return ok(Object.fromEntries(call.cluster.backend.topics()));
}

// GET /consumers
export function listConsumers(call: Call): HttpResponse {
  return ok(call.cluster.groups.list());
}

// [GET|POST] /offsets/$TIMESTAMP|earliest|latest[?timeout=] with a TopicPartition or an array
export async function topicOffsets(call: Call): Promise<HttpResponse> {
  const at = call.args[0];
  const ts = at === 'earliest' || at === 'latest' ? at : integer(at, 'timestamp');
  if (isError(ts)) return fail(badRequest('the timestamp must be an integer (ms), earliest or latest'));
  const wait = timeout(query(call, 'timeout'), OFFSETS_TIMEOUT_MS);
  if (isError(wait)) return fail(wait);
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  if (body === undefined) return fail(badRequest('offsets needs a TopicPartition or an array of them'));
  const tps = oneOrMany(body, topicPartition);
  if (isError(tps)) return fail(tps);
  const backend = call.cluster.backend;
  const out: Position[] = [];
  for (const tp of tps) {
    const range = backend.range(tp);
    if (isError(range)) return fail(range);
    const offset = ts === 'earliest' ? range.start : ts === 'latest' ? range.end : backend.offsetForTime(tp, ts);
    if (isError(offset)) return fail(offset);
    out.push({ ...tp, offset });
  }
  return ok(out);
}

// POST /create-topic/$TOPIC with {partitions, retentionMs, retentionBytes, segmentBytes} (all optional)
export function createTopic(call: Call, body: unknown): HttpResponse {
  const name = call.args[0] ?? '';
  const settings = streamTopic.safeParse(body ?? {});
  if (!settings.success) return fail(badRequest(settings.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')));
  const err = call.cluster.backend.createTopic(name, settings.data);
  return err === null ? ok({ topic: name, partitions: settings.data.partitions }) : fail(err);
}

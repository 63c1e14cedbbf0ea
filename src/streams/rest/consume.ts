// Consumer-group endpoints: consume, commit, delete-consumer and committed.

import type { HttpResponse } from '../../server/http.js';
import { badRequest, isError, type StreamError } from '../errors.js';
import type { InstanceSettings } from '../groups/coordinator.js';
import { fail, ok, success } from './envelope.js';
import { integer, isObject, jsonBody, oneOrMany, position, query, text, timeout, topicPartition, type Call } from './request.js';

const CONSUME_TIMEOUT_MS = 1000;
const COMMITTED_TIMEOUT_MS = 10_000;
const AUTO_COMMIT_INTERVAL_MS = 5000;

// GET /consume/$GROUP/$INSTANCE/$TOPIC[?timeout=]; [GET|POST] /consume/$GROUP/$INSTANCE with {topic | topics, timeout}
export async function consumeMessages(call: Call): Promise<HttpResponse> {
  const [group, instance, pathTopic] = call.args;
  if (instance === undefined) return fail(badRequest('consume needs /consume/$GROUP/$INSTANCE'));
  let topics: string[];
  let wait: number | StreamError;
  if (pathTopic !== undefined) {
    topics = [pathTopic];
    wait = timeout(query(call, 'timeout'), CONSUME_TIMEOUT_MS);
  } else {
    const body = await jsonBody(call);
    if (isError(body)) return fail(body);
    if (!isObject(body)) return fail(badRequest('consume needs a body with topic or topics'));
    const list = body.topics !== undefined ? body.topics : body.topic !== undefined ? [body.topic] : undefined;
    if (!Array.isArray(list) || list.length === 0) return fail(badRequest('consume needs topic (a string) or topics (a non-empty array)'));
    topics = [];
    for (const t of list) {
      const name = text(t, 'topic');
      if (isError(name)) return fail(name);
      topics.push(name);
    }
    wait = timeout(body.timeout ?? query(call, 'timeout'), CONSUME_TIMEOUT_MS);
  }
  if (isError(wait)) return fail(wait);
  // The headers count only on the request that creates the instance.
  const out = await call.cluster.groups.consume(group, instance, topics, wait, () => instanceSettings(call));
  return isError(out) ? fail(out) : ok(out);
}

/** The consumer headers, under the Kafka-* names the SDK sends or the spec's Stream-* ones. */
function instanceSettings(call: Call): InstanceSettings | StreamError {
  const h = (name: string) => call.req.header(`kafka-${name}`) ?? call.req.header(`stream-${name}`);
  const auto = h('enable-auto-commit')?.toLowerCase() ?? 'true';
  if (auto !== 'true' && auto !== 'false') return badRequest('Enable-Auto-Commit must be true or false');
  const interval = integer(h('auto-commit-interval') ?? AUTO_COMMIT_INTERVAL_MS, 'Auto-Commit-Interval', 1);
  if (isError(interval)) return interval;
  const reset = h('auto-offset-reset')?.toLowerCase() ?? 'latest';
  if (reset !== 'earliest' && reset !== 'latest' && reset !== 'none') return badRequest('Auto-Offset-Reset must be earliest, latest or none');
  const session = integer(h('session-timeout-ms') ?? call.cluster.settings.sessionTimeoutMs, 'Session-Timeout-Ms', 1);
  if (isError(session)) return session;
  return { autoCommit: auto === 'true', autoCommitIntervalMs: interval, offsetReset: reset, sessionTimeoutMs: session };
}

// [GET|POST] /commit/$GROUP/$INSTANCE with a TopicPartitionOffset, an array, or nothing (the last consumed)
export async function commitOffsets(call: Call): Promise<HttpResponse> {
  const [group, instance] = call.args;
  if (instance === undefined) return fail(badRequest('commit needs /commit/$GROUP/$INSTANCE'));
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  const empty = body === undefined || body === null || (Array.isArray(body) && body.length === 0);
  const positions = empty ? null : oneOrMany(body, position);
  if (isError(positions)) return fail(positions);
  const err = await call.cluster.groups.commit(group, instance, positions);
  return err === null ? success() : fail(err);
}

// [POST|DELETE] /delete-consumer/$GROUP/$INSTANCE
export async function deleteConsumer(call: Call): Promise<HttpResponse> {
  const [group, instance] = call.args;
  if (instance === undefined) return fail(badRequest('delete-consumer needs /delete-consumer/$GROUP/$INSTANCE'));
  const err = await call.cluster.groups.remove(group, instance);
  return err === null ? success() : fail(err);
}

// [GET|POST] /committed/$GROUP/$INSTANCE[?timeout=] with a TopicPartition or an array
export async function committedOffsets(call: Call): Promise<HttpResponse> {
  const [group, instance] = call.args;
  if (instance === undefined) return fail(badRequest('committed needs /committed/$GROUP/$INSTANCE'));
  const wait = timeout(query(call, 'timeout'), COMMITTED_TIMEOUT_MS);
  if (isError(wait)) return fail(wait);
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  if (body === undefined) return fail(badRequest('committed needs a TopicPartition or an array of them'));
  const tps = oneOrMany(body, topicPartition);
  if (isError(tps)) return fail(tps);
  const out = call.cluster.groups.committed(group, tps);
  return isError(out) ? fail(out) : ok(out);
}

// Producing: the path form, one message or an array per request (one topic from the path,
// or a topic per message), and the webhook, which stores an HTTP call as a message.

import { streamTopic } from '../../config/schema.js';
import type { HttpResponse } from '../../server/http.js';
import type { Header, OutgoingMessage } from '../backend.js';
import { badRequest, isError, messageTooLarge, NO_BODY, topicToCreate, type StreamError } from '../errors.js';
import { fail, ok } from './envelope.js';
import { bodyBytes, integer, isObject, jsonBody, query, text, type Call } from './request.js';

// GET /produce/$TOPIC/$MESSAGE[?key=$KEY]: one Metadata object. A '/' in the message comes as
// %2F (segments are decoded after the path is split); a further segment is an unknown path.
export async function producePath(call: Call): Promise<HttpResponse> {
  const [topic, value] = call.args;
  const message: OutgoingMessage = { topic, key: query(call, 'key') ?? null, value, headers: [] };
  const out = await produce(call, [message]);
  return isError(out) ? fail(out) : ok(out[0]);
}

// [GET|POST] /produce[/$TOPIC] with one Message or an array: array of Metadata.
export async function produceMessages(call: Call): Promise<HttpResponse> {
  const pathTopic = call.args[0];
  const body = await jsonBody(call);
  if (isError(body)) return fail(body);
  if (body === undefined) return fail(NO_BODY);
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) return fail(badRequest('no messages to produce'));
  const messages: OutgoingMessage[] = [];
  for (const item of items) {
    const m = readMessage(item, pathTopic);
    if (isError(m)) return fail(m);
    messages.push(m);
  }
  const out = await produce(call, messages);
  return isError(out) ? fail(out) : ok(out);
}

/** Headers every HTTP client sends; the webhook keeps all others as message headers. */
const STANDARD_HEADERS = new Set([
  'accept', 'accept-charset', 'accept-encoding', 'accept-language', 'authorization', 'cache-control', 'connection',
  'content-encoding', 'content-length', 'content-type', 'cookie', 'date', 'expect', 'forwarded', 'host', 'keep-alive',
  'origin', 'pragma', 'priority', 'proxy-authorization', 'proxy-connection', 'referer', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'user-agent', 'via', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
]);
const isStandard = (name: string) => STANDARD_HEADERS.has(name) || /^(sec-|if-|access-control-)/.test(name);

// [GET|POST] /webhook?topic=$TOPIC[&key=$KEY]: the body becomes the value, as a produce to /produce.
export async function receiveWebhook(call: Call): Promise<HttpResponse> {
  const topic = query(call, 'topic');
  if (topic === undefined || topic === '') return fail(badRequest('webhook needs the query parameter topic'));
  const body = await bodyBytes(call);
  if (isError(body)) return fail(body);
  const headers: Header[] = call.req
    .headerNames()
    .filter((n) => !isStandard(n))
    .map((n) => ({ key: n, value: call.req.header(n) ?? '' }));
  const out = await produce(call, [{ topic, key: query(call, 'key') ?? null, value: body.toString('utf8'), headers }]);
  return isError(out) ? fail(out) : ok(out);
}

async function produce(call: Call, messages: OutgoingMessage[]) {
  const { backend, settings } = call.cluster;
  const max = settings.maxMessageBytes;
  for (const m of messages) {
    const size = Buffer.byteLength(m.value) + (m.key === null ? 0 : Buffer.byteLength(m.key)) + m.headers.reduce((n, h) => n + Buffer.byteLength(h.key) + Buffer.byteLength(h.value), 0);
    if (size > max) return messageTooLarge(size, max);
    if (backend.topics().has(m.topic)) continue;
    if (!settings.autoCreateTopics) return topicToCreate(m.topic, call.cluster.name);
    const created = backend.createTopic(m.topic, streamTopic.parse({ partitions: settings.defaultPartitions }));
    if (created !== null) return created;
  }
  return backend.produce(messages);
}

function readMessage(v: unknown, pathTopic: string | undefined): OutgoingMessage | StreamError {
  if (!isObject(v)) return badRequest('a message must be an object with at least a value');
  const topic = pathTopic ?? text(v.topic, 'topic');
  if (isError(topic)) return topic;
  if (typeof v.value !== 'string') return badRequest('value must be a string');
  const m: OutgoingMessage = { topic, key: null, value: v.value, headers: [] };
  if (v.partition !== undefined && v.partition !== null) {
    const p = integer(v.partition, 'partition');
    if (isError(p)) return p;
    m.partition = p;
  }
  if (v.timestamp !== undefined && v.timestamp !== null) {
    const t = integer(v.timestamp, 'timestamp');
    if (isError(t)) return t;
    m.timestamp = t;
  }
  if (v.key !== undefined && v.key !== null) {
    if (typeof v.key !== 'string') return badRequest('key must be a string');
    m.key = v.key;
  }
  if (v.headers !== undefined && v.headers !== null) {
    if (!Array.isArray(v.headers)) return badRequest('headers must be an array of {key, value}');
    for (const h of v.headers) {
      if (!isObject(h) || typeof h.key !== 'string' || typeof h.value !== 'string') return badRequest('each header must be {key, value} with string fields');
      m.headers.push({ key: h.key, value: h.value });
    }
  }
  return m;
}

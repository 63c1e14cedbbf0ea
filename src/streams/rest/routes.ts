// The stream REST surface of every cluster under /kafka/<cluster>/<endpoint>/...: checks the
// cluster's Basic credentials (the webhook also takes ?user=&pass=), the method, then calls
// the endpoint. Endpoints are data: name, methods, handler.

import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { serveEndpoint, type Auth, type Endpoint, type Refusals } from '../../server/endpoint.js';
import type { BodyLimits } from '../../server/json-body.js';
import { pathSegments, percentDecodeText } from '../../server/url.js';
import { BODY_TOO_LARGE, methodNotAllowed, NOT_JSON, notFound, UNAUTHORIZED } from '../errors.js';
import { commitOffsets, committedOffsets, consumeMessages, deleteConsumer } from './consume.js';
import { fail } from './envelope.js';
import { listConsumers, createTopic, fetchMessages, topicOffsets, listTopics } from './metadata.js';
import { produceMessages, producePath, receiveWebhook } from './produce.js';
import type { Call, Cluster } from './request.js';

const BASIC: Auth = { kind: 'basic' };
/** The webhook is called by services that cannot send headers: ?user=&pass= stand in for Basic auth. */
const BASIC_OR_QUERY: Auth = { kind: 'basic', query: ['user', 'pass'] };
const GET_POST = ['GET', 'POST'];

// Basic auth, and no read-only credential. A handler whose body depends on its path or query
// (produce, consume, commit, ...) reads it itself, after checking those.
const endpoint = (methods: readonly string[], run: (call: Call) => HttpResponse | Promise<HttpResponse>, auth = BASIC): Endpoint<Call> => ({
  auth,
  methods,
  readOnly: true,
  body: 'none',
  run,
});
const jsonEndpoint = (methods: readonly string[], run: (call: Call, body: unknown) => HttpResponse | Promise<HttpResponse>): Endpoint<Call> => ({
  auth: BASIC,
  methods,
  readOnly: true,
  body: 'json',
  run,
});

const ENDPOINTS: ReadonlyMap<string, Endpoint<Call>> = new Map([
  ['produce', endpoint(GET_POST, (c: Call) => (c.args.length >= 2 ? producePath(c) : produceMessages(c)))],
  ['fetch', jsonEndpoint(GET_POST, fetchMessages)],
  ['consume', endpoint(GET_POST, consumeMessages)],
  ['commit', endpoint(GET_POST, commitOffsets)],
  ['delete-consumer', endpoint(['POST', 'DELETE'], deleteConsumer)],
  ['topics', endpoint(['GET'], listTopics)],
  ['consumers', endpoint(['GET'], listConsumers)],
  ['committed', endpoint(GET_POST, committedOffsets)],
  ['offsets', endpoint(GET_POST, topicOffsets)],
  ['webhook', endpoint(GET_POST, receiveWebhook, BASIC_OR_QUERY)],
  ['create-topic', jsonEndpoint(['POST'], createTopic)],
]);

export function streamRoutes(clusters: ReadonlyMap<string, Cluster>, limits: BodyLimits) {
  const refuse: Refusals = {
    unauthorized: UNAUTHORIZED,
    // Never asked: a cluster has one user, with every right.
    readOnly: UNAUTHORIZED,
    methodNotAllowed,
    body: { tooLarge: BODY_TOO_LARGE, notJson: NOT_JSON },
    limits,
    fail,
  };
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const segments = pathSegments(req.path, restAt).map((s) => percentDecodeText(s));
    const cluster = clusters.get(segments[0] ?? '');
    if (cluster === undefined) return fail(notFound(req.path));
    const name = segments[1] ?? '';
    const endpoint = ENDPOINTS.get(name);
    if (endpoint === undefined) return fail(notFound(req.path));
    const call: Call = { req, cluster, args: segments.slice(2), limits };
    return serveEndpoint(req, name, endpoint, cluster.secrets, call, refuse);
  };
}

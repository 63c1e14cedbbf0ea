// The stream REST surface of every cluster under /kafka/<cluster>/<endpoint>/...: checks the
// cluster's Basic credentials (the webhook also takes ?user=&pass=), the method, then calls
// the endpoint. Endpoints are data: name, methods, the most path segments after the name
// (more is an unknown path: 404, before the credential), handler.

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

type StreamEndpoint = Endpoint<Call> & { readonly maxArgs: number };

// Basic auth, and no read-only credential. A handler whose body depends on its path or query
// (produce, consume, commit, ...) reads it itself, after checking those.
const endpoint = (methods: readonly string[], maxArgs: number, run: (call: Call) => HttpResponse | Promise<HttpResponse>, auth = BASIC): StreamEndpoint => ({
  auth,
  methods,
  maxArgs,
  readOnly: true,
  body: 'none',
  run,
});
const jsonEndpoint = (methods: readonly string[], maxArgs: number, run: (call: Call, body: unknown) => HttpResponse | Promise<HttpResponse>): StreamEndpoint => ({
  auth: BASIC,
  methods,
  maxArgs,
  readOnly: true,
  body: 'json',
  run,
});

const ENDPOINTS: ReadonlyMap<string, StreamEndpoint> = new Map([
  ['produce', endpoint(GET_POST, 2, (c: Call) => (c.args.length === 2 ? producePath(c) : produceMessages(c)))], // [$TOPIC[/$MESSAGE]]
  ['fetch', jsonEndpoint(GET_POST, 0, fetchMessages)],
  ['consume', endpoint(GET_POST, 3, consumeMessages)], // $GROUP/$INSTANCE[/$TOPIC]
  ['commit', endpoint(GET_POST, 2, commitOffsets)], // $GROUP/$INSTANCE
  ['delete-consumer', endpoint(['POST', 'DELETE'], 2, deleteConsumer)],
  ['topics', endpoint(['GET'], 0, listTopics)],
  ['consumers', endpoint(['GET'], 0, listConsumers)],
  ['committed', endpoint(GET_POST, 2, committedOffsets)],
  ['offsets', endpoint(GET_POST, 1, topicOffsets)], // $TIMESTAMP|earliest|latest
  ['webhook', endpoint(GET_POST, 0, receiveWebhook, BASIC_OR_QUERY)],
  ['create-topic', jsonEndpoint(['POST'], 1, createTopic)], // $TOPIC
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
    if (endpoint === undefined || segments.length - 2 > endpoint.maxArgs) return fail(notFound(req.path));
    const call: Call = { req, cluster, args: segments.slice(2), limits };
    return serveEndpoint(req, name, endpoint, cluster.secrets, call, refuse);
  };
}

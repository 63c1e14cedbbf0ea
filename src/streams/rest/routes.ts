// The stream REST surface of every cluster under /kafka/<cluster>/<endpoint>/...: checks the
// cluster's Basic credentials (the webhook also takes ?user=&pass=), the method, then calls
// the endpoint. Endpoints are data: name, methods, handler.

import { requestCredentials, sameSecret } from '../../server/credentials.js';
import { routeMethod, type HttpRequest, type HttpResponse } from '../../server/http.js';
import type { BodyLimits } from '../../server/json-body.js';
import { pathSegments, percentDecodeText } from '../../server/url.js';
import { methodNotAllowed, notFound, UNAUTHORIZED } from '../errors.js';
import { commitOffsets, committedOffsets, consumeMessages, deleteConsumer } from './consume.js';
import { fail } from './envelope.js';
import { listConsumers, createTopic, fetchMessages, topicOffsets, listTopics } from './metadata.js';
import { produceMessages, producePath, receiveWebhook } from './produce.js';
import type { Call, Cluster } from './request.js';

interface Endpoint {
  methods: readonly string[];
  run: (call: Call) => HttpResponse | Promise<HttpResponse>;
  /** Whether ?user=&pass= may stand in for Basic auth. */
  queryAuth?: boolean;
}

const GET_POST = ['GET', 'POST'];
const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map([
  ['produce', { methods: GET_POST, run: (c: Call) => (c.args.length >= 2 ? producePath(c) : produceMessages(c)) }],
  ['fetch', { methods: GET_POST, run: fetchMessages }],
  ['consume', { methods: GET_POST, run: consumeMessages }],
  ['commit', { methods: GET_POST, run: commitOffsets }],
  ['delete-consumer', { methods: ['POST', 'DELETE'], run: deleteConsumer }],
  ['topics', { methods: ['GET'], run: listTopics }],
  ['consumers', { methods: ['GET'], run: listConsumers }],
  ['committed', { methods: GET_POST, run: committedOffsets }],
  ['offsets', { methods: GET_POST, run: topicOffsets }],
  ['webhook', { methods: GET_POST, run: receiveWebhook, queryAuth: true }],
  ['create-topic', { methods: ['POST'], run: createTopic }],
]);

export function streamRoutes(clusters: ReadonlyMap<string, Cluster>, limits: BodyLimits) {
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const segments = pathSegments(req.path, restAt).map((s) => percentDecodeText(s));
    const cluster = clusters.get(segments[0] ?? '');
    if (cluster === undefined) return fail(notFound(req.path));
    const name = segments[1] ?? '';
    const endpoint = ENDPOINTS.get(name);
    if (endpoint === undefined) return fail(notFound(req.path));
    const call: Call = { req, cluster, args: segments.slice(2), limits };
    if (!authorized(call, endpoint.queryAuth === true)) return fail(UNAUTHORIZED);
    const method = routeMethod(req.method);
    if (!endpoint.methods.includes(method)) return fail(methodNotAllowed(req.method, name));
    return endpoint.run(call);
  };
}

const QUERY_CREDENTIALS = ['user', 'pass'] as const;

function authorized(call: Call, queryAuth: boolean): boolean {
  const sent = requestCredentials(call.req, queryAuth ? QUERY_CREDENTIALS : undefined);
  // Both compared whatever the first gives, so the time says nothing about the user name.
  const user = sameSecret(sent?.username, call.cluster.username);
  const pass = sameSecret(sent?.password, call.cluster.password);
  return user && pass;
}

// The queue's REST surface under /qstash/v2/<group>/...: checks the token (Authorization:
// Bearer, or ?qstash_token=), refuses the read-only token anything but GET and the signing
// keys, then dispatches on the method and the group. Routes are data: method, group, whether
// a sub-path is wanted, whether the route reveals or changes the keys; each becomes an
// endpoint that server/endpoint.ts admits.

import { routeMethod, type HttpRequest, type HttpResponse } from '../../server/http.js';
import { bearerSecrets, serveEndpoint, type Auth, type Endpoint, type Handler, type Refusals } from '../../server/endpoint.js';
import { BODY_TOO_LARGE, methodNotAllowed, NOT_JSON, notFound, READ_ONLY, READ_ONLY_KEYS, UNAUTHORIZED } from '../errors.js';
import { fail } from './envelope.js';
import { deleteDlq, getDlq, listDlq, retryDlq } from './dlq.js';
import { changeFlowControl, getFlowControl, getGlobalParallelism, listFlowControl } from './flow-control.js';
import { getKeys, rotateKeys } from './keys.js';
import { listLogs } from './logs.js';
import { cancelMessages, getMessage } from './messages.js';
import { enqueueMessage, publishBatch, publishMessage } from './publish.js';
import { deleteQueue, getQueue, listQueues, pauseQueue, upsertQueue } from './queues.js';
import type { Call, QueueContext } from './request.js';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, pauseResumeSchedule } from './schedules.js';
import { triggerWorkflow } from './trigger.js';
import { addEndpoints, deleteUrlGroupOrEndpoints, getUrlGroup, listUrlGroups } from './url-groups.js';
import { actOnWorkflowDlq } from './workflow-dlq.js';
import { callWebhook, listWaiters, notify, waitForEvent } from './workflow-events.js';
import { deleteWorkflows, getWorkflows } from './workflow-runs.js';

type Run = (call: Call) => HttpResponse | Promise<HttpResponse>;

/** By group, then method: the handler, picked by whether a sub-path follows the group. A bare
 *  function reads its own body, if any; the others declare which body the server reads. */
interface Route {
  bare?: Run | Handler<Call>;
  sub?: Run | Handler<Call>;
  /** Reveals or changes the signing keys, with which a request passes for a delivery: full token only. */
  signingKeys?: true;
}

const ROUTES = new Map<string, ReadonlyMap<string, Route>>([
  ['publish', new Map<string, Route>([['POST', { sub: publishMessage }]])],
  ['enqueue', new Map<string, Route>([['POST', { sub: enqueueMessage }]])],
  ['batch', new Map<string, Route>([['POST', { bare: { body: 'json', run: publishBatch } }]])],
  ['trigger', new Map<string, Route>([['POST', { sub: { body: 'bytes', run: triggerWorkflow } }]])],
  [
    'keys',
    new Map<string, Route>([
      ['GET', { bare: getKeys, signingKeys: true }],
      ['POST', { sub: (c: Call) => (c.rest === 'rotate' ? rotateKeys(c) : fail(notFound(c.req.path))), signingKeys: true }],
    ]),
  ],
  ['messages', new Map<string, Route>([['GET', { sub: getMessage }], ['DELETE', { bare: { body: 'json', run: cancelMessages }, sub: cancelMessages }]])],
  [
    'dlq',
    new Map<string, Route>([
      ['GET', { bare: listDlq, sub: getDlq }],
      ['DELETE', { bare: { body: 'json', run: deleteDlq }, sub: deleteDlq }],
      ['POST', { sub: (c: Call) => (c.rest === 'retry' || c.rest.startsWith('retry/') ? retryDlq(c) : fail(notFound(c.req.path))) }],
    ]),
  ],
  ['events', new Map<string, Route>([['GET', { bare: listLogs }]])],
  ['logs', new Map<string, Route>([['GET', { bare: listLogs }]])],
  ['workflows', new Map<string, Route>([['GET', { sub: getWorkflows }], ['DELETE', { sub: deleteWorkflows }], ['POST', { sub: actOnWorkflowDlq }]])],
  ['wait', new Map<string, Route>([['POST', { sub: waitForEvent }]])],
  ['notify', new Map<string, Route>([['POST', { sub: notify }]])],
  ['waiters', new Map<string, Route>([['GET', { sub: listWaiters }]])],
  [
    'topics',
    new Map<string, Route>([
      ['GET', { bare: listUrlGroups, sub: getUrlGroup }],
      ['POST', { sub: addEndpoints }],
      ['DELETE', { sub: deleteUrlGroupOrEndpoints }],
    ]),
  ],
  [
    'schedules',
    new Map<string, Route>([
      ['GET', { bare: listSchedules, sub: getSchedule }],
      ['POST', { sub: createSchedule }],
      ['PATCH', { sub: pauseResumeSchedule }],
      ['DELETE', { sub: deleteSchedule }],
    ]),
  ],
  [
    'queues',
    new Map<string, Route>([
      ['GET', { bare: listQueues, sub: getQueue }],
      ['POST', { bare: upsertQueue, sub: pauseQueue }],
      ['DELETE', { sub: deleteQueue }],
    ]),
  ],
  ['flowControl', new Map<string, Route>([['GET', { bare: listFlowControl, sub: getFlowControl }], ['POST', { sub: changeFlowControl }]])],
  ['globalParallelism', new Map<string, Route>([['GET', { bare: getGlobalParallelism }]])],
]);

/** Bearer token or ?qstash_token=; a read-only token may only GET, and never the signing keys. */
const AUTH: Auth = { kind: 'bearer', query: 'qstash_token' };

function admitted(method: string, handler: Run | Handler<Call> | undefined, route: Route): Endpoint<Call> | undefined {
  if (handler === undefined) return undefined;
  const signingKeys = route.signingKeys === true;
  const rules = { auth: AUTH, methods: [method], readOnly: method === 'GET' && !signingKeys, readOnlyRefusal: signingKeys ? READ_ONLY_KEYS : undefined };
  return { ...rules, ...(typeof handler === 'function' ? { body: 'none', run: handler } : handler) };
}

/** By group, then method: the endpoint without a sub-path (`bare`) and with one (`sub`). */
const ENDPOINTS = new Map(
  [...ROUTES].map(([group, byMethod]) => [
    group,
    new Map([...byMethod].map(([method, route]) => [method, { bare: admitted(method, route.bare, route), sub: admitted(method, route.sub, route) }])),
  ]),
);

/** A method the group does not answer: 405, or a path it does not have: 404; both only to a caller with a token. */
const refusing = (answer: (c: Call) => HttpResponse): Endpoint<Call> => ({ auth: AUTH, readOnly: true, body: 'none', run: answer });
const NO_SUCH_METHOD = refusing((c) => fail(methodNotAllowed(c.req.method, c.req.path)));
const NO_SUCH_PATH = refusing((c) => fail(notFound(c.req.path)));

const REFUSE = {
  unauthorized: UNAUTHORIZED,
  readOnly: READ_ONLY,
  methodNotAllowed,
  body: { tooLarge: BODY_TOO_LARGE, notJson: NOT_JSON },
  fail,
};

export interface Tokens {
  token: string;
  readOnlyToken: string;
}

export function queueRoutes(ctx: QueueContext, tokens: Tokens) {
  const secrets = bearerSecrets(tokens.token, tokens.readOnlyToken);
  const refuse: Refusals = { ...REFUSE, limits: ctx };
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const path = req.path;
    // /v2/<group>[/<rest>]
    if (!path.startsWith('/v2/', restAt)) return fail(notFound(path));
    const groupAt = restAt + 4;
    const slash = path.indexOf('/', groupAt);
    const group = slash === -1 ? path.slice(groupAt) : path.slice(groupAt, slash);
    const rest = slash === -1 ? '' : path.slice(slash + 1);
    const byMethod = ENDPOINTS.get(group);
    if (byMethod === undefined) return fail(notFound(path));
    // Workflow webhooks are called by third parties: the user id in the path stands for the token.
    if (group === 'workflows' && rest.startsWith('hooks/')) return callWebhook({ req, ctx, rest }, tokens.token);
    const route = byMethod.get(routeMethod(req.method));
    const endpoint = route === undefined ? NO_SUCH_METHOD : ((rest === '' ? route.bare : route.sub) ?? NO_SUCH_PATH);
    return serveEndpoint(req, path, endpoint, secrets, { req, ctx, rest }, refuse);
  };
}

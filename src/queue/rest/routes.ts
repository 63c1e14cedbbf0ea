// The queue's REST surface under /qstash/v2/<group>/...: checks the token (Authorization:
// Bearer, or ?qstash_token=), refuses the read-only token anything but GET and the signing
// keys, then dispatches on the method and the group. Routes are data: method, group, whether
// a sub-path is wanted, whether the route reveals or changes the keys.

import { timingSafeEqual } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { queryParam } from '../../server/url.js';
import { methodNotAllowed, notFound, READ_ONLY, READ_ONLY_KEYS, UNAUTHORIZED } from '../errors.js';
import { fail } from './envelope.js';
import {
  cancelCommand,
  deleteDlqCommand,
  eventsCommand,
  getDlqCommand,
  getMessageCommand,
  keysCommand,
  listDlqCommand,
  retryDlqCommand,
  rotateKeysCommand,
} from './manage.js';
import { batchCommand, enqueueCommand, publishCommand } from './publish.js';
import { changeFlowControlCommand, getFlowControlCommand, globalParallelismCommand, listFlowControlCommand } from './flow-control.js';
import { deleteQueueCommand, getQueueCommand, listQueuesCommand, pauseQueueCommand, upsertQueueCommand } from './queues.js';
import type { Call, QueueContext } from './request.js';
import { triggerCommand } from './trigger.js';
import { createScheduleCommand, deleteScheduleCommand, getScheduleCommand, listSchedulesCommand, pauseResumeCommand } from './schedules.js';
import { addEndpointsCommand, deleteTopicsCommand, getUrlGroupCommand, listUrlGroupsCommand } from './url-groups.js';
import { workflowDlqActionCommand } from '../workflow/dlq-api.js';
import { notifyCommand, waitCommand, waitersCommand, webhookCommand } from '../workflow/events-api.js';
import { workflowsDeleteCommand, workflowsGetCommand } from '../workflow/runs-api.js';

type Run = (call: Call) => HttpResponse | Promise<HttpResponse>;

/** By group, then method: the handler, picked by whether a sub-path follows the group. */
interface Route {
  bare?: Run;
  sub?: Run;
  /** Reveals or changes the signing keys, with which a request passes for a delivery: full token only. */
  signingKeys?: true;
}

const ROUTES = new Map<string, ReadonlyMap<string, Route>>([
  ['publish', new Map<string, Route>([['POST', { sub: publishCommand }]])],
  ['enqueue', new Map<string, Route>([['POST', { sub: enqueueCommand }]])],
  ['batch', new Map<string, Route>([['POST', { bare: batchCommand }]])],
  ['trigger', new Map<string, Route>([['POST', { sub: triggerCommand }]])],
  [
    'keys',
    new Map<string, Route>([
      ['GET', { bare: keysCommand, signingKeys: true }],
      ['POST', { sub: (c: Call) => (c.rest === 'rotate' ? rotateKeysCommand(c) : fail(notFound(c.req.path))), signingKeys: true }],
    ]),
  ],
  ['messages', new Map<string, Route>([['GET', { sub: getMessageCommand }], ['DELETE', { bare: cancelCommand, sub: cancelCommand }]])],
  [
    'dlq',
    new Map<string, Route>([
      ['GET', { bare: listDlqCommand, sub: getDlqCommand }],
      ['DELETE', { bare: deleteDlqCommand, sub: deleteDlqCommand }],
      ['POST', { sub: (c: Call) => (c.rest.startsWith('retry') ? retryDlqCommand(c) : fail(notFound(c.req.path))) }],
    ]),
  ],
  ['events', new Map<string, Route>([['GET', { bare: eventsCommand }]])],
  ['logs', new Map<string, Route>([['GET', { bare: eventsCommand }]])],
  ['workflows', new Map<string, Route>([['GET', { sub: workflowsGetCommand }], ['DELETE', { sub: workflowsDeleteCommand }], ['POST', { sub: workflowDlqActionCommand }]])],
  ['wait', new Map<string, Route>([['POST', { sub: waitCommand }]])],
  ['notify', new Map<string, Route>([['POST', { sub: notifyCommand }]])],
  ['waiters', new Map<string, Route>([['GET', { sub: waitersCommand }]])],
  [
    'topics',
    new Map<string, Route>([
      ['GET', { bare: listUrlGroupsCommand, sub: getUrlGroupCommand }],
      ['POST', { sub: addEndpointsCommand }],
      ['DELETE', { sub: deleteTopicsCommand }],
    ]),
  ],
  [
    'schedules',
    new Map<string, Route>([
      ['GET', { bare: listSchedulesCommand, sub: getScheduleCommand }],
      ['POST', { sub: createScheduleCommand }],
      ['PATCH', { sub: pauseResumeCommand }],
      ['DELETE', { sub: deleteScheduleCommand }],
    ]),
  ],
  [
    'queues',
    new Map<string, Route>([
      ['GET', { bare: listQueuesCommand, sub: getQueueCommand }],
      ['POST', { bare: upsertQueueCommand, sub: pauseQueueCommand }],
      ['DELETE', { sub: deleteQueueCommand }],
    ]),
  ],
  ['flowControl', new Map<string, Route>([['GET', { bare: listFlowControlCommand, sub: getFlowControlCommand }], ['POST', { sub: changeFlowControlCommand }]])],
  ['globalParallelism', new Map<string, Route>([['GET', { bare: globalParallelismCommand }]])],
]);

export interface Tokens {
  token: string;
  readOnlyToken: string;
}

export function queueRoutes(ctx: QueueContext, tokens: Tokens) {
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const path = req.path;
    // /v2/<group>[/<rest>]
    if (!path.startsWith('/v2/', restAt)) return fail(notFound(path));
    const groupAt = restAt + 4;
    const slash = path.indexOf('/', groupAt);
    const group = slash === -1 ? path.slice(groupAt) : path.slice(groupAt, slash);
    const rest = slash === -1 ? '' : path.slice(slash + 1);
    const byMethod = ROUTES.get(group);
    if (byMethod === undefined) return fail(notFound(path));
    // Workflow webhooks are called by third parties: the user id in the path stands for the token.
    if (group === 'workflows' && rest.startsWith('hooks/')) return webhookCommand({ req, ctx, rest }, tokens.token);
    const who = caller(req, tokens);
    if (who === null) return fail(UNAUTHORIZED);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = byMethod.get(method);
    const run = route === undefined ? undefined : rest === '' ? route.bare : route.sub;
    if (run === undefined) return fail(route === undefined ? methodNotAllowed(req.method, path) : notFound(path));
    if (who === 'readOnly' && route?.signingKeys === true) return fail(READ_ONLY_KEYS);
    if (who === 'readOnly' && method !== 'GET') return fail(READ_ONLY);
    return run({ req, ctx, rest });
  };
}

function caller(req: HttpRequest, tokens: Tokens): 'full' | 'readOnly' | null {
  const header = req.header('authorization');
  const given = header !== undefined && /^bearer /i.test(header) ? header.slice(7).trim() : queryParam(req.query, 'qstash_token');
  if (given === undefined) return null;
  if (same(given, tokens.token)) return 'full';
  if (same(given, tokens.readOnlyToken)) return 'readOnly';
  return null;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// Every failure the queue service reports: an HTTP status and a text. The store, the
// scheduler and the parsers return these as values; rest/envelope.ts turns them into
// `{error, status}` bodies.

import { ServiceError as QueueError } from '../errors/service-error.js';
import { showDuration } from './options/duration.js';

export { QueueError };
export { isServiceError as isError } from '../errors/service-error.js';

export const UNAUTHORIZED = new QueueError(401, 'Unauthorized: wrong or missing token (Authorization: Bearer <QSTASH_TOKEN> or ?qstash_token=)');
export const READ_ONLY = new QueueError(403, 'the read-only token cannot publish or change anything');
export const READ_ONLY_KEYS = new QueueError(403, 'the read-only token cannot read or rotate the signing keys');
export const BODY_TOO_LARGE = new QueueError(413, 'request body too large');
export const NOT_JSON = new QueueError(400, 'request body is not valid JSON');
export const KEYS_FIXED = new QueueError(400, 'the signing keys are fixed in dev mode (--qstash-dev): QSTASH_DEV=true receivers know only the dev keys');
export const TOO_MANY_PENDING = new QueueError(429, 'too many messages are waiting for delivery; try again later');

export const notFound = (path: string) => new QueueError(404, `no endpoint at ${path}`);
export const methodNotAllowed = (method: string, path: string) => new QueueError(405, `method ${method} is not allowed on ${path}`);
export const badRequest = (text: string) => new QueueError(400, text);
export const invalidDestination = (dest: string) =>
  new QueueError(400, `invalid destination url: '${dest}' (a URL starting with http:// or https://)`);
export const invalidCallback = (header: string, value: string) =>
  new QueueError(400, `invalid ${header} url: '${value}' (a URL starting with http:// or https://)`);
export const unknownUrlGroup = (name: string) => new QueueError(404, `url group '${name}' not found`);
export const messageTooLarge = (size: number, max: number) => new QueueError(413, `message body is ${size} bytes, larger than the limit of ${max}`);
export const unknownMessage = (id: string) => new QueueError(404, `message ${id} not found`);
export const unknownDlqMessage = (id: string) => new QueueError(404, `dlq message ${id} not found`);
export const invalidUrlGroupName = (name: string) =>
  new QueueError(400, `invalid url group name: '${name}' (letters, digits, '-', '_' and '.' only)`);
export const invalidIdsBody = (name: string) => new QueueError(400, `the body names records by id only: {"${name}": ["...", ...]}; filters go in the query`);
export const invalidForwardHeader = (name: string) =>
  new QueueError(400, `invalid header to forward: '${name}' (a name is an HTTP token; a value holds no control character and no character past U+00FF)`);
export const invalidCancelBody = (names: readonly string[]) =>
  new QueueError(400, `a cancel's body takes only ${names.join(' and ')}, each a string or an array of strings; other filters go in the query`);
export const tooManyForwardHeaders = (count: number, max: number) =>
  new QueueError(400, `${count} headers to forward, more than the limit of ${max} (queue.maxForwardedHeaders)`);
export const invalidEndpoints = (why: string) => new QueueError(400, `invalid endpoints: ${why}`);
export const urlGroupInUse = (name: string, scheduleId: string) =>
  new QueueError(400, `url group '${name}' is the destination of schedule ${scheduleId}; delete the schedule first`);
export const MISSING_CRON = new QueueError(400, 'a schedule needs a cron expression in the Upstash-Cron header');
export const invalidCron = (cron: string, why: string) => new QueueError(400, `invalid cron expression '${cron}': ${why}`);
export const invalidScheduleId = (id: string) => new QueueError(400, `invalid schedule id: '${id}' (letters, digits, '-', '_' and '.' only)`);
export const unknownSchedule = (id: string) => new QueueError(404, `schedule ${id} not found`);
export const refusedDestination = (what: string, url: string, why: string) => new QueueError(400, `${what} '${url}' is not allowed: ${why}`);
export const invalidRetryDelay = (header: string, text: string, at: number, what: string) =>
  new QueueError(400, `invalid ${header} '${text}' at character ${at}: ${what}`);
export const invalidQueueName = (name: string) => new QueueError(400, `invalid queue name: '${name}' (a non-empty name without /)`);
export const invalidRunId = (id: string) => new QueueError(400, `invalid workflow run id: '${id}' (a non-empty id without /)`);
export const unknownQueue = (name: string) => new QueueError(404, `queue '${name}' not found`);
export const unknownFlowControlKey = (key: string) => new QueueError(404, `flow control key '${key}' not found`);
export const invalidFlowControl = (value: string) =>
  new QueueError(400, `invalid Upstash-Flow-Control-Value: '${value}' (comma-separated parallelism=N, rate=N, period=<duration>, N a positive integer)`);
/** A delay, timeout or period longer than its bound (queue.maxDelayMs, or a timer's longest). */
export const durationAboveLimit = (what: string, text: string, maxMs: number) =>
  new QueueError(400, `invalid ${what}: '${text}' is longer than the maximum of ${showDuration(maxMs)}`);
export const notBeforeAboveLimit = (text: string, maxMs: number) =>
  new QueueError(400, `invalid Upstash-Not-Before: '${text}' is more than ${showDuration(maxMs)} ahead`);
/** 412, as QStash answers a setting above the plan's limit: the workflow library makes it a non-retryable failure. */
export const retriesAboveLimit = (retries: number, max: number) => new QueueError(412, `invalid retries: ${retries}, the maximum is ${max}`);
export const workflowRunNotActive = (id: string) => new QueueError(400, `workflow run ${id} is not active`);
export const unknownWorkflowRun = (id: string) => new QueueError(404, `workflow run ${id} not found`);
/** Engine postgres: a write PostgreSQL could not take (stopped, unreachable); the client may try again. */
export const storeUnavailable = (reason: string) => new QueueError(503, `the queue's PostgreSQL database cannot be written (${reason}); writes resume once it can`);

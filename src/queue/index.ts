// The message queue service, mounted at /qstash: durable publishing (store/), an in-process
// scheduler that delivers signed requests with retries, callbacks and a dead-letter queue
// (delivery/, signing/), and the REST surface the official @upstash/qstash client speaks (rest/).
// Tokens are base64 of {"UserID","Password"}, the shape the SDKs decode; they and the signing
// keys are generated once and kept in the data dir when the config names none.
// Engine postgres (store/postgres/) keeps all of it in PostgreSQL instead, shared by every
// process on the schema: a request that writes is then one unit of work (the store's), and a
// read first catches up with what the other processes wrote.
//
// Imports go one way: rest/ (every REST handler; parses requests, shapes answers) -> engine.ts,
// workflow/, schedules/, url-groups.ts (decide) -> delivery/, signing/, store/ -> storage/.
// options/ reads publish settings for rest/ and workflow/ alike. rest/ never touches the store
// or the event log, and nothing below rest/ imports it (test/architecture.test.ts checks both).

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError } from '../config/load.js';
import type { Config, QueueConfig } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { HttpRequest, HttpResponse } from '../server/http.js';
import type { HttpClient } from '../server/http-client.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import { DestinationPolicy } from './delivery/destination-policy.js';
import { Scheduler } from './delivery/scheduler.js';
import { DEV_CREDENTIALS, rootAlias } from './dev-mode.js';
import { QueueEngine } from './engine.js';
import { QueueError, storeUnavailable } from './errors.js';
import { fail } from './rest/envelope.js';
import { queueRoutes } from './rest/routes.js';
import { Schedules } from './schedules/schedules.js';
import { KeyRing, type Secrets } from './signing/keys.js';
import { EventFile } from './store/event-file.js';
import { EventLog } from './store/event-log.js';
import type { QueueMessage } from './store/message.js';
import { SharedLogUnavailable } from './store/postgres/failure.js';
import type { SharedQueue } from './store/postgres/shared-queue.js';
import { credentialHeaders } from './store/redaction.js';
import { QueueStore } from './store/queue-store.js';
import { UrlGroups } from './url-groups.js';
import { RunDelivery } from './workflow/run-delivery.js';
import { Waits } from './workflow/waits.js';
import { Workflows } from './workflow/workflows.js';

/** How the queue store's snapshot file is laid out, for `larder repair`. */
export { SNAPSHOT_FORMAT } from './store/queue-store.js';

export interface QueueCredentials {
  token: string;
  readOnlyToken: string;
  currentSigningKey: string;
  nextSigningKey: string;
  /** QStash dev mode: the SDK's dev credentials, and the API at the root too. */
  dev: boolean;
}

/** A message not yet delivered, as the console lists it: no headers or body, which may carry credentials. */
export type PendingMessage = Pick<QueueMessage, 'id' | 'url' | 'method' | 'queueName' | 'retried' | 'retries' | 'createdAt' | 'notBefore'> & {
  /** An attempt of it is running now. */
  readonly delivering: boolean;
};

export interface QueueService extends Service {
  /** The tokens, and the signing keys as they were at start (GET /v2/keys has the latest). */
  readonly credentials: QueueCredentials;
  /** Dev mode only: the same API at the root of the port (/v2/...), as QSTASH_DEV=true apps call it. */
  readonly root: Service | null;
  /** Every message not yet delivered (read-only; the console lists them). */
  pending(): Iterable<PendingMessage>;
}

/** `larder migrate`: applies the PostgreSQL engine's migrations; answers what it did, in one line. */
export async function migrateQueue(c: QueueConfig): Promise<string> {
  const url = c.url as string; // engine postgres has one
  const { openQueueDatabase, withoutPassword } = await import('./store/postgres/connect.js');
  const { sql, applied } = await openQueueDatabase({ url, poolSize: 1, schema: c.schema, stalledWriterTimeoutMs: c.stalledWriterTimeoutMs });
  await sql.end();
  const where = `schema ${c.schema} at ${withoutPassword(url)}`;
  return applied.length === 0 ? `queue: ${where} is up to date` : `queue: applied migration${applied.length > 1 ? 's' : ''} ${applied.join(', ')} to ${where}`;
}

const queueToken = (user: string) => () => Buffer.from(JSON.stringify({ UserID: user, Password: randomBytes(24).toString('base64url') })).toString('base64');

/** `http` sends the deliveries: the runtime's client (server/http-client.ts). */
export async function mountQueue(config: Config, secrets: SecretStore, log: Logger, http: HttpClient): Promise<QueueService> {
  const c = config.queue;
  const now = () => Date.now();
  const store = new QueueStore({ dir: join(config.dataDir, 'queue'), fsync: c.fsync, compactAfterBytes: c.compactAfterBytes, deduplicationWindowMs: c.deduplicationWindowMs }, now, log);
  // The PostgreSQL engine (its driver) is loaded only for engine postgres.
  const postgres = c.engine === 'postgres' ? await import('./store/postgres/shared-queue.js') : null;
  const shared = postgres === null ? null : await postgres.openSharedQueue(c, store, log);
  const credentials = credentialHeaders(c.credentialHeaders);
  const events = shared === null ? openEmbedded(store, config.dataDir, c.maxLogEvents, credentials, now, log) : new EventLog(now, c.maxLogEvents, credentials, shared.events, shared.initialEvents);
  if (shared !== null) shared.events.log = events;
  const kept: Secrets = postgres === null ? secrets : postgres.storeSecrets(store);
  // One unit: on engine postgres, the first process makes the secrets and every other reads them.
  const secretsMade = store.unit(() => ({
    // Dev mode takes the SDK's dev credentials over configured or stored ones, as the SDK does.
    token: c.dev ? DEV_CREDENTIALS.token : (c.token ?? kept.get('queue.token', queueToken('larder'))),
    readOnlyToken: c.readOnlyToken ?? kept.get('queue.readOnlyToken', queueToken('larder-readonly')),
    keyRing: c.dev
      ? new KeyRing(kept, { current: DEV_CREDENTIALS.currentSigningKey, next: DEV_CREDENTIALS.nextSigningKey }, true)
      : new KeyRing(kept, { ...(c.currentSigningKey !== undefined && { current: c.currentSigningKey }), ...(c.nextSigningKey !== undefined && { next: c.nextSigningKey }) }),
  }));
  const { token, readOnlyToken, keyRing } = shared === null ? await secretsMade : await startShared(secretsMade, shared);
  const destinations = new DestinationPolicy({ allow: c.allowDestinations, deny: c.denyDestinations, production: c.production });
  const scheduler = new Scheduler(store, events, {
    concurrency: c.maxConcurrentDeliveries,
    retryDelayScale: c.retryDelayScale,
    defaultTimeoutMs: c.deliveryTimeoutMs,
    defaultRetries: c.defaultRetries,
    maxBodyBytes: c.maxMessageBytes,
    signingKey: () => keyRing.get().current,
    now,
    destinations,
    http,
    onError: (err, m) => log.error({ err, messageId: m.id }, 'queue delivery failed unexpectedly; the message stays pending'),
    workflows: new RunDelivery(store, events),
    owner: shared?.log.origin ?? 'embedded',
  });
  const engine = new QueueEngine(store, events, scheduler, keyRing, c.maxPendingMessages, now);
  const steps = { defaultRetries: c.defaultRetries, maxMessageBytes: c.maxMessageBytes, maxDelayMs: c.maxDelayMs, now };
  const waits = new Waits(engine, steps);
  const workflows = new Workflows(engine, events, scheduler, steps, waits);
  scheduler.start();
  // After the scheduler: what a stop left undone (waits past their deadline) makes new messages.
  workflows.start();
  const urlGroups = new UrlGroups(store, now);
  const schedules = new Schedules(store, events, scheduler, c.maxPendingMessages, now);
  schedules.start();
  if (shared !== null)
    shared.log.onRemote = (ops) => {
      scheduler.follow(ops);
      schedules.follow(ops);
      waits.arm();
    };
  if (shared !== null)
    // A snapshot may hold what others changed as ops this process never saw: taken up again as at start.
    shared.log.onReload = () => scheduler.resync();
  const keys = keyRing.get();
  const routes = queueRoutes({ engine, urlGroups, schedules, maxBodyBytes: config.maxBodyBytes, maxNestingDepth: config.maxNestingDepth, maxMessageBytes: c.maxMessageBytes, maxForwardedHeaders: c.maxForwardedHeaders, credentials, defaultRetries: c.defaultRetries, maxRetries: c.maxRetries, maxDelayMs: c.maxDelayMs, now, destinations, workflows }, { token, readOnlyToken });
  const service: Service = {
    name: 'queue',
    prefix: 'qstash',
    fail: (status, text) => fail(new QueueError(status, text)),
    writeFailure() {
      const failure = store.writeFailure();
      return failure === null ? null : `message queue: ${failure.reason}`;
    },
    handle: shared === null ? routes : sharedRoutes(routes, shared),
    async close() {
      schedules.close();
      waits.close();
      await scheduler.close();
      store.close();
      events.close();
      if (shared !== null) {
        await shared.events.flushed();
        await shared.log.close();
      }
    },
  };
  return {
    ...service,
    credentials: { token, readOnlyToken, currentSigningKey: keys.current, nextSigningKey: keys.next, dev: c.dev },
    root: c.dev ? rootAlias(service) : null,
    *pending() {
      for (const { id, url, method, queueName, retried, retries, createdAt, notBefore } of store.pending()) {
        yield { id, url, method, queueName, retried, retries, createdAt, notBefore, delivering: scheduler.delivering(id) };
      }
    },
  };
}

/** The embedded engine: the store's state from the data dir, and the event log on its files. */
function openEmbedded(store: QueueStore, dataDir: string, maxLogEvents: number, credentials: ReturnType<typeof credentialHeaders>, now: () => number, log: Logger): EventLog {
  store.open();
  const opened = EventFile.open(join(dataDir, 'queue'), log);
  return new EventLog(now, maxLogEvents, credentials, opened.file, opened.events, opened.current);
}

/** What the start's first unit answers; PostgreSQL lost since the open stops the start with one line and closes the pool. */
async function startShared<T>(first: T | Promise<T>, shared: SharedQueue): Promise<T> {
  try {
    return await first;
  } catch (e) {
    await shared.log.close();
    throw e instanceof SharedLogUnavailable ? new ConfigError(`queue: cannot write to PostgreSQL: ${e.reason}`) : e;
  }
}

type Routes = (req: HttpRequest, restAt: number) => HttpResponse | Promise<HttpResponse>;

/**
 * Engine postgres: a request that may write runs as one unit of work, answered once its ops
 * are committed (503 when PostgreSQL cannot take them); a read first catches up with the other
 * processes, or, while PostgreSQL cannot be reached, answers from what this process holds.
 */
function sharedRoutes(routes: Routes, shared: SharedQueue): Routes {
  const unavailable = (e: unknown) => {
    if (e instanceof SharedLogUnavailable) return fail(storeUnavailable(e.reason));
    throw e;
  };
  return (req, restAt) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const read = () => routes(req, restAt);
      return Promise.all([shared.log.catchUp(), shared.events.catchUp()]).then(read, read);
    }
    return shared.log.unit(() => routes(req, restAt)).catch(unavailable);
  };
}

// The message queue service, mounted at /qstash: durable publishing (store/), an in-process
// scheduler that delivers signed requests with retries, callbacks and a dead-letter queue
// (delivery/, signing/), and the REST surface the official @upstash/qstash client speaks (rest/).
// Tokens are base64 of {"UserID","Password"}, the shape the SDKs decode; they and the signing
// keys are generated once and kept in the data dir when the config names none.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { SecretStore } from '../config/secrets.js';
import type { Logger } from '../server/log.js';
import type { Service } from '../server/service.js';
import { Scheduler } from './delivery/scheduler.js';
import { QueueEngine } from './engine.js';
import { queueRoutes } from './rest/routes.js';
import { KeyRing } from './signing/keys.js';
import { EventLog } from './store/event-log.js';
import { QueueStore } from './store/queue-store.js';
import { RunDelivery } from './workflow/run-delivery.js';
import { Waits } from './workflow/waits.js';
import { Workflows } from './workflow/workflows.js';

export interface QueueCredentials {
  token: string;
  readOnlyToken: string;
  currentSigningKey: string;
  nextSigningKey: string;
}

export interface QueueService extends Service {
  /** The tokens, and the signing keys as they were at start (GET /v2/keys has the latest). */
  readonly credentials: QueueCredentials;
}

const queueToken = (user: string) => () => Buffer.from(JSON.stringify({ UserID: user, Password: randomBytes(24).toString('base64url') })).toString('base64');

export function mountQueue(config: Config, secrets: SecretStore, log: Logger): QueueService {
  const c = config.queue;
  const now = () => Date.now();
  const token = c.token ?? secrets.get('queue.token', queueToken('larder'));
  const readOnlyToken = c.readOnlyToken ?? secrets.get('queue.readOnlyToken', queueToken('larder-readonly'));
  const keyRing = new KeyRing(secrets, { ...(c.currentSigningKey !== undefined && { current: c.currentSigningKey }), ...(c.nextSigningKey !== undefined && { next: c.nextSigningKey }) });
  const store = new QueueStore({ dir: join(config.dataDir, 'queue'), fsync: c.fsync, compactAfterBytes: c.compactAfterBytes, deduplicationWindowMs: c.deduplicationWindowMs }, now, log);
  store.open();
  const events = new EventLog(now);
  const scheduler = new Scheduler(store, events, {
    concurrency: c.maxConcurrentDeliveries,
    retryDelayScale: c.retryDelayScale,
    defaultTimeoutMs: c.deliveryTimeoutMs,
    defaultRetries: c.defaultRetries,
    maxBodyBytes: c.maxMessageBytes,
    signingKey: () => keyRing.get().current,
    now,
    onError: (err, m) => log.error({ err, messageId: m.id }, 'queue delivery failed unexpectedly; the message stays pending'),
    workflows: new RunDelivery(store, events),
  });
  const engine = new QueueEngine(store, events, scheduler, keyRing, c.maxPendingMessages, now);
  const steps = { defaultRetries: c.defaultRetries, maxMessageBytes: c.maxMessageBytes, now };
  const waits = new Waits(engine, steps);
  const workflows = new Workflows(engine, events, scheduler, steps, waits);
  waits.start();
  scheduler.start();
  const keys = keyRing.get();
  return {
    name: 'queue',
    prefix: 'qstash',
    credentials: { token, readOnlyToken, currentSigningKey: keys.current, nextSigningKey: keys.next },
    handle: queueRoutes({ engine, maxBodyBytes: config.maxBodyBytes, maxMessageBytes: c.maxMessageBytes, defaultRetries: c.defaultRetries, now, workflows }, { token, readOnlyToken }),
    async close() {
      waits.close();
      await scheduler.close();
      store.close();
    },
  };
}

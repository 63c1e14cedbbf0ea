// The one error boundary (server/app.ts): a handler that throws, at once or later, is answered
// 500 in its own service's envelope, {"error"} for key-value and {"error","status"} for vector,
// streams and queue, so each SDK reads the failure as it reads any other. The real services
// are mounted with a handler that throws in their place (no request makes a sound service throw),
// the queue also at its dev-mode root (/v2).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from '@upstash/redis';
import { validate } from '../../src/config/load.js';
import { SecretStore } from '../../src/config/secrets.js';
import { mountKv } from '../../src/kv/index.js';
import { rootAlias } from '../../src/queue/dev-mode.js';
import { mountQueue } from '../../src/queue/index.js';
import { listenNode } from '../../src/server/adapters/node.js';
import { createApp } from '../../src/server/app.js';
import type { RunningServer } from '../../src/server/http.js';
import { fetchClient } from '../../src/server/http-client.js';
import { createLogger } from '../../src/server/log.js';
import { RequestMetrics } from '../../src/server/request-metrics.js';
import type { Service } from '../../src/server/service.js';
import { mountStreams } from '../../src/streams/index.js';
import { mountVector } from '../../src/vector/index.js';

/** The service as mounted, but its handler throws: synchronously, or as a rejected promise. */
function throwing(service: Service, how: 'sync' | 'async'): Service {
  const broken: Service = Object.create(service) as Service;
  const bug = new Error('a bug in a handler');
  return Object.assign(broken, { handle: how === 'sync' ? () => { throw bug; } : () => Promise.reject(bug) });
}

describe('the error boundary answers a thrown error 500 in the service envelope', () => {
  const dir = mkdtempSync(join(tmpdir(), 'larder-boundary-'));
  const config = validate({ host: '127.0.0.1', port: 0, logLevel: 'silent', dataDir: dir });
  const log = createLogger('silent');
  const secrets = new SecretStore(dir);
  let services: Service[];
  let server: RunningServer;
  let url: string;

  before(async () => {
    services = [await mountKv(config, secrets, log, 'node'), mountStreams(config, secrets, log), mountVector(config, secrets, log), await mountQueue(config, secrets, log, fetchClient)];
    const [kv, streams, vector, queue] = services;
    const brokenQueue = throwing(queue, 'async');
    // rootAlias: the queue again at /v2, as the SDK's dev mode calls it.
    const app = createApp([throwing(kv, 'sync'), throwing(streams, 'async'), throwing(vector, 'sync'), brokenQueue, rootAlias(brokenQueue)], log, new RequestMetrics());
    server = await listenNode(app, { host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.close();
    for (const s of services) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function answer(path: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${url}${path}`, { method: 'POST', body: '[]' });
    return { status: res.status, body: await res.json() };
  }

  it('key-value: {"error"}, as the Redis SDK reads it', async () => {
    assert.deepEqual(await answer('/redis/default/get/k'), { status: 500, body: { error: 'ERR internal server error' } });
    const redis = new Redis({ url: `${url}/redis/default`, token: 'any', enableTelemetry: false, retry: false });
    await assert.rejects(redis.get('k'), /ERR internal server error/);
  });

  it('vector, streams and queue: {"error","status"}', async () => {
    const internal = { status: 500, body: { error: 'internal server error', status: 500 } };
    assert.deepEqual(await answer('/vector/default/upsert'), internal);
    assert.deepEqual(await answer('/kafka/default/produce'), internal);
    assert.deepEqual(await answer('/qstash/v2/publish/https://example.com'), internal);
    assert.deepEqual(await answer('/v2/publish/https://example.com'), internal);
  });
});

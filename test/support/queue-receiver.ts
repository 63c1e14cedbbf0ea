// A real HTTP destination for queue tests, on 127.0.0.1 and a free port: it records every
// request and checks its Upstash-Signature with the official SDK's Receiver, so a delivery
// that would not verify fails the test. `answer` picks the response per request.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before } from 'node:test';
import { Client, Receiver } from '@upstash/qstash';
import { standIn, suiteLarder, type TestLarder } from './larder.js';

export interface Delivery {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Whether Receiver.verify accepted the signature (with the keys current at the time). */
  verified: boolean;
  verifyError?: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface QueueReceiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Deliveries to one path. */
  at(path: string): Delivery[];
  /** How to answer a request to `path` (default 200 "ok"); `n` counts earlier requests to it. */
  answer(path: string, f: (n: number, d: Delivery) => Answer): void;
  /** Requests to `path` get no answer until `until` resolves. */
  hold(path: string, until: Promise<void>): void;
  /** Requests to `path` wait `ms` before they are recorded and answered (a slow destination). */
  slow(path: string, ms: number): void;
  /** Requests to `path` waiting on a hold. */
  pending(path: string): number;
  setKeys(keys: { current: string; next: string }): void;
  close(): Promise<void>;
}

export async function startQueueReceiver(keys: { current: string; next: string }): Promise<QueueReceiver> {
  let receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next, devMode: false });
  const deliveries: Delivery[] = [];
  const answers = new Map<string, (n: number, d: Delivery) => Answer>();
  const holds = new Map<string, Promise<void>>();
  const waiting = new Map<string, number>();
  const pauses = new Map<string, number>();
  let base = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const hold = holds.get(req.url ?? '/');
      if (hold !== undefined) {
        waiting.set(req.url ?? '/', (waiting.get(req.url ?? '/') ?? 0) + 1);
        await hold;
        waiting.set(req.url ?? '/', (waiting.get(req.url ?? '/') ?? 0) - 1);
      }
      const pause = pauses.get(req.url ?? '/');
      if (pause !== undefined) await new Promise((r) => setTimeout(r, pause));
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const d: Delivery = { path, method: req.method ?? '', headers: req.headers, body, verified: false };
      const signature = req.headers['upstash-signature'];
      const check = typeof signature === 'string' ? receiver.verify({ signature, body, url: base + path }) : Promise.reject(new Error('no Upstash-Signature'));
      check
        .then(() => (d.verified = true))
        .catch((e: Error) => (d.verifyError = e.message))
        .finally(() => {
          const n = deliveries.filter((x) => x.path === path).length;
          deliveries.push(d);
          const a = answers.get(path)?.(n, d) ?? { status: 200, body: 'ok' };
          res.writeHead(a.status, a.headers);
          res.end(a.body ?? '');
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('receiver has no port');
  base = `http://127.0.0.1:${addr.port}`;
  return {
    url: base,
    deliveries,
    at: (path) => deliveries.filter((d) => d.path === path),
    answer: (path, f) => answers.set(path, f),
    hold(path, until) {
      holds.set(path, until);
      void until.then(() => holds.delete(path));
    },
    slow: (path, ms) => pauses.set(path, ms),
    pending: (path) => waiting.get(path) ?? 0,
    setKeys(k) {
      receiver = new Receiver({ currentSigningKey: k.current, nextSigningKey: k.next, devMode: false });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The official publisher for a test Larder's queue, with the SDK's retries off. */
export function queueClient(q: { url: string; token: string }): Client {
  return new Client({ baseUrl: q.url, token: q.token, retry: false, enableTelemetry: false, devMode: false });
}

export interface QueueSuite {
  readonly t: TestLarder;
  readonly rx: QueueReceiver;
  readonly client: Client;
}

/**
 * One Larder for the suite, its retries scaled down to milliseconds, with a receiver that
 * verifies deliveries against its signing keys and a publisher.
 */
export function queueSuite(): QueueSuite {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let rx: QueueReceiver | undefined;
  let client: Client | undefined;
  before(async () => {
    const q = t.queue();
    rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    client = queueClient(q);
  });
  after(() => rx?.close());
  return { t, rx: standIn(() => rx), client: standIn(() => client) };
}

// The destination of the queue workload: a bare node:http server in the bench's own process
// that answers 200 (or 500 once to a message whose body starts with `f`, the "failing once"
// share) and records when each message id was delivered. It checks what it gets: a request
// without Upstash-Signature or Upstash-Message-Id counts as bad, and every 100th signature is
// verified with the official SDK's Receiver (all of them would cost the load generator's CPU).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Receiver } from '@upstash/qstash';

const VERIFY_EVERY = 100;

export class QueueReceiver {
  /** Message id -> performance.now() of its successful delivery. */
  readonly delivered = new Map<string, number>();
  /** Requests missing a signature or message id, or whose sampled signature did not verify. */
  bad = 0;
  firstBad = '';
  /** Successful deliveries of a message already delivered (at-least-once shows here). */
  duplicates = 0;
  /** Called on each successful delivery with the body. */
  onDelivered: ((body: string, at: number) => void) | null = null;
  private readonly failedOnce = new Set<string>();
  private requests = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly receiver: Receiver,
  ) {}

  static async start(keys: { current: string; next: string }): Promise<QueueReceiver> {
    const server = createServer();
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rx = new QueueReceiver(server, url, new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next, devMode: false }));
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = req.headers['upstash-message-id'];
        const signature = req.headers['upstash-signature'];
        if (typeof id !== 'string' || typeof signature !== 'string') rx.fault(`a delivery without ${typeof id === 'string' ? 'Upstash-Signature' : 'Upstash-Message-Id'}`);
        else if (++rx.requests % VERIFY_EVERY === 1) rx.receiver.verify({ signature, body, url: `${url}${req.url ?? '/'}` }).catch((e: Error) => rx.fault(`signature did not verify: ${e.message}`));
        if (typeof id === 'string' && body.startsWith('f') && !rx.failedOnce.has(id)) {
          rx.failedOnce.add(id);
          res.writeHead(500).end('failing once');
          return;
        }
        res.writeHead(200).end('ok');
        if (typeof id !== 'string') return;
        const at = performance.now();
        if (rx.delivered.has(id)) rx.duplicates++;
        else rx.delivered.set(id, at);
        rx.onDelivered?.(body, at);
      });
    });
    return rx;
  }

  /** How many of `ids` have been delivered. */
  count(ids: readonly string[]): number {
    let n = 0;
    for (const id of ids) if (this.delivered.has(id)) n++;
    return n;
  }

  /** Waits until every one of `ids` is delivered or `ms` pass; answers how many are missing. */
  async waitFor(ids: readonly string[], ms: number): Promise<number> {
    const end = performance.now() + ms;
    let missing = ids.length - this.count(ids);
    while (missing > 0 && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      missing = ids.length - this.count(ids);
    }
    return missing;
  }

  /** Forgets the deliveries recorded so far (between runs, to bound memory). */
  clear(): void {
    this.delivered.clear();
    this.failedOnce.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private fault(text: string): void {
    this.bad++;
    this.firstBad ||= text;
  }
}

// Real @upstash/workflow endpoints for the workflow tests: `serve()` handlers (Web Request ->
// Response) behind a node:http bridge on 127.0.0.1 and a free port, pointed at a test Larder's
// queue with its signing keys, so every delivery is verified by the library's own Receiver.
// Also a Client for triggers, cancels and logs, and a wait for a run's state.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { Client as QstashClient, Receiver } from '@upstash/qstash';
import { Client as WorkflowClient, serve, type RouteFunction, type WorkflowServeOptions } from '@upstash/workflow';
import { bridgeToFetch } from './fetch-bridge.js';

export interface QueueAccess {
  url: string;
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
}

/** `receiver: undefined` serves without checking signatures (for direct calls). */
export type ServeOptions = Omit<WorkflowServeOptions<unknown>, 'qstashClient' | 'env'>;

export interface WorkflowEndpoint {
  /** http://127.0.0.1:<port> */
  readonly base: string;
  readonly client: WorkflowClient;
  readonly qstash: QstashClient;
  /** Serves `route` at `path`; answers its URL. */
  route<T>(path: string, route: RouteFunction<T>, options?: ServeOptions): string;
  /** Serves a fetch handler (a framework adapter's, serveMany's) at each of `paths`; answers their URLs. */
  handle(paths: string[], handler: (r: Request) => Promise<Response>): string[];
  /** The options every `serve()` here gets: this Larder's client and the Receiver of its keys. */
  readonly serveOptions: { qstashClient: QstashClient; receiver: Receiver };
  /**
   * The next request to `path` runs, then is answered 500, as an endpoint that fails after it
   * acted; resolves once the request after it (the queue's retry) has been answered, and
   * rejects if none comes within 20 s.
   */
  failOnce(path: string): Promise<void>;
  /** The headers of every request that reached `path`, oldest first. */
  requestsTo(path: string): Headers[];
  /** Waits until the run's logged state is `state`; answers the run's log. */
  runIs(runId: string, state: string): Promise<RunLog>;
  close(): Promise<void>;
}

export type RunLog = Awaited<ReturnType<WorkflowClient['logs']>>['runs'][number];

export async function startWorkflowEndpoint(q: QueueAccess): Promise<WorkflowEndpoint> {
  const qstash = new QstashClient({ baseUrl: q.url, token: q.token, enableTelemetry: false });
  const receiver = new Receiver({ currentSigningKey: q.currentSigningKey, nextSigningKey: q.nextSigningKey });
  const client = new WorkflowClient({ baseUrl: q.url, token: q.token });
  const routes = new Map<string, (r: Request) => Promise<Response>>();
  const failing = new Map<string, { failed: boolean; retried: () => void }>();
  const requests = new Map<string, Headers[]>();
  let base = '';
  const dispatch = async (r: Request) => {
    const path = new URL(r.url).pathname;
    requests.set(path, [...(requests.get(path) ?? []), new Headers(r.headers)]);
    const res = (await routes.get(path)?.(r)) ?? new Response('no route', { status: 404 });
    const f = failing.get(path);
    if (f === undefined) return res;
    if (!f.failed) {
      f.failed = true;
      return new Response('failing once', { status: 500 });
    }
    failing.delete(path);
    f.retried();
    return res;
  };
  const server: Server = createServer((req, res) => void bridgeToFetch(req, res, base, dispatch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('workflow endpoint has no port');
  base = `http://127.0.0.1:${addr.port}`;
  return {
    base,
    client,
    qstash,
    route(path, route, options = {}) {
      routes.set(path, serve(route, { receiver, ...options, qstashClient: qstash, env: {} } as WorkflowServeOptions<never>).handler);
      return `${base}${path}`;
    },
    handle(paths, handler) {
      for (const p of paths) routes.set(p, handler);
      return paths.map((p) => `${base}${p}`);
    },
    serveOptions: { qstashClient: qstash, receiver },
    failOnce(path) {
      return new Promise((retried, reject) => {
        // Bounded, so a retry that never comes fails the test instead of hanging the suite.
        const timer = setTimeout(() => reject(new Error(`no retry of ${path} within 20 s`)), 20_000);
        const done = () => {
          clearTimeout(timer);
          retried();
        };
        failing.set(path, { failed: false, retried: done });
      });
    },
    requestsTo: (path) => requests.get(path) ?? [],
    async runIs(runId, state) {
      // Polls for up to 20 s: runs with sleeps take seconds.
      let run: RunLog | undefined;
      for (let i = 0; i < 400; i++) {
        run = (await client.logs({ workflowRunId: runId })).runs[0];
        if (run?.workflowState === state) return run;
        await new Promise((r) => setTimeout(r, 50));
      }
      return assert.fail(`never happened: run ${runId} in state ${state} (last seen ${run?.workflowState})`);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

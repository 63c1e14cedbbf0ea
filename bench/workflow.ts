// The workflow workload (issue 10): @upstash/workflow's `serve()` behind a node:http endpoint in
// the bench's process, running on Larder's queue on Bun and on Node, with Bun as the reference.
// A run is STEPS no-op `context.run` steps and a last step that reports the run done. Per round
// and system:
// - steps/s: RUNS concurrent loops, each triggering a run and waiting for its end;
// - the latency a step adds: one run at a time, its wall time divided by its steps (each step is
//   a delivery, the endpoint's answer and the next publish).
// Every delivery is verified with the library's Receiver.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as QStashClient, Receiver } from '@upstash/qstash';
import { Client, serve } from '@upstash/workflow';
import { bridgeToFetch } from '../test/support/fetch-bridge.js';
import { closedLoop } from './http-load.js';
import { quantile, Summary, type Figure } from './summary.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';

export interface WorkflowOptions {
  /** Measured seconds of each figure. */
  readonly seconds: number;
  readonly warmup: number;
  readonly rounds: number;
}

const REFERENCE = 'Larder (bun)';
const STEPS = 10;
const RUNS = 8;
const RUN_TIMEOUT_MS = 30_000;

const fig = (name: string, unit: string): Figure => ({ name, unit });

/** A workflow endpoint for one Larder: triggers a run and resolves when its last step ran. */
interface Endpoint {
  run(): Promise<void>;
  close(): Promise<void>;
}

async function startEndpoint(env: Record<string, string>): Promise<Endpoint> {
  const qstashClient = new QStashClient({ baseUrl: env.QSTASH_URL, token: env.QSTASH_TOKEN, enableTelemetry: false });
  const receiver = new Receiver({ currentSigningKey: env.QSTASH_CURRENT_SIGNING_KEY, nextSigningKey: env.QSTASH_NEXT_SIGNING_KEY });
  const client = new Client({ baseUrl: env.QSTASH_URL, token: env.QSTASH_TOKEN });
  const waiting = new Map<string, () => void>();
  const { handler } = serve(
    async (ctx) => {
      for (let i = 1; i <= STEPS; i++) await ctx.run(`s${i}`, () => i);
      await ctx.run('done', () => waiting.get(ctx.workflowRunId)?.());
    },
    { qstashClient, receiver, env: {}, disableTelemetry: true },
  );
  let base = '';
  const server: Server = createServer((req, res) => void bridgeToFetch(req, res, base, handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    async run() {
      const { workflowRunId } = await client.trigger({ url: `${base}/wf`, body: {}, disableTelemetry: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`run ${workflowRunId} did not finish in ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
        waiting.set(workflowRunId, () => {
          clearTimeout(timer);
          waiting.delete(workflowRunId);
          resolve();
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function benchWorkflow(root: string, opts: WorkflowOptions): Promise<Summary> {
  const title = `Workflows: ${opts.seconds} s per figure, ${opts.rounds} round(s), runs of ${STEPS + 1} steps`;
  const summary = new Summary(title, REFERENCE);
  const configDir = mkdtempSync(join(tmpdir(), 'larder-bench-workflow-'));
  const config = join(configDir, 'larder.json');
  writeFileSync(config, JSON.stringify({ queue: {} }));
  const targets: { system: string; server: LarderServer; endpoint: Endpoint }[] = [];
  try {
    for (const [runtime, path] of [['bun', bunPath(root)], ['node', process.execPath]]) {
      process.stderr.write(`workflow: starting Larder on ${runtime}\n`);
      const server = await startLarder(root, path, runtime, ['--config', config]);
      targets.push({ system: `Larder (${runtime})`, server, endpoint: await startEndpoint(server.env) });
    }
    for (let round = 1; round <= opts.rounds; round++) {
      for (const t of targets) {
        process.stderr.write(`workflow: round ${round}/${opts.rounds}: ${t.system}\n`);
        if (round === 1 && opts.warmup > 0) await closedLoop(RUNS, opts.warmup, () => t.endpoint.run().then(() => STEPS + 1));
        const many = await closedLoop(RUNS, opts.seconds, () => t.endpoint.run().then(() => STEPS + 1));
        summary.add(t.system, fig(`steps, ${RUNS} runs at once`, 'steps/s'), many.units / many.seconds, many.errors);
        const one = await closedLoop(1, opts.seconds, () => t.endpoint.run().then(() => STEPS + 1));
        summary.add(t.system, fig('latency per step, one run p50', 'ms'), quantile(one.latenciesMs, 0.5) / (STEPS + 1), one.errors);
        for (const r of [many, one]) if (r.errors > 0) summary.notes.push(`${t.system}: ${r.firstError}`);
      }
    }
  } finally {
    for (const t of targets) {
      await t.endpoint.close();
      await t.server.stop();
    }
    rmSync(configDir, { recursive: true, force: true });
  }
  summary.notes.push(
    `Each run is ${STEPS + 1} context.run steps; a step is a signed delivery of the run's steps so far, the endpoint's run of it, and its publish of the result (stored before it is answered).`,
    "The endpoint (serve() behind node:http, verifying every delivery) and the load run in the bench's own Node process, on the same two cores as the server.",
  );
  return summary;
}

// The rest of the library's features end to end: failureUrl, middleware, serveMany (through a
// framework adapter), labels, a step result of about 1 MiB, a context.call that times out, and
// the nextjs adapter's `{ POST }` as docs/workflows.md shows it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkflowMiddleware } from '@upstash/workflow';
import { createWorkflow, serveMany } from '@upstash/workflow/cloudflare';
import { serve as nextServe } from '@upstash/workflow/nextjs';
import { startCallTarget, type CallTarget } from '../../support/call-target.js';
import { eventually } from '../../support/eventually.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow features', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  let svc: CallTarget;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
    // /hang never answers: the call's own timeout ends it.
    svc = await startCallTarget((hit, res) => {
      if (hit.path !== '/hang') res.end('ok');
    });
  });
  after(async () => {
    await ep.close();
    await svc.close();
  });

  it('calls a failureUrl with the failed run’s callback and forwarded headers', async () => {
    const url = ep.route('/fail-to-url', async (ctx) => {
      await ctx.run('bad', () => {
        throw new Error('to the url');
      });
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: { p: 1 }, headers: { 'x-user': 'u' }, failureUrl: `${svc.url}/failed`, retries: 0 });
    await ep.runIs(workflowRunId, 'RUN_FAILED');
    await eventually(async () => svc.hits.some((h) => h.path === '/failed'), 'the failure URL called');
    const hit = svc.hits.find((h) => h.path === '/failed')!;
    assert.equal(hit.headers['x-user'], 'u');
    assert.equal(hit.headers['upstash-workflow-runid'], workflowRunId);
    const body = JSON.parse(hit.body) as { status: number; body: string; workflowRunId: string; sourceBody: string };
    assert.equal(body.status, 500);
    assert.equal(body.workflowRunId, workflowRunId);
    assert.match(Buffer.from(body.body, 'base64').toString(), /to the url/);
    assert.equal(Buffer.from(body.sourceBody, 'base64').toString(), '{"p":1}');
  });

  it('calls middleware on each lifecycle event', async () => {
    const events: string[] = [];
    const middleware = new WorkflowMiddleware({
      name: 'recorder',
      callbacks: {
        runStarted: () => void events.push('runStarted'),
        afterExecution: ({ stepName, result }) => void events.push(`after ${stepName}=${String(result)}`),
        runCompleted: ({ result }) => void events.push(`runCompleted ${String(result)}`),
      },
    });
    const url = ep.route(
      '/middleware',
      async (ctx) => {
        const a = await ctx.run('a', () => 1);
        return await ctx.run('b', () => a + 1);
      },
      { middlewares: [middleware] },
    );
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    await eventually(async () => events.includes('runCompleted 2'), 'the run completed');
    assert.deepEqual(events, ['runStarted', 'after a=1', 'after b=2', 'runCompleted 2']);
  });

  it('serves several workflows with serveMany, one invoking another', async () => {
    const opts = { ...ep.serveOptions, env: {} };
    const double = createWorkflow(async (ctx: { requestPayload: number; run: <T>(n: string, f: () => T) => Promise<T> }) => ctx.run('double', () => ctx.requestPayload * 2), opts);
    const main = createWorkflow(
      async (ctx) => {
        const r = await ctx.invoke('twice', { workflow: double, body: 21 });
        return r.body;
      },
      opts,
    );
    const { fetch } = serveMany({ double, main }, opts);
    const [mainUrl] = ep.handle(['/many/main', '/many/double'], (r) => fetch(r, {}));
    const { workflowRunId } = await ep.client.trigger({ url: mainUrl, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '42');
  });

  it('keeps labels on the run and every step, and filters logs by label', async () => {
    const labels: string[][] = [];
    const url = ep.route('/labelled', async (ctx) => {
      await ctx.run('a', () => labels.push(ctx.labels));
      await ctx.run('b', () => labels.push(ctx.labels));
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, label: 'team-a' });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(labels, [['team-a'], ['team-a']]);
    assert.equal(run.label, 'team-a');
    const byLabel = await ep.client.logs({ label: 'team-a' });
    assert.deepEqual(byLabel.runs.map((r) => r.workflowRunId), [workflowRunId]);
    assert.deepEqual((await ep.client.logs({ label: 'team-b' })).runs, []);
  });

  it('carries a step result of about 1 MiB to the next step', async () => {
    const sizes: number[] = [];
    const url = ep.route('/big-step', async (ctx) => {
      const big = await ctx.run('big', () => 'y'.repeat(1024 * 1024));
      await ctx.run('measure', () => sizes.push(big.length));
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual([...new Set(sizes)], [1024 * 1024]);
  });

  it('ends a context.call at its timeout and goes on with the failed answer', async () => {
    const url = ep.route('/call-timeout', async (ctx) => {
      const r = await ctx.call('slow', { url: `${svc.url}/hang`, method: 'GET', timeout: 1, retries: 0 });
      return r.status;
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.notEqual(run.workflowRunResponse, '200');
    assert.equal(svc.at('/hang').length, 1);
  });

  it('serves through a framework adapter’s POST, as docs/workflows.md shows', async () => {
    const { POST } = nextServe(async (ctx) => ctx.run('one', () => 'adapted'), { ...ep.serveOptions, env: {} });
    const [url] = ep.handle(['/adapter'], (r) => POST(r));
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '"adapted"');
  });
});

// context.invoke end to end: a parent run starts a child workflow served next to it and goes on
// with the child's result, or learns that the child failed or was cancelled.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InvokableWorkflow, RouteFunction } from '@upstash/workflow';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow invoke', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  /** A child served at /<id>, and the object context.invoke takes for it. */
  const child = <T>(id: string, route: RouteFunction<T>): InvokableWorkflow<T, unknown> => {
    ep.route(`/${id}`, route);
    return { workflowId: id, routeFunction: route, options: {} } as unknown as InvokableWorkflow<T, unknown>;
  };

  it('invokes a child workflow and goes on with its result', async () => {
    const seen: { payload: unknown; header: string | null; runId: string }[] = [];
    const doubler = child<{ n: number }>('doubler', async (ctx) => {
      seen.push({ payload: ctx.requestPayload, header: ctx.headers.get('x-h'), runId: ctx.workflowRunId });
      const d = await ctx.run('double', () => ctx.requestPayload.n * 2);
      return { double: d };
    });
    const url = ep.route('/parent', async (ctx) => {
      const r = await ctx.invoke('i', { workflow: doubler, body: { n: 2 }, headers: { 'x-h': 'v' } });
      return await ctx.run('after', () => r);
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { body: { double: 4 }, isFailed: false, isCanceled: false });
    assert.deepEqual(seen[seen.length - 1].payload, { n: 2 });
    assert.equal(seen[seen.length - 1].header, 'v');
    const childRun = await ep.runIs(seen[0].runId, 'RUN_SUCCESS');
    assert.equal(childRun.invoker?.workflowRunId, workflowRunId);
    assert.equal(childRun.invoker?.workflowUrl, url);
  });

  it('tells the parent that the child failed or was cancelled', async () => {
    const failing = child('failing', async (ctx) => {
      await ctx.run('bad', () => {
        throw new Error('child broke');
      });
    });
    const cancelling = child('cancelling', async (ctx) => {
      await ctx.run('one', () => 1);
      await ctx.cancel();
    });
    const url = ep.route('/parent2', async (ctx) => {
      const f = await ctx.invoke('f', { workflow: failing, body: {}, retries: 0 });
      const c = await ctx.invoke('c', { workflow: cancelling, body: {} });
      return { f, c };
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    const { f, c } = JSON.parse(run.workflowRunResponse!) as Record<string, Record<string, unknown>>;
    assert.deepEqual([f.isFailed, f.isCanceled], [true, false]);
    assert.deepEqual([c.isFailed, c.isCanceled], [false, true]);
  });
});

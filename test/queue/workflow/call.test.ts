// context.call end to end: the queue calls a local service for the run (with the step's method,
// body, headers and retries) and calls the workflow back with the answer, which becomes the
// step's result; a failing service is a result too, and so is one that never answers (status 0).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startCallTarget, type CallTarget } from '../../support/call-target.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow context.call', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  let svc: CallTarget;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
    svc = await startCallTarget((hit, res) => {
      if (hit.path === '/down') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('down');
      } else {
        res.writeHead(201, { 'content-type': 'application/json', 'x-svc': 'yes' });
        res.end('{"ok":true}');
      }
    });
  });
  after(async () => {
    await ep.close();
    await svc.close();
  });

  it('calls a service and resumes the run with its answer', async () => {
    const results: unknown[] = [];
    const url = ep.route('/caller', async (ctx) => {
      const r = await ctx.call('c', { url: `${svc.url}/ok`, method: 'POST', body: '{"q":1}', headers: { 'x-a': 'b' } });
      await ctx.run('after', () => results.push(r));
      return r.status;
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '201');
    const [r] = results as { status: number; body: unknown; header: Record<string, string[]> }[];
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { ok: true });
    assert.deepEqual(r.header['x-svc'], ['yes']);
    const hit = svc.at('/ok');
    assert.equal(hit.length, 1);
    assert.equal(hit[0].method, 'POST');
    assert.equal(hit[0].body, '{"q":1}');
    assert.equal(hit[0].headers['x-a'], 'b');
    assert.equal(hit[0].headers['upstash-workflow-sdk-version'], undefined);
    const call = (run.steps.flatMap((g) => g.steps as unknown[]) as { stepType?: string; callResponseStatus?: number }[]).find((s) => s.stepType === 'Call');
    assert.equal(call?.callResponseStatus, 201);
  });

  it('gives a failing service’s answer after the call’s own retries', async () => {
    const url = ep.route('/caller-down', async (ctx) => {
      const r = await ctx.call('c', { url: `${svc.url}/down`, method: 'GET', retries: 1 });
      return { status: r.status, body: r.body };
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '{"status":500,"body":"down"}');
    assert.equal(svc.at('/down').length, 2);
  });

  it('gives status 0 when the service never answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = ep.route('/caller-nobody', async (ctx) => {
      const r = await ctx.call('c', { url: `http://127.0.0.1:${port}/x`, method: 'POST', body: 'x' });
      return r.status;
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '0');
  });
});

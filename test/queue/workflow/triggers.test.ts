// Starting runs: client.trigger and the raw POST /v2/trigger/<url> (whose first delivery tells the
// library it comes from an unknown SDK, so the endpoint triggers itself again), bodies up to the
// maximum message size (10 MB by default, the pay-as-you-go plan's), a trigger that reaches an
// endpoint that is not a workflow, and retries above the modelled plan maximum.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { QstashError } from '@upstash/qstash';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

const MB = 1_000_000;

describe('workflow triggers', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  let plain: Server;
  let plainUrl = '';
  let plainHits = 0;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
    plain = createServer((req, res) => {
      // Deliveries of triggers, not the failure callbacks that follow them.
      if (req.headers['upstash-workflow-is-failure'] === undefined) plainHits++;
      req.resume();
      req.on('end', () => res.end('just a page'));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as { port: number }).port}/not-a-workflow`;
  });
  after(async () => {
    await ep.close();
    plain.closeAllConnections();
    await new Promise((resolve) => plain.close(resolve));
  });

  const rawTrigger = (url: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
    fetch(`${t.queue().url}/v2/trigger/${url}`, { method: 'POST', body, headers: { authorization: `Bearer ${t.queue().token}`, ...headers } });

  it('starts a run with a raw POST /v2/trigger/<url>, through the endpoint’s own re-trigger', async () => {
    const seen: { payload: unknown; user: string | null }[] = [];
    const url = ep.route('/raw', async (ctx) => {
      const n = await ctx.run('one', () => {
        seen.push({ payload: ctx.requestPayload, user: ctx.headers.get('x-user') });
        return 1;
      });
      return n + 1;
    });
    const res = await rawTrigger(url, '{"hello":1}', { 'content-type': 'application/json', 'Upstash-Forward-X-User': 'u', 'Upstash-Workflow-RunId': 'wfr_raw-1' });
    assert.equal(res.status, 200);
    const out = (await res.json()) as { workflowRunId: string; workflowCreatedAt: number };
    assert.equal(out.workflowRunId, 'wfr_raw-1');
    assert.ok(out.workflowCreatedAt > Date.now() - 60_000, String(out.workflowCreatedAt));
    const run = await ep.runIs(out.workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '2');
    assert.equal(run.workflowRunCreatedAt, out.workflowCreatedAt);
    assert.deepEqual(seen, [{ payload: { hello: 1 }, user: 'u' }]);
    const generated = (await (await rawTrigger(url, 'x')).json()) as { workflowRunId: string };
    assert.match(generated.workflowRunId, /^wfr_/);
    await ep.runIs(generated.workflowRunId, 'RUN_SUCCESS');
  });

  it('refuses a run id the run endpoints could not address: empty, or holding a /', async () => {
    const url = ep.route('/ids', async (ctx) => void (await ctx.run('one', () => 1)));
    for (const id of ['', 'wfr_a/b']) {
      const raw = await rawTrigger(url, 'x', { 'Upstash-Workflow-RunId': id });
      assert.equal(raw.status, 400, id);
      assert.equal(((await raw.json()) as { error: string }).error, `invalid workflow run id: '${id}' (a non-empty id without /)`);
    }
    await assert.rejects(ep.client.trigger({ url, workflowRunId: 'a/b' }), /invalid workflow run id: 'wfr_a\/b'/);
    const { workflowRunId } = await ep.client.trigger({ url, workflowRunId: 'a.b-c_d' });
    await ep.runIs(workflowRunId, 'RUN_SUCCESS');
  });

  it('takes trigger bodies of several MB through client.trigger and the raw trigger, refuses one over 10 MB', async () => {
    const sizes: number[] = [];
    const url = ep.route('/big', async (ctx) => {
      await ctx.run('size', () => sizes.push(String(ctx.requestPayload).length));
    });
    const big = 'x'.repeat(3 * MB);
    const { workflowRunId } = await ep.client.trigger({ url, body: big });
    await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    const raw = (await (await rawTrigger(url, big, { 'content-type': 'text/plain' })).json()) as { workflowRunId: string };
    await ep.runIs(raw.workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(sizes, [3 * MB, 3 * MB]);
    const tooBig = 'x'.repeat(10 * 1024 * 1024 + 1);
    const refused = await rawTrigger(url, tooBig);
    assert.equal(refused.status, 413);
    assert.deepEqual(await refused.json(), { error: `message body is ${tooBig.length} bytes, larger than the limit of ${10 * 1024 * 1024}`, status: 413 });
    await assert.rejects(ep.client.trigger({ url, body: tooBig }), (e: QstashError) => e.status === 413);
  });

  it('fails a run whose trigger reaches an endpoint that is not a workflow', async () => {
    const { workflowRunId } = await ep.client.trigger({ url: plainUrl, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_FAILED');
    const next = run.steps.find((g) => g.type === 'next');
    const [step] = (next?.steps ?? []) as { state: string; errors?: { error: string; status: number; body: string }[] }[];
    assert.equal(step?.state, 'STEP_FAILED');
    assert.equal(step.errors?.[0].error, 'detected a non-workflow destination for trigger/invoke. make sure you are sending the request to the correct endpoint');
    assert.equal(step.errors?.[0].status, 200);
    assert.equal(step.errors?.[0].body, 'just a page');
    // A 200 is not retried.
    assert.equal(plainHits, 1);
  });

  it('refuses retries above the plan maximum with 412, which fails a run without retrying it', async () => {
    const url = ep.route('/too-many', async (ctx) => {
      await ctx.call('c', { url: plainUrl, method: 'GET', retries: 6 });
    });
    await assert.rejects(ep.client.trigger({ url, body: {}, retries: 6 }), (e: QstashError) => e.status === 412 && e.message.includes('retries'));
    const publish = await fetch(`${t.queue().url}/v2/publish/${plainUrl}`, { method: 'POST', body: 'x', headers: { authorization: `Bearer ${t.queue().token}`, 'Upstash-Retries': '6' } });
    assert.equal(publish.status, 412);
    const refusal = (await publish.json()) as { error: string };
    assert.equal(refusal.error, 'invalid retries: 6, the maximum is 5');
    const deliveries = () => ep.requestsTo('/too-many').filter((h) => h.get('upstash-workflow-is-failure') === null).length;
    const before = deliveries();
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, retries: 5 });
    const run = await ep.runIs(workflowRunId, 'RUN_FAILED');
    const next = run.steps.find((g) => g.type === 'next');
    const [step] = (next?.steps ?? []) as { errors?: { status: number; body: string }[] }[];
    assert.equal(step.errors?.[0].status, 489);
    assert.match(step.errors?.[0].body ?? '', /the maximum is 5/);
    // The trigger's delivery only: a non-retryable failure is not retried.
    assert.equal(deliveries() - before, 1);
  });
});

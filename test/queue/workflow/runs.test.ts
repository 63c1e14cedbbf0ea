// Workflow runs end to end: real @upstash/workflow `serve()` endpoints on a local HTTP server,
// triggered through the library's Client, a direct call and raw batches, running on a test
// Larder's queue. Checks the steps ran in order and once each, what every step saw (payload,
// forwarded headers, run id), the end of the run, deduplicated triggers, and that an ended run
// refuses new steps.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';
import { eventually } from '../../support/eventually.js';

describe('workflow runs', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  const counter = () => {
    const ran = new Map<string, number>();
    return { ran, count: (name: string) => ran.set(name, (ran.get(name) ?? 0) + 1) };
  };

  it('runs sequential steps once each, in order, with the payload and forwarded headers at every step', async () => {
    const { ran, count } = counter();
    const seen: { payload: unknown; user: string | null; runId: string; createdAt: number }[] = [];
    const order: string[] = [];
    const url = ep.route<{ n: number }>('/seq', async (ctx) => {
      seen.push({ payload: ctx.requestPayload, user: ctx.headers.get('x-user'), runId: ctx.workflowRunId, createdAt: ctx.workflowRunCreatedAt });
      const a = await ctx.run('a', () => {
        count('a');
        order.push('a');
        return ctx.requestPayload.n;
      });
      const b = await ctx.run('b', () => {
        count('b');
        order.push('b');
        return a + 1;
      });
      const c = await ctx.run('c', async () => {
        count('c');
        order.push('c');
        return { sum: a + b };
      });
      return { b, c };
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: { n: 1 }, headers: { 'x-user': 'u' } });
    assert.match(workflowRunId, /^wfr_/);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '{"b":2,"c":{"sum":3}}');
    assert.deepEqual(order, ['a', 'b', 'c']);
    assert.deepEqual(Object.fromEntries(ran), { a: 1, b: 1, c: 1 });
    // The initial delivery and one per step result, each also run once as the library's dry run.
    assert.equal(seen.length, 8);
    for (const s of seen) {
      assert.deepEqual(s.payload, { n: 1 });
      assert.equal(s.user, 'u');
      assert.equal(s.runId, workflowRunId);
      assert.equal(s.createdAt, run.workflowRunCreatedAt);
    }
    assert.ok(run.workflowRunCompletedAt! >= run.workflowRunCreatedAt);
    const steps = run.steps.flatMap((g) => g.steps as unknown[]) as { stepName?: string; out?: unknown; state: string }[];
    assert.deepEqual(steps.map((s) => s.stepName), ['init', 'a', 'b', 'c']);
    assert.deepEqual(steps.map((s) => s.out), ['{"n":1}', '1', '2', '{"sum":3}']);
    assert.ok(steps.every((s) => s.state === 'STEP_SUCCESS'));
    assert.ok(run.steps.every((g) => g.type === 'sequential'));
  });

  it('keeps a run id given at trigger time, and a retried trigger of the same id starts no second run', async () => {
    const { ran, count } = counter();
    const url = ep.route('/dedup', async (ctx) => {
      await ctx.run('only', () => count('only'));
    });
    const first = await ep.client.trigger({ url, body: 'x', workflowRunId: 'fixed-1' });
    assert.equal(first.workflowRunId, 'wfr_fixed-1');
    await ep.runIs('wfr_fixed-1', 'RUN_SUCCESS');
    const again = await ep.qstash.batch([
      { url, body: 'x', headers: { 'Upstash-Workflow-RunId': 'wfr_fixed-1', 'Upstash-Workflow-Init': 'true', 'Upstash-Forward-Upstash-Workflow-Sdk-Version': '1' } },
    ]);
    assert.equal((again[0] as { deduplicated?: boolean }).deduplicated, true);
    const logs = await ep.client.logs({ workflowRunId: 'wfr_fixed-1' });
    assert.equal(logs.runs.length, 1);
    assert.equal(ran.get('only'), 1);
  });

  it('starts a run when the endpoint is called directly', async () => {
    const { ran, count } = counter();
    // No Receiver: a direct call carries no signature (the deliveries that follow still do).
    const url = ep.route<{ n: number }>(
      '/direct',
      async (ctx) => {
        const n = await ctx.run('double', () => {
          count('double');
          return ctx.requestPayload.n * 2;
        });
        return n;
      },
      { receiver: undefined },
    );
    const res = await fetch(url, { method: 'POST', body: '{"n":21}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
    const { workflowRunId } = (await res.json()) as { workflowRunId: string };
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '42');
    assert.equal(ran.get('double'), 1);
  });

  it('answers a run’s steps while it runs, 404 once it ended, and 400 to a step published into it after', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reached = false;
    const url = ep.route('/held', async (ctx) => {
      await ctx.run('first', () => 'one');
      await ctx.run('second', async () => {
        reached = true;
        await held;
        return 'two';
      });
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: { k: 'v' } });
    await eventually(async () => reached, 'the second step running');
    const q = t.queue();
    const get = () => fetch(`${q.url}/v2/workflows/runs/${workflowRunId}`, { headers: { authorization: `Bearer ${q.token}` } });
    const res = await get();
    assert.equal(res.status, 200);
    const steps = (await res.json()) as { messageId: string; body: string; callType: string }[];
    assert.equal(steps.length, 2);
    assert.equal(Buffer.from(steps[0].body, 'base64').toString(), '{"k":"v"}');
    assert.deepEqual(JSON.parse(Buffer.from(steps[1].body, 'base64').toString()), { stepId: 1, stepName: 'first', stepType: 'Run', out: '"one"', concurrent: 1 });
    assert.ok(steps.every((s) => s.callType === 'step' && s.messageId.startsWith('msg_')));
    release();
    await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal((await get()).status, 404);
    const late = ep.qstash.publishJSON({ url, body: { stepId: 9 }, headers: { 'Upstash-Workflow-RunId': workflowRunId, 'Upstash-Workflow-Init': 'false' } });
    await assert.rejects(late, (e: Error & { status?: number }) => e.status === 400 && /is not active/.test(e.message));
  });

  it('re-applies the trigger’s retries to every step', async () => {
    const attempts = new Map<string, number>();
    const url = ep.route('/flaky', async (ctx) => {
      await ctx.run('ok', () => 1);
      await ctx.run('flaky', () => {
        attempts.set(ctx.workflowRunId, (attempts.get(ctx.workflowRunId) ?? 0) + 1);
        throw new Error('always');
      });
    });
    // One retry rather than the default three: the step message was published without it.
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, retries: 1 });
    await ep.runIs(workflowRunId, 'RUN_FAILED');
    assert.equal(attempts.get(workflowRunId), 2);
  });

  it('re-applies the trigger’s flow control and label to every step', async () => {
    let running = 0;
    let most = 0;
    const url = ep.route('/gated', async (ctx) => {
      for (const name of ['a', 'b', 'c']) {
        await ctx.run(name, async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 30));
          running--;
        });
      }
    });
    const flowControl = { key: 'wf-gate', parallelism: 1 };
    const ids = await Promise.all([1, 2, 3].map(async () => (await ep.client.trigger({ url, body: {}, flowControl, label: 'gated' })).workflowRunId));
    for (const id of ids) await ep.runIs(id, 'RUN_SUCCESS');
    assert.equal(most, 1);
    const labelled = await ep.client.logs({ filter: { label: 'gated' } });
    assert.deepEqual(labelled.runs.map((r) => r.workflowRunId).sort(), [...ids].sort());
  });
});

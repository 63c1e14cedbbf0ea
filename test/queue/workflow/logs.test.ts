// Run logs as the library's WorkflowRunLog types describe them: the steps of one Promise.all form
// one "parallel" group naming each step with its type and state (a branch still on its way or
// failed is listed too, without a result), and an invoke step names the run it started.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InvokableWorkflow, StepLog } from '@upstash/workflow';
import { eventually } from '../../support/eventually.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type RunLog, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow run logs', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  const parallelOf = (run: RunLog) => {
    const group = run.steps.find((g) => g.type === 'parallel');
    assert.ok(group !== undefined, JSON.stringify(run.steps));
    return (group.steps as StepLog[]).map((s) => ({ stepName: s.stepName, stepType: s.stepType, state: s.state, out: s.out, concurrent: s.concurrent })).sort((a, b) => a.stepName.localeCompare(b.stepName));
  };

  it('lists a running Promise.all as one group, its sleeping branch in progress', async () => {
    const url = ep.route('/par-running', async (ctx) => {
      await Promise.all([ctx.run('quick', () => 'q'), ctx.sleep('long', 60)]);
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    let run: RunLog | undefined;
    await eventually(async () => {
      [run] = (await ep.client.logs({ workflowRunId })).runs;
      return run?.steps.some((g) => g.type === 'parallel' && g.steps.some((s) => (s as StepLog).stepName === 'quick' && s.state === 'STEP_SUCCESS')) === true;
    }, 'the quick branch done');
    assert.deepEqual(parallelOf(run!), [
      { stepName: 'long', stepType: 'SleepFor', state: 'STEP_PROGRESS', out: undefined, concurrent: 2 },
      { stepName: 'quick', stepType: 'Run', state: 'STEP_SUCCESS', out: '"q"', concurrent: 2 },
    ]);
    await ep.client.cancel({ ids: workflowRunId });
  });

  it('lists a failed branch of a Promise.all as STEP_FAILED in its group', async () => {
    const url = ep.route('/par-failing', async (ctx) => {
      await Promise.all([
        ctx.run('good', () => 'g'),
        // Fails a moment after the good branch ends: a branch's result that arrives after the
        // run has failed is refused (the run is no longer active), and would never be logged.
        ctx.run('bad', async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          throw new Error('broken branch');
        }),
      ]);
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, retries: 0 });
    const run = await ep.runIs(workflowRunId, 'RUN_FAILED');
    await eventually(async () => {
      const [r] = (await ep.client.logs({ workflowRunId })).runs;
      return parallelOf(r).find((s) => s.stepName === 'good')?.state === 'STEP_SUCCESS';
    }, 'the good branch logged');
    assert.deepEqual(parallelOf((await ep.client.logs({ workflowRunId })).runs[0]), [
      { stepName: 'bad', stepType: 'Run', state: 'STEP_FAILED', out: undefined, concurrent: 2 },
      { stepName: 'good', stepType: 'Run', state: 'STEP_SUCCESS', out: '"g"', concurrent: 2 },
    ]);
    assert.ok(run.dlqId !== undefined);
  });

  it('names the invoked run in the invoke step', async () => {
    ep.route('/logged-child', async (ctx) => ctx.run('c', () => 'child done'));
    const workflow = { workflowId: 'logged-child', routeFunction: async () => undefined, options: {} } as unknown as InvokableWorkflow<unknown, unknown>;
    const url = ep.route('/logged-parent', async (ctx) => {
      await ctx.invoke('call-child', { workflow, body: { n: 1 }, headers: { 'x-h': 'v' } });
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    const step = run.steps.flatMap((g) => g.steps as StepLog[]).find((s) => s.stepName === 'call-child');
    assert.equal(step?.stepType, 'Invoke');
    assert.equal(step.invokedWorkflowUrl, url.replace(/logged-parent$/, 'logged-child'));
    assert.match(step.invokedWorkflowRunId ?? '', /^wfr_/);
    const child = await ep.runIs(step.invokedWorkflowRunId!, 'RUN_SUCCESS');
    assert.equal(step.invokedWorkflowCreatedAt, child.workflowRunCreatedAt);
    assert.equal(step.invokedWorkflowRunBody, '{"n":1}');
    assert.deepEqual(step.invokedWorkflowRunHeaders?.['X-H'] ?? step.invokedWorkflowRunHeaders?.['x-h'], ['v']);
  });
});

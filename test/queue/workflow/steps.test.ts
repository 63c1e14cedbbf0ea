// Workflow step kinds end to end through @upstash/workflow's `serve()`: sleep and sleepUntil
// (held by the queue's delay and not-before), and parallel steps (Promise.all of context.run and
// a sleep), whose plan steps fan out and whose results join before the run goes on.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type RunLog, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

type Step = { stepName?: string; stepType?: string; createdAt: number; out?: unknown; sleepFor?: number; sleepUntil?: number };
const stepsOf = (run: RunLog) => run.steps.flatMap((g) => g.steps as unknown[]) as Step[];

describe('workflow steps', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  it('sleeps for a duration and until a time before the next step', async () => {
    const times: Record<string, number> = {};
    const url = ep.route('/sleepy', async (ctx) => {
      await ctx.run('before', () => (times.before = Date.now()));
      await ctx.sleep('nap', 2);
      await ctx.run('after-nap', () => (times.afterNap = Date.now()));
      await ctx.sleepUntil('alarm', Math.ceil(Date.now() / 1000) + 2);
      await ctx.run('after-alarm', () => (times.afterAlarm = Date.now()));
      return 'awake';
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '"awake"');
    assert.ok(times.afterNap - times.before >= 2000, `${times.afterNap - times.before} ms`);
    assert.ok(times.afterAlarm - times.afterNap >= 1000, `${times.afterAlarm - times.afterNap} ms`);
    const steps = stepsOf(run);
    assert.deepEqual(steps.map((s) => s.stepName), ['init', 'before', 'nap', 'after-nap', 'alarm', 'after-alarm']);
    assert.equal(steps[2].stepType, 'SleepFor');
    assert.equal(steps[2].sleepFor, 2);
    assert.equal(steps[4].stepType, 'SleepUntil');
    assert.ok(typeof steps[4].sleepUntil === 'number');
    assert.ok(steps[3].createdAt - steps[1].createdAt >= 2000);
  });

  it('runs parallel steps, each once, and joins their results', async () => {
    const ran = new Map<string, number>();
    const count = (name: string) => ran.set(name, (ran.get(name) ?? 0) + 1);
    const url = ep.route('/parallel', async (ctx) => {
      const first = await ctx.run('first', () => 'f');
      const [x, y, z] = await Promise.all([
        ctx.run('p1', () => {
          count('p1');
          return 1;
        }),
        ctx.run('p2', async () => {
          count('p2');
          return 2;
        }),
        ctx.sleep('p3', 1),
      ]);
      const last = await ctx.run('last', () => {
        count('last');
        return `${first}${x + y}${z === undefined}`;
      });
      return last;
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(run.workflowRunResponse, '"f3true"');
    assert.deepEqual(Object.fromEntries(ran), { p1: 1, p2: 1, last: 1 });
    assert.deepEqual(run.steps.map((g) => g.type), ['sequential', 'sequential', 'parallel', 'sequential']);
    const group = run.steps[2].steps as unknown[] as Step[];
    assert.deepEqual(group.map((s) => s.stepName).sort(), ['p1', 'p2', 'p3']);
  });
});

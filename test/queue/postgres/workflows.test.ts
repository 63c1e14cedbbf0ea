// Two Larder processes on one PostgreSQL queue with a real @upstash/workflow `serve()` app
// pointed at the first: a notify sent to the second wakes a waitForEvent of a run the first
// started, and a cancel sent to the second stops a run whichever process delivers its steps.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as WorkflowClient } from '@upstash/workflow';
import { eventually } from '../../support/eventually.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { startFleet, type Fleet } from '../../support/queue-fleet.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflows on PostgreSQL across two processes', { skip: postgresRunSkip }, () => {
  let fleet: Fleet;
  let ep: WorkflowEndpoint;
  let other: WorkflowClient;
  before(async () => {
    fleet = await startFleet(2, { queue: { retryDelayScale: 0.001 } });
    ep = await startWorkflowEndpoint(fleet.queue(0));
    other = new WorkflowClient({ baseUrl: fleet.queue(1).url, token: fleet.queue(1).token });
  });
  after(async () => {
    await ep?.close();
    await fleet?.close();
  });

  it('wakes a waitForEvent of a run started on one process with a notify sent to the other', async () => {
    const url = ep.route('/waiter', async (ctx) => await ctx.waitForEvent('w', 'fleet-ev', { timeout: '30s' }));
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await eventually(async () => (await other.getWaiters({ eventId: 'fleet-ev' })).length === 1, 'the waiter, seen from the other process', 2000);
    const woken = await other.notify({ eventId: 'fleet-ev', eventData: { from: 'the other' } });
    assert.equal(woken.length, 1);
    assert.equal(woken[0].waiter.url, url);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { eventData: { from: 'the other' }, timeout: false });
  });

  it('stops a run with a cancel sent to the other process', async () => {
    let resumed = 0;
    const url = ep.route('/sleeper', async (ctx) => {
      await ctx.run('before', () => 'started');
      await ctx.sleep('nap', 2);
      await ctx.run('after', () => resumed++);
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await eventually(async () => (await other.logs({ workflowRunId })).runs[0]?.steps.some((g) => (g.steps as { stepName?: string }[]).some((s) => s.stepName === 'before')) === true, 'the first step', 2000);
    await other.cancel({ ids: workflowRunId });
    await ep.runIs(workflowRunId, 'RUN_CANCELED');
    // Past the end of the nap, on whichever process holds it.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(resumed, 0);
    assert.equal((await ep.client.logs({ workflowRunId })).runs[0].workflowState, 'RUN_CANCELED');
  });
});

// The headers given at trigger time reach every request of a run, not only its steps: the
// callback carrying a context.call result, the step resuming an invoke, a notify or a webhook,
// and the failure callback. An app that reads its own headers in any of them sees them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InvokableWorkflow } from '@upstash/workflow';
import { eventually } from '../../support/eventually.js';
import { startCallTarget, type CallTarget } from '../../support/call-target.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow callbacks carry the forwarded headers', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  let svc: CallTarget;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
    svc = await startCallTarget((_hit, res) => res.end('{"ok":true}'));
  });
  after(async () => {
    await ep.close();
    await svc.close();
  });

  /** Triggers `path` with an x-user header; checks every request to it carried it. */
  const everyRequestCarries = async (path: string, url: string, state: string, whileRunning?: (runId: string) => Promise<void>) => {
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, headers: { 'x-user': 'u' } });
    await whileRunning?.(workflowRunId);
    await ep.runIs(workflowRunId, state);
    const seen = ep.requestsTo(path);
    assert.ok(seen.length >= 3, `${seen.length} requests`);
    for (const [i, h] of seen.entries()) {
      assert.equal(h.get('x-user'), 'u', `request ${i} of ${seen.length} to ${path}`);
    }
  };

  it('on the callback of context.call', async () => {
    const url = ep.route('/h-call', async (ctx) => {
      const r = await ctx.call('c', { url: `${svc.url}/x`, method: 'GET' });
      return await ctx.run('after', () => `${r.status} ${ctx.headers.get('x-user')}`);
    });
    await everyRequestCarries('/h-call', url, 'RUN_SUCCESS');
  });

  it('on the step that gives an invoked run’s result', async () => {
    // context.invoke calls the child at the invoker's URL with its last segment replaced by workflowId.
    ep.route('/h-child', async (ctx) => ctx.run('c', () => 1));
    const workflow = { workflowId: 'h-child', routeFunction: async () => undefined, options: {} } as unknown as InvokableWorkflow<unknown, unknown>;
    const url = ep.route('/h-invoker', async (ctx) => {
      const r = await ctx.invoke('i', { workflow, body: {} });
      return await ctx.run('after', () => `${JSON.stringify(r.body)} ${ctx.headers.get('x-user')}`);
    });
    await everyRequestCarries('/h-invoker', url, 'RUN_SUCCESS');
  });

  it('on the step a notify resumes', async () => {
    const url = ep.route('/h-wait', async (ctx) => {
      const r = await ctx.waitForEvent('w', 'h-ev', { timeout: '30s' });
      return await ctx.run('after', () => `${String(r.eventData)} ${ctx.headers.get('x-user')}`);
    });
    await everyRequestCarries('/h-wait', url, 'RUN_SUCCESS', async () => {
      await eventually(async () => (await ep.client.getWaiters({ eventId: 'h-ev' })).length === 1, 'the waiter');
      await ep.client.notify({ eventId: 'h-ev', eventData: 'x' });
    });
  });

  it('on the step a webhook call resumes', async () => {
    let hookUrl = '';
    const url = ep.route('/h-hook', async (ctx) => {
      const h = await ctx.createWebhook('h');
      await ctx.run('publish-url', () => (hookUrl = h.webhookUrl));
      const r = await ctx.waitForWebhook('w', h, '30s');
      return await ctx.run('after', () => `${r.timeout} ${ctx.headers.get('x-user')}`);
    });
    await everyRequestCarries('/h-hook', url, 'RUN_SUCCESS', async () => {
      await eventually(async () => hookUrl !== '', 'the webhook URL');
      assert.equal((await fetch(hookUrl, { method: 'POST', body: 'hi' })).status, 200);
    });
  });

  it('on the failure callback', async () => {
    const users: (string | null)[] = [];
    const url = ep.route(
      '/h-fail',
      async (ctx) => {
        await ctx.run('bad', () => {
          throw new Error('no');
        });
      },
      { failureFunction: async ({ context }) => void users.push(context.headers.get('x-user')) },
    );
    await everyRequestCarries('/h-fail', url, 'RUN_FAILED');
    await eventually(async () => users.length === 1, 'the failure function');
    assert.deepEqual(users, ['u']);
  });
});

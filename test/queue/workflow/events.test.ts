// context.waitForEvent end to end: released by the Client's notify (answering the woken
// waiters), timing out, a lookback notify sent before the run waits, and context.notify from
// another run; createWebhook / waitForWebhook through the inbound hook URL.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow events', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  it('waits for an event until notified, and answers the waiters', async () => {
    const url = ep.route('/waiter', async (ctx) => {
      const r = await ctx.waitForEvent('w', 'ev-1', { timeout: '30s' });
      return r;
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await eventually(async () => (await ep.client.getWaiters({ eventId: 'ev-1' })).length === 1, 'the waiter');
    const [w] = await ep.client.getWaiters({ eventId: 'ev-1' });
    assert.equal(w.url, url);
    assert.ok(w.deadline > Date.now() / 1000 + 20 && w.deadline <= Date.now() / 1000 + 31, String(w.deadline));
    const res = await ep.client.notify({ eventId: 'ev-1', eventData: { ok: 1 } });
    assert.equal(res.length, 1);
    assert.equal(res[0].waiter.url, url);
    assert.match(res[0].messageId, /^msg_/);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { eventData: { ok: 1 }, timeout: false });
    const wait = (run.steps.flatMap((g) => g.steps as unknown[]) as { stepName?: string; waitEventId?: string; waitTimeout?: boolean; waitTimeoutDuration?: string }[]).find((s) => s.stepName === 'w');
    assert.deepEqual([wait?.waitEventId, wait?.waitTimeout, wait?.waitTimeoutDuration], ['ev-1', false, '30s']);
    assert.deepEqual(await ep.client.getWaiters({ eventId: 'ev-1' }), []);
    assert.deepEqual(await ep.client.notify({ eventId: 'ev-1', eventData: 'late' }), []);
  });

  it('keeps one wait when the step that made it is delivered again', async () => {
    const url = ep.route('/wait-again', async (ctx) => (await ctx.waitForEvent('w', 'ev-again', { timeout: '30s' })).eventData);
    const retried = ep.failOnce('/wait-again');
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await retried;
    assert.equal((await ep.client.getWaiters({ eventId: 'ev-again' })).length, 1);
    assert.equal((await ep.client.notify({ eventId: 'ev-again', eventData: 'once' })).length, 1);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.equal(JSON.parse(run.workflowRunResponse!), 'once');
  });

  it('times out a wait nobody notifies', async () => {
    const url = ep.route('/timeout', async (ctx) => {
      const started = await ctx.run('start', () => Date.now());
      const r = await ctx.waitForEvent('w', 'ev-never', { timeout: 1 });
      const ended = await ctx.run('end', () => Date.now());
      return { ...r, waited: ended - started >= 1000 };
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { timeout: true, waited: true });
  });

  it('keeps a notify sent to a run before it waits (lookback)', async () => {
    const url = ep.route('/lookback', async (ctx) => {
      await ctx.sleep('s', 1);
      return await ctx.waitForEvent('w', 'ev-early', { timeout: '30s' });
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await ep.client.notify({ eventId: 'ev-early', eventData: 'early bird', workflowRunId });
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { eventData: 'early bird', timeout: false });
  });

  it('leaves no wait behind when a lookback ended it before its step came again', async () => {
    let passedSleep = 0;
    let retried: Promise<void> | undefined;
    const url = ep.route('/lookback-again', async (ctx) => {
      await ctx.sleep('s', 1);
      // The invocation that waits first (and finds the lookback) is answered 500, so it comes again.
      passedSleep++;
      retried ??= ep.failOnce('/lookback-again');
      const first = await ctx.waitForEvent('w1', 'ev-early-again', { timeout: '30s' });
      const then = await ctx.waitForEvent('w2', 'ev-then', { timeout: '30s' });
      return [first.eventData, then.eventData];
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await ep.client.notify({ eventId: 'ev-early-again', eventData: 'early', workflowRunId });
    // Past the sleep: the failed invocation, its repeat, and the one resumed by the lookback.
    await eventually(async () => passedSleep >= 3 && (await ep.client.getWaiters({ eventId: 'ev-then' })).length === 1, 'the second wait');
    await retried;
    assert.deepEqual(await ep.client.getWaiters({ eventId: 'ev-early-again' }), []);
    assert.equal((await ep.client.notify({ eventId: 'ev-then', eventData: 'then' })).length, 1);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), ['early', 'then']);
  });

  it('notifies from another run with context.notify', async () => {
    const waiting = ep.route('/wait-for-b', async (ctx) => {
      return await ctx.waitForEvent('w', 'ev-ab', { timeout: '30s' });
    });
    let notified = -1;
    const notifier = ep.route('/b', async (ctx) => {
      const r = await ctx.notify('n', 'ev-ab', 'hi');
      await ctx.run('count', () => (notified = r.notifyResponse.length));
    });
    const a = await ep.client.trigger({ url: waiting, body: {} });
    await eventually(async () => (await ep.client.getWaiters({ eventId: 'ev-ab' })).length === 1, 'run A waiting');
    await ep.client.trigger({ url: notifier, body: {} });
    const run = await ep.runIs(a.workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { eventData: 'hi', timeout: false });
    await eventually(async () => notified === 1, 'run B saw one woken waiter');
  });

  it('waits for a webhook called without a token, and times one out', async () => {
    let hookUrl = '';
    const url = ep.route('/hooked', async (ctx) => {
      const h = await ctx.createWebhook('h');
      await ctx.run('publish-url', () => (hookUrl = h.webhookUrl));
      const r = await ctx.waitForWebhook('w', h, '30s');
      const text = await ctx.run('read', async () => (r.request === undefined ? null : { method: r.request.method, body: await r.request.text(), type: r.request.headers.get('content-type'), q: new URL(r.request.url).searchParams.get('x') }));
      const late = await ctx.waitForWebhook('w2', await ctx.createWebhook('h2'), '1s');
      return { text, lateTimeout: late.timeout };
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await eventually(async () => hookUrl !== '', 'the webhook URL');
    assert.ok(hookUrl.startsWith(`${t.queue().url}/v2/workflows/hooks/`), hookUrl);
    const wrongUser = hookUrl.replace('/hooks/', '/hooks/x');
    assert.equal((await fetch(wrongUser, { method: 'POST', body: 'no' })).status, 404);
    const res = await fetch(`${hookUrl}?x=1`, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } });
    assert.equal(res.status, 200);
    const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    assert.deepEqual(JSON.parse(run.workflowRunResponse!), { text: { method: 'POST', body: 'hello', type: 'text/plain', q: '1' }, lateTimeout: true });
  });
});

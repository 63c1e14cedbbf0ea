// A failing workflow step end to end: the trigger's retries, then the run fails into the DLQ and
// the failure function gets the library's failure callback (the failed answer, the run id, its
// creation time and initial payload); non-retryable errors skip the retries; the workflow DLQ
// (list and its filters, resume, restart, delete).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkflowNonRetryableError } from '@upstash/workflow';
import { eventually } from '../../support/eventually.js';
import { suiteLarder } from '../../support/larder.js';
import { queueClient } from '../../support/queue-receiver.js';
import { startWorkflowEndpoint, type RunLog, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

interface FailureSeen {
  runId: string;
  createdAt: number;
  payload: unknown;
  status: number;
  response: string;
  user: string | null;
}

describe('workflow failures', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  const failing = (path: string, error: () => Error) => {
    const attempts = new Map<string, number>();
    const failures: FailureSeen[] = [];
    const url = ep.route<{ order: number }>(
      path,
      async (ctx) => {
        await ctx.run('fine', () => 'ok');
        await ctx.run('bad', () => {
          attempts.set(ctx.workflowRunId, (attempts.get(ctx.workflowRunId) ?? 0) + 1);
          throw error();
        });
      },
      {
        failureFunction: async ({ context, failStatus, failResponse }) => {
          failures.push({ runId: context.workflowRunId, createdAt: context.workflowRunCreatedAt, payload: context.requestPayload, status: failStatus, response: failResponse, user: context.headers.get('x-user') });
          return 'handled';
        },
      },
    );
    return { url, attempts, failures };
  };

  it('retries a failing step, then fails the run into the DLQ and calls the failure function', async () => {
    const { url, attempts, failures } = failing('/boom', () => new Error('boom'));
    const { workflowRunId } = await ep.client.trigger({ url, body: { order: 7 }, retries: 2, headers: { 'x-user': 'u' } });
    const run = await ep.runIs(workflowRunId, 'RUN_FAILED');
    assert.equal(attempts.get(workflowRunId), 3);
    await eventually(async () => failures.length === 1, 'the failure function');
    const [f] = failures;
    assert.equal(f.runId, workflowRunId);
    assert.equal(f.createdAt, run.workflowRunCreatedAt);
    assert.deepEqual(f.payload, { order: 7 });
    assert.equal(f.status, 500);
    assert.equal(f.response, 'boom');
    assert.equal(f.user, 'u');
    assert.match(run.dlqId ?? '', /^dlq_/);
    const done = await eventuallyState(workflowRunId, 'CALLBACK_SUCCESS');
    assert.equal(done.failureFunction?.failStatus, 500);
    assert.equal(done.failureFunction?.failResponse, 'boom');
    assert.equal(done.failureFunction?.dlqId, run.dlqId);
    const failed = done.steps[done.steps.length - 1];
    assert.equal(failed.type, 'next');
    assert.deepEqual((failed.steps as { state: string; stepName?: string }[]).map((s) => [s.state, s.stepName]), [['STEP_FAILED', 'bad']]);
    const dlq = await queueClient(t.queue()).dlq.listMessages();
    assert.ok(dlq.messages.some((m) => m.dlqId === run.dlqId && m.url === url));
    // The failure function ran once, and the run takes no more steps.
    assert.equal(failures.length, 1);
    const again = await ep.client.dlq.retryFailureFunction({ dlqId: run.dlqId! });
    assert.equal(again.workflowRunId, workflowRunId);
    await eventually(async () => failures.length === 2, 'the failure function called again');
    assert.deepEqual(failures[1], failures[0]);
    await eventuallyState(workflowRunId, 'CALLBACK_SUCCESS');
    const late = ep.qstash.publishJSON({ url, body: {}, headers: { 'Upstash-Workflow-RunId': workflowRunId, 'Upstash-Workflow-Init': 'false' } });
    await assert.rejects(late, (e: Error & { status?: number }) => e.status === 400);
  });

  it('skips the retries on WorkflowNonRetryableError', async () => {
    const { url, attempts, failures } = failing('/no-retry', () => new WorkflowNonRetryableError('no'));
    const { workflowRunId } = await ep.client.trigger({ url, body: { order: 1 }, retries: 3 });
    await ep.runIs(workflowRunId, 'RUN_FAILED');
    await eventually(async () => failures.length === 1, 'the failure function');
    assert.equal(attempts.get(workflowRunId), 1);
    assert.equal(failures[0].response, 'no');
  });

  it('fails a run whose endpoint has no failure function', async () => {
    let attempts = 0;
    const url = ep.route('/plain-fail', async (ctx) => {
      await ctx.run('bad', () => {
        attempts++;
        throw new Error('plain');
      });
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {}, retries: 0 });
    await ep.runIs(workflowRunId, 'RUN_FAILED');
    await eventuallyState(workflowRunId, 'CALLBACK_SUCCESS');
    assert.equal(attempts, 1);
  });

  it('lists a failed run’s dead letter, resumes it from the failed step, restarts another, deletes a third', async () => {
    let broken = true;
    const ran = new Map<string, number>();
    const count = (k: string) => ran.set(k, (ran.get(k) ?? 0) + 1);
    const url = ep.route<{ n: number }>('/revive', async (ctx) => {
      const a = await ctx.run('a', () => {
        count(`a${ctx.requestPayload.n}`);
        return ctx.requestPayload.n;
      });
      const b = await ctx.run('b', () => {
        count(`b${ctx.requestPayload.n}`);
        if (broken) throw new Error('still broken');
        return a * 10;
      });
      return b;
    });
    const runs = [];
    for (const n of [1, 2, 3]) {
      const { workflowRunId } = await ep.client.trigger({ url, body: { n }, retries: 0 });
      runs.push(await ep.runIs(workflowRunId, 'RUN_FAILED'));
    }
    const listed = await ep.client.dlq.list();
    const entryOf = (runId: string) => listed.messages.find((m) => m.workflowRunId === runId)!;
    for (const r of runs) {
      const e = entryOf(r.workflowRunId);
      assert.equal(e.dlqId, r.dlqId);
      assert.equal(e.workflowUrl, url);
      assert.equal(Number(e.workflowCreatedAt), r.workflowRunCreatedAt);
    }
    broken = false;
    const resumed = await ep.client.dlq.resume({ dlqId: runs[0].dlqId! });
    const restarted = await ep.client.dlq.restart({ dlqId: runs[1].dlqId! });
    assert.notEqual(resumed.workflowRunId, runs[0].workflowRunId);
    assert.equal((await ep.runIs(resumed.workflowRunId, 'RUN_SUCCESS')).workflowRunResponse, '10');
    assert.equal((await ep.runIs(restarted.workflowRunId, 'RUN_SUCCESS')).workflowRunResponse, '20');
    // Resume kept step a's result; restart ran the run again from the start.
    assert.deepEqual([ran.get('a1'), ran.get('b1'), ran.get('a2'), ran.get('b2')], [1, 2, 2, 2]);
    assert.equal((await ep.client.dlq.delete(runs[2].dlqId!)).deleted, 1);
    const left = (await ep.client.dlq.list()).messages.map((m) => m.dlqId);
    for (const r of runs) assert.ok(!left.includes(r.dlqId!));
  });

  it('lists dead letters by any of several flow control keys, by creation time, caller, failure time and failure function state; refuses a filter it does not take', async () => {
    // c's failure function fails too, so its dead letter's callback state differs from a's and b's.
    const url = ep.route<{ key: string }>(
      '/dlq-filtered',
      async (ctx) => {
        await ctx.run('bad', () => {
          throw new Error('bad');
        });
      },
      {
        failureFunction: async ({ context }) => {
          if ((context.requestPayload as { key: string }).key === 'c') throw new Error('failure function failed');
          return 'handled';
        },
      },
    );
    const runs = new Map<string, RunLog>();
    // One run at a time, so no two share a creation time; `failedBy` is a time after each had failed.
    const failedBy = new Map<string, number>();
    for (const key of ['a', 'b', 'c']) {
      const { workflowRunId } = await ep.client.trigger({ url, body: { key }, retries: 0, flowControl: { key: `dlq-filter-${key}`, parallelism: 1 } });
      runs.set(key, await ep.runIs(workflowRunId, 'RUN_FAILED'));
      failedBy.set(key, Date.now());
    }
    const run = (key: string) => runs.get(key)!;
    await eventuallyState(run('a').workflowRunId, 'CALLBACK_SUCCESS');
    await eventuallyState(run('b').workflowRunId, 'CALLBACK_SUCCESS');
    await eventuallyState(run('c').workflowRunId, 'CALLBACK_FAIL');
    const ids = (...keys: string[]) => keys.map((k) => run(k).workflowRunId).sort();
    type ListFilter = NonNullable<NonNullable<Parameters<typeof ep.client.dlq.list>[0]>['filter']>;
    const listed = async (filter: ListFilter) => (await ep.client.dlq.list({ filter })).messages.map((m) => m.workflowRunId).sort();
    // Other tests' dead letters are in the DLQ too: an ignored filter lists them.
    assert.deepEqual(await listed({ flowControlKey: ['dlq-filter-a', 'dlq-filter-b'] }), ids('a', 'b'));
    assert.deepEqual(await listed({ flowControlKey: 'dlq-filter-c' }), ids('c'));
    assert.deepEqual(await listed({ workflowCreatedAt: run('b').workflowRunCreatedAt }), ids('b'));
    // The runs were triggered from loopback.
    assert.deepEqual(await listed({ flowControlKey: 'dlq-filter-c', callerIp: ['10.0.0.1', '127.0.0.1'] }), ids('c'));
    assert.deepEqual(await listed({ workflowUrl: url, callerIp: '10.0.0.1' }), []);
    // fromDate and toDate bound the time each run failed into the DLQ.
    assert.deepEqual(await listed({ workflowUrl: url, fromDate: failedBy.get('a')! + 1 }), ids('b', 'c'));
    assert.deepEqual(await listed({ workflowUrl: url, toDate: failedBy.get('b')! }), ids('a', 'b'));
    assert.deepEqual(await listed({ workflowUrl: url, fromDate: failedBy.get('a')! + 1, toDate: failedBy.get('b')! }), ids('b'));
    assert.deepEqual(await listed({ workflowUrl: url, failureFunctionState: 'CALLBACK_FAIL' }), ids('c'));
    assert.deepEqual(await listed({ workflowUrl: url, failureFunctionState: 'CALLBACK_SUCCESS' }), ids('a', 'b'));
    // Different filters must all match.
    assert.deepEqual(await listed({ flowControlKey: 'dlq-filter-a', failureFunctionState: 'CALLBACK_FAIL' }), []);
    // The library's types say the DLQ rejects host and path, which cancel and the logs take.
    await assert.rejects(
      ep.client.dlq.list({ filter: { host: new URL(url).host } as ListFilter }),
      (e: Error & { status?: number }) => e.status === 400 && /unknown filter 'host'/.test(e.message),
    );
    for (const [name, value] of [['toDate', 'soon'], ['workflowCreatedAt', '2026-01-01']]) {
      await assert.rejects(
        ep.client.dlq.list({ filter: { [name]: value } as ListFilter }),
        (e: Error & { status?: number }) => e.status === 400 && e.message.includes(`${name} must be a unix time in ms`),
      );
    }
  });

  async function eventuallyState(runId: string, state: string) {
    let run: Awaited<ReturnType<typeof ep.runIs>> | undefined;
    await eventually(async () => {
      run = (await ep.client.logs({ workflowRunId: runId })).runs[0];
      return run?.failureFunction?.state === state;
    }, `failure function ${state}`);
    return run!;
  }
});

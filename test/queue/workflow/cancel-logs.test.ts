// Cancelling workflow runs (by id, by URL filter, from inside the route with context.cancel())
// and the runs' logs: states, the "next" group of a run on its way, filters and paging.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { suiteLarder } from '../../support/larder.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../../support/workflow-endpoint.js';

describe('workflow cancel and logs', () => {
  const t = suiteLarder({ queue: { retryDelayScale: 0.001 } });
  let ep: WorkflowEndpoint;
  before(async () => {
    ep = await startWorkflowEndpoint(t.queue());
  });
  after(() => ep.close());

  const runsAt = (path: string) => {
    const after = new Set<string>();
    const failures: string[] = [];
    const url = ep.route(
      path,
      async (ctx) => {
        await ctx.run('before', () => 1);
        await ctx.sleep('long', 60);
        await ctx.run('after', () => after.add(ctx.workflowRunId));
      },
      { failureFunction: async ({ context }) => void failures.push(context.workflowRunId) },
    );
    return { url, after, failures };
  };

  const sleeping = async (runId: string) =>
    eventually(async () => {
      const [run] = (await ep.client.logs({ workflowRunId: runId })).runs;
      return (run?.steps.flatMap((g) => g.steps as unknown[]) as { stepName?: string }[]).some((s) => s.stepName === 'long');
    }, `run ${runId} asleep`);

  it('cancels a run by id: its waiting step is dropped, no failure function, 404 after', async () => {
    const { url, after: ranAfter, failures } = runsAt('/cancel-one');
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    await sleeping(workflowRunId);
    const asleep = (await ep.client.logs({ workflowRunId })).runs[0];
    assert.equal(asleep.workflowState, 'RUN_STARTED');
    const next = asleep.steps[asleep.steps.length - 1];
    assert.equal(next.type, 'next');
    const waiting = next.steps[0] as { state: string; messageId: string };
    assert.equal(waiting.state, 'STEP_PROGRESS');

    assert.deepEqual(await ep.client.cancel({ ids: workflowRunId }), { cancelled: 1 });
    const run = await ep.runIs(workflowRunId, 'RUN_CANCELED');
    assert.ok(run.workflowRunCompletedAt !== undefined);
    assert.ok(run.steps.every((g) => g.type !== 'next'));
    assert.deepEqual(await ep.client.cancel({ ids: workflowRunId }), { cancelled: 0 });
    const q = t.queue();
    const res = await fetch(`${q.url}/v2/workflows/runs/${workflowRunId}`, { headers: { authorization: `Bearer ${q.token}` } });
    assert.equal(res.status, 404);
    const dropped = await fetch(`${q.url}/v2/messages/${waiting.messageId}`, { headers: { authorization: `Bearer ${q.token}` } });
    assert.equal(dropped.status, 404);
    assert.equal(ranAfter.size, 0);
    assert.deepEqual(failures, []);
  });

  it('cancels every run of a URL', async () => {
    const { url } = runsAt('/cancel-many');
    const ids = [(await ep.client.trigger({ url, body: {} })).workflowRunId, (await ep.client.trigger({ url, body: {} })).workflowRunId];
    for (const id of ids) await sleeping(id);
    assert.deepEqual(await ep.client.cancel({ filter: { workflowUrl: url } }), { cancelled: 2 });
    for (const id of ids) await ep.runIs(id, 'RUN_CANCELED');
  });

  it("cancels by an older client's JSON body ({workflowRunIds}, {workflowUrl}) exactly what it names; any other body is refused and cancels nothing", async () => {
    const { url } = runsAt('/cancel-body');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ep.client.trigger({ url, body: {} })).workflowRunId);
    for (const id of ids) await sleeping(id);
    const cancel = (body: string) =>
      fetch(`${t.queue().url}/v2/workflows/runs`, { method: 'DELETE', headers: { authorization: `Bearer ${t.queue().token}`, 'content-type': 'application/json' }, body });
    const refusal = {
      error: "a cancel's body takes only workflowRunIds and workflowUrl, each a string or an array of strings; other filters go in the query",
      status: 400,
    };
    for (const bad of ['{"workflowRunIds":5}', '{"ids":["x"]}', '[]', '{"workflowUrl":[1]}']) {
      const res = await cancel(bad);
      assert.deepEqual([res.status, await res.json()], [400, refusal], bad);
    }
    assert.deepEqual(await (await cancel(JSON.stringify({ workflowRunIds: [] }))).json(), { cancelled: 0 });
    assert.deepEqual(await (await cancel(JSON.stringify({ workflowRunIds: ids.slice(0, 2) }))).json(), { cancelled: 2 });
    assert.deepEqual(await (await cancel(JSON.stringify({ workflowUrl: `${url}-elsewhere` }))).json(), { cancelled: 0 });
    assert.deepEqual(await (await cancel(JSON.stringify({ workflowUrl: url }))).json(), { cancelled: 1 });
    for (const id of ids) await ep.runIs(id, 'RUN_CANCELED');
  });

  it('cancels by host, path, caller address and any of several labels; a filter it does not take is refused, never ignored', async () => {
    const { url } = runsAt('/cancel-filtered');
    const labelled = async (label: string) => (await ep.client.trigger({ url, body: {}, label })).workflowRunId;
    const [one, two, other] = [await labelled('one'), await labelled('two'), await labelled('other')];
    for (const id of [one, two, other]) await sleeping(id);
    const { host, pathname } = new URL(url);
    assert.deepEqual(await ep.client.cancel({ filter: { host: 'elsewhere.example', label: ['one', 'two'] } }), { cancelled: 0 });
    assert.deepEqual(await ep.client.cancel({ filter: { path: '/elsewhere', label: ['one', 'two'] } }), { cancelled: 0 });
    // The runs were triggered from loopback.
    assert.deepEqual(await ep.client.cancel({ filter: { callerIp: ['10.0.0.1', '10.0.0.2'], label: ['one', 'two'] } }), { cancelled: 0 });
    await assert.rejects(ep.client.cancel({ filter: { bogus: '1' } as never }), /unknown filter 'bogus'/);
    // A time that is not one would match no run: refused, as the logs refuse it.
    await assert.rejects(ep.client.cancel({ filter: { fromDate: 'yesterday', label: 'one' } as never }), /fromDate must be a unix time in ms/);
    // The logs take the same filters.
    const logged = await ep.client.logs({ filter: { host, path: pathname, callerIp: '127.0.0.1', label: ['one', 'two'] } } as never);
    assert.deepEqual(logged.runs.map((r) => r.workflowRunId).sort(), [one, two].sort());
    assert.deepEqual((await ep.client.logs({ filter: { host: 'elsewhere.example' } } as never)).runs, []);
    assert.deepEqual((await ep.client.logs({ filter: { callerIp: '10.0.0.1', label: 'one' } } as never)).runs, []);
    assert.deepEqual(await ep.client.cancel({ filter: { host, path: pathname, callerIp: ['10.0.0.1', '127.0.0.1'], label: ['one', 'two'] } }), { cancelled: 2 });
    for (const id of [one, two]) await ep.runIs(id, 'RUN_CANCELED');
    assert.equal((await ep.client.logs({ workflowRunId: other })).runs[0].workflowState, 'RUN_STARTED');
    assert.deepEqual(await ep.client.cancel({ ids: other }), { cancelled: 1 });
  });

  it('cancels from inside the route with context.cancel()', async () => {
    let after = 0;
    const url = ep.route('/self-cancel', async (ctx) => {
      await ctx.run('one', () => 1);
      await ctx.cancel();
      await ctx.run('two', () => after++);
    });
    const { workflowRunId } = await ep.client.trigger({ url, body: {} });
    const run = await ep.runIs(workflowRunId, 'RUN_CANCELED');
    assert.equal(after, 0);
    assert.deepEqual(
      (run.steps.flatMap((g) => g.steps as unknown[]) as { stepName?: string }[]).map((s) => s.stepName),
      ['init', 'one'],
    );
  });

  it('lists runs newest first, filtered by state and URL, page by page', async () => {
    const url = ep.route('/logged', async (ctx) => {
      await ctx.run('s', () => 's');
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { workflowRunId } = await ep.client.trigger({ url, body: { i } });
      ids.push(workflowRunId);
      await ep.runIs(workflowRunId, 'RUN_SUCCESS');
    }
    const all = await ep.client.logs({ filter: { workflowUrl: url } });
    assert.deepEqual(all.runs.map((r) => r.workflowRunId), [...ids].reverse());
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ep.client.logs({ count: 1, cursor, filter: { workflowUrl: url, state: 'RUN_SUCCESS' } });
      assert.equal(page.runs.length, 1);
      seen.push(page.runs[0].workflowRunId);
      cursor = page.cursor;
    } while (cursor !== undefined && cursor !== '');
    assert.deepEqual(seen, [...ids].reverse());
    const failed = await ep.client.logs({ filter: { workflowUrl: url, state: 'RUN_FAILED' } });
    assert.deepEqual(failed.runs, []);
  });
});

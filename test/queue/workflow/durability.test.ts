// Workflow runs survive a crash: Larder is killed (SIGKILL) in the middle of a 20-step workflow
// and started again on the same port and data dir (the endpoint's client has the URL baked in).
// The run completes, every step's body ran at least once, and every result is kept, whether the
// store comes back from its log or from a snapshot (compacting after every write). Waits and
// notifications kept for a later wait survive a restart too.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../support/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { spawnLarder } from '../../support/larder-process.js';
import { startWorkflowEndpoint } from '../../support/workflow-endpoint.js';

const STEPS = 20;

describe('workflow durability', () => {
  for (const way of [
    { how: 'replayed from the log', queue: {} },
    { how: 'loaded from a snapshot', queue: { compactAfterBytes: 1 } },
  ]) {
    it(`finishes a 20-step run after a kill -9 mid-run, ${way.how}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'larder-workflow-crash-'));
      // On engine postgres the killed process's leases last the attempt timeout plus 5 s, and the
      // restarted process (another owner) delivers the step in flight once its lease runs out.
      const config = { port: await freePort(), queue: { retryDelayScale: 0.001, deliveryTimeoutMs: 2000, ...way.queue } };
      let larder = await spawnLarder({ config, dataDir });
      const ep = await startWorkflowEndpoint(larder.info.queue);
      try {
        const ran = new Map<string, number>();
        const url = ep.route('/long', async (ctx) => {
          let prev = 0;
          for (let i = 1; i <= STEPS; i++) {
            const p = prev;
            prev = await ctx.run(`s${i}`, () => {
              ran.set(`s${i}`, (ran.get(`s${i}`) ?? 0) + 1);
              return p + 1;
            });
          }
          return prev;
        });
        const { workflowRunId } = await ep.client.trigger({ url, body: {} });
        await eventually(async () => ran.has('s7'), 'step s7');
        larder.kill('SIGKILL');
        await larder.exited;
        larder = await spawnLarder({ config, dataDir });
        const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
        assert.equal(run.workflowRunResponse, String(STEPS));
        for (let i = 1; i <= STEPS; i++) assert.ok((ran.get(`s${i}`) ?? 0) >= 1, `s${i} ran`);
        const outs = (run.steps.flatMap((g) => g.steps as unknown[]) as { stepName?: string; out?: unknown }[]).slice(1);
        assert.deepEqual(
          outs.map((s) => [s.stepName, s.out]),
          Array.from({ length: STEPS }, (_, i) => [`s${i + 1}`, String(i + 1)]),
        );
      } finally {
        await ep.close();
        await larder.stop('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it(`keeps a waiting run and a kept notification across a restart, ${way.how}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'larder-workflow-wait-'));
      const config = { port: await freePort(), queue: { retryDelayScale: 0.001, ...way.queue } };
      let larder = await spawnLarder({ config, dataDir });
      const ep = await startWorkflowEndpoint(larder.info.queue);
      try {
        const url = ep.route('/waits', async (ctx) => {
          const a = await ctx.waitForEvent('a', 'ev-restart-a', { timeout: '1h' });
          await ctx.sleep('s', 2);
          const b = await ctx.waitForEvent('b', 'ev-restart-b', { timeout: '1h' });
          return [a.eventData, b.eventData];
        });
        const { workflowRunId } = await ep.client.trigger({ url, body: {} });
        await eventually(async () => (await ep.client.getWaiters({ eventId: 'ev-restart-a' })).length === 1, 'the first wait');
        // Kept for the second wait, which the run reaches only after the restart.
        await ep.client.notify({ eventId: 'ev-restart-b', eventData: 'kept', workflowRunId });
        await larder.stop('SIGTERM');
        larder = await spawnLarder({ config, dataDir });
        assert.equal((await ep.client.getWaiters({ eventId: 'ev-restart-a' })).length, 1);
        assert.equal((await ep.client.notify({ eventId: 'ev-restart-a', eventData: 'now' })).length, 1);
        const run = await ep.runIs(workflowRunId, 'RUN_SUCCESS');
        assert.deepEqual(JSON.parse(run.workflowRunResponse!), ['now', 'kept']);
      } finally {
        await ep.close();
        await larder.stop('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

// Compactions while the queue works (issue 20). A compaction gathers the store's state when it
// starts and builds and encodes its ops as the snapshot is written, in slices between requests,
// so the snapshot must be the state of that moment whatever changes meanwhile. With a small
// compactAfterBytes, compactions run one after another while messages are published, retried
// (a destination failing once, another failing once and waiting an hour), delivered,
// dead-lettered and cancelled, schedules and URL groups change, and workflow runs take their
// steps (a run changes in place). Every snapshot the test
// catches is checked against the ops logged after it began (its log and the later ones): none
// of their changes is in it, and nothing they change is missing from it. Then restarts, a kill -9
// during a compaction and a clean stop, show exactly the acknowledged state.

import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import type { Client } from '@upstash/qstash';
import { Client as WorkflowClient } from '@upstash/workflow';
import { decodeOp, type Op } from '../../src/queue/store/ops.js';
import { readFrames } from '../../src/storage/frames.js';
import { spawnLarder, type Ready } from '../support/larder-process.js';
import { embeddedQueueOnly } from '../support/larder.js';
import { queueClient, startQueueReceiver, type QueueReceiver } from '../support/queue-receiver.js';
import { startWorkflowEndpoint, type WorkflowEndpoint } from '../support/workflow-endpoint.js';

// Retries scaled to milliseconds (an Upstash-Retry-Delay of 3,600,000,000 ms waits an hour).
const config = { logLevel: 'silent', queue: { fsync: 'always', compactAfterBytes: 64 * 1024, retryDelayScale: 0.001 } };
const A_DAY_S = 86_400;
/** Snapshots (with every log after them) the activity goes on until it has caught. */
const SNAPSHOTS = 6;
const MAX_ROUNDS = 400;
const GROUP = 'compaction-group';

/** What the test was answered: the state a restart must show. */
interface Acknowledged {
  delayed: string[];
  cancelled: Set<string>;
  /** Delivered for good: never pending again. */
  delivered: string[];
  /** Failed once, retried an hour later: pending with one retry. */
  waiting: string[];
  deadLettered: string[];
  schedules: string[];
  /** Workflow runs, each finished. */
  runs: string[];
}

const GEN = /^(snapshot|log)-(\d{20})\.(bin|aof)$/;

/** Hard-links every snapshot and log that appears in `dir` into `archive`, so compactions deleting them leave them readable. */
function archiveFiles(dir: string, archive: string): () => void {
  const poll = setInterval(() => {
    for (const name of readdirSync(dir)) {
      if (!GEN.test(name)) continue;
      try {
        linkSync(join(dir, name), join(archive, name));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOENT') throw e;
      }
    }
  }, 1);
  return () => clearInterval(poll);
}

/** The ops of a log, or of a snapshot after its header frame. */
const opsOf = (path: string): Op[] => readFrames(readFileSync(path)).frames.slice(path.endsWith('.bin') ? 1 : 0).map((f) => decodeOp(f));

interface SnapshotState {
  messages: Map<string, { retried: number; notBefore: number }>;
  dlq: Set<string>;
  schedules: Map<string, { paused: boolean }>;
  groups: Map<string, string[]>;
  runs: Map<string, { state: string; steps: Set<string> }>;
}

function stateOf(ops: readonly Op[]): SnapshotState {
  const s: SnapshotState = { messages: new Map(), dlq: new Set(), schedules: new Map(), groups: new Map(), runs: new Map() };
  for (const op of ops) {
    if (op.op === 'put') s.messages.set(op.message.id, { retried: op.message.retried, notBefore: op.message.notBefore });
    else if (op.op === 'retry') s.messages.set(op.id, { retried: op.retried, notBefore: op.notBefore });
    else if (op.op === 'dlq') s.dlq.add(op.entry.dlqId);
    else if (op.op === 'schedule') s.schedules.set(op.schedule.id, { paused: op.schedule.paused });
    else if (op.op === 'urlGroup') s.groups.set(op.group.name, op.group.endpoints.map((e) => e.url));
    else if (op.op === 'run') s.runs.set(op.run.id, { state: op.run.state, steps: new Set(op.run.steps.map((step) => step.messageId)) });
  }
  return s;
}

/**
 * Checks snapshot `gen` against the ops logged after it began: the first op on each record
 * must find that record as the snapshot has it. Returns how many ops changed a record the
 * snapshot held (0: nothing happened while it was taken).
 */
function checkSnapshot(archive: string, gen: number, logs: readonly number[]): number {
  const name = (kind: string, g: number) => join(archive, `${kind}-${String(g).padStart(20, '0')}.${kind === 'snapshot' ? 'bin' : 'aof'}`);
  const s = stateOf(opsOf(name('snapshot', gen)));
  const seen = new Set<string>();
  const first = (key: string) => !seen.has(key) && seen.add(key) !== undefined;
  let held = 0;
  const where = `snapshot ${gen}`;
  for (const op of logs.filter((g) => g >= gen).flatMap((g) => opsOf(name('log', g)))) {
    if (op.op === 'put' && first(op.message.id)) {
      assert.ok(!s.messages.has(op.message.id), `${where} holds message ${op.message.id}, published after it began`);
      const run = op.message.workflow?.kind === 'step' ? s.runs.get(op.message.workflow.runId) : undefined;
      if (run !== undefined) assert.ok(!run.steps.has(op.message.id), `${where} holds run ${op.message.workflow?.runId} with a step made after it began`);
      held += run === undefined ? 0 : 1;
    } else if (op.op === 'runEnd' && s.runs.has(op.runId) && first(op.runId)) {
      assert.equal(s.runs.get(op.runId)?.state, 'RUN_STARTED', `${where} holds run ${op.runId} as ended after it began`);
      held++;
    } else if ((op.op === 'retry' || op.op === 'done') && first(op.id)) {
      const m = s.messages.get(op.id);
      assert.ok(m !== undefined, `${where} lost message ${op.id}, pending when it began (${op.op} logged after)`);
      if (op.op === 'retry') assert.equal(m.retried, op.retried - 1, `${where} holds message ${op.id} with a retry made after it began`);
      held++;
    } else if (op.op === 'dlq' && first(op.entry.dlqId)) assert.ok(!s.dlq.has(op.entry.dlqId), `${where} holds dead letter ${op.entry.dlqId}, made after it began`);
    else if (op.op === 'undlq' && first(op.dlqId)) assert.ok(s.dlq.has(op.dlqId), `${where} lost dead letter ${op.dlqId}`);
    else if (op.op === 'schedule' && first(op.schedule.id)) {
      const before = s.schedules.get(op.schedule.id);
      // The test only pauses or resumes a schedule it made: each change flips `paused`.
      if (before !== undefined) assert.notEqual(before.paused, op.schedule.paused, `${where} holds schedule ${op.schedule.id} as changed after it began`);
      held += before === undefined ? 0 : 1;
    } else if (op.op === 'urlGroup' && first(op.group.name)) {
      const before = s.groups.get(op.group.name);
      // Each change adds or removes an endpoint.
      if (before !== undefined) assert.notDeepEqual(before, op.group.endpoints.map((e) => e.url), `${where} holds URL group ${op.group.name} as changed after it began`);
      held += before === undefined ? 0 : 1;
    }
  }
  return held;
}

/** Checks each caught snapshot whose later logs were all caught; returns how many. */
function checkArchive(archive: string): number {
  const gens = (kind: string) => readdirSync(archive).map((f) => GEN.exec(f)).filter((m) => m?.[1] === kind).map((m) => Number(m![2])).sort((a, b) => a - b);
  const logs = gens('log');
  let checked = 0;
  let held = 0;
  for (const gen of gens('snapshot')) {
    const after = logs.filter((g) => g >= gen);
    if (after[0] !== gen || after.some((g, i) => g !== gen + i)) continue;
    held += checkSnapshot(archive, gen, logs);
    checked++;
  }
  assert.ok(held > 0, 'no change logged after a snapshot began touched what it held');
  return checked;
}

/** One round of the activity; answers go into `ack`. */
async function round(client: Client, rx: QueueReceiver, wf: { ep: WorkflowEndpoint; url: string }, ack: Acknowledged, i: number): Promise<void> {
  ack.runs.push((await wf.ep.client.trigger({ url: wf.url, body: { i } })).workflowRunId);
  const delayed = await client.batch(Array.from({ length: 50 }, (_, j) => ({ url: `${rx.url}/never`, body: `d${i}.${j}`, delay: A_DAY_S })));
  ack.delayed.push(...delayed.map((a) => (a as { messageId: string }).messageId));
  const publish = (path: string, extra: object = {}) => client.publishJSON({ url: `${rx.url}${path}`, body: { i }, ...extra }).then((a) => a.messageId);
  const [ok, once, later, fail] = await Promise.all([publish('/ok'), publish('/once', { retries: 3 }), publish('/later', { retries: 3, retryDelay: '3600000000' }), publish('/fail', { retries: 0 })]);
  ack.delivered.push(ok, once);
  ack.waiting.push(later);
  ack.deadLettered.push(fail);
  const victim = ack.delayed[(i * 7919) % ack.delayed.length];
  if (!ack.cancelled.has(victim)) {
    await client.messages.delete(victim);
    ack.cancelled.add(victim);
  }
  if (i % 5 === 0) ack.schedules.push((await client.schedules.create({ destination: `${rx.url}/never`, cron: '0 0 1 1 *', body: `s${i}` })).scheduleId);
  const schedule = ack.schedules[i % ack.schedules.length];
  const { isPaused } = await client.schedules.get(schedule);
  await (isPaused ? client.schedules.resume({ schedule }) : client.schedules.pause({ schedule }));
  const endpoint = { url: `${rx.url}/group/${i % 4}` };
  const group = await client.urlGroups.get(GROUP).catch(() => null);
  if (group?.endpoints.some((e) => e.url === endpoint.url)) await client.urlGroups.removeEndpoints({ name: GROUP, endpoints: [endpoint] });
  else await client.urlGroups.addEndpoints({ name: GROUP, endpoints: [endpoint] });
}

/** Polls `check` every 20 ms for up to `ms`. */
async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !(await check()); ) {
    if (Date.now() > end) assert.fail(`never happened within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every pending message's retry count, by id, from the console's admin view (the queue API does not show it). */
async function retryCounts(info: Ready): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let cursor: string | undefined = '0'; cursor !== undefined; ) {
    const page = await fetch(`${info.url}/console/api/queue/messages?count=1000&cursor=${cursor}`, { headers: { authorization: `Bearer ${info.adminToken}` } });
    const body = (await page.json()) as { messages: { messageId: string; retried: number }[]; cursor?: string };
    for (const m of body.messages) counts.set(m.messageId, m.retried);
    cursor = body.cursor;
  }
  return counts;
}

/**
 * `f` of each item, at most 32 at once, in order: thousands of requests opened at once overflow
 * the server's listen backlog, and on a loaded machine a connect retried past undici's 10 s
 * connect timeout fails the fetch.
 */
async function eachOf<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += 32) out.push(...(await Promise.all(items.slice(i, i + 32).map(f))));
  return out;
}

/** What the API shows of the acknowledged state: pending messages and their retries, what is gone, dead letters, schedules, the URL group. */
async function shown(info: Ready, ack: Acknowledged) {
  const client = queueClient(info.queue);
  const pending = [...ack.delayed.filter((id) => !ack.cancelled.has(id)), ...ack.waiting];
  const messages = await eachOf(pending, (id) => client.messages.get(id));
  // Not through the SDK, which logs every 404.
  const status = (id: string) => fetch(`${info.queue.url}/v2/messages/${id}`, { headers: { authorization: `Bearer ${info.queue.token}` } }).then((r) => r.status);
  const back = await eachOf([...ack.cancelled, ...ack.delivered, ...ack.deadLettered], async (id) => ((await status(id)) === 404 ? null : id));
  const counts = await retryCounts(info);
  const dlq = (await client.dlq.listMessages({ count: 1000 })).messages.map((m) => m.messageId).sort();
  const schedules = (await client.schedules.list()).map((s) => ({ id: s.scheduleId, paused: s.isPaused })).sort((a, b) => a.id.localeCompare(b.id));
  // The group goes with its last endpoint.
  const group = ((await client.urlGroups.get(GROUP).catch(() => null))?.endpoints ?? []).map((e) => e.url).sort();
  const workflows = new WorkflowClient({ baseUrl: info.queue.url, token: info.queue.token });
  const runs = await eachOf(ack.runs, async (id) => (await workflows.logs({ workflowRunId: id })).runs.map((r) => [r.workflowState, r.workflowRunResponse]));
  return { messages, back: back.filter((id) => id !== null), retried: pending.map((id) => counts.get(id)), dlq, schedules, group, runs };
}

describe('queue compactions while messages move', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-compaction-snapshot-'));
  const archive = mkdtempSync(join(tmpdir(), 'larder-queue-compaction-archive-'));
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(archive, { recursive: true, force: true });
  });

  embeddedQueueOnly('reads the snapshots and logs of <dataDir>/queue')('takes each snapshot as the state it began at, and restarts show every acknowledged change', async () => {
    const first = await spawnLarder({ dataDir, config });
    const q = first.info.queue;
    const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
    const ep = await startWorkflowEndpoint(q);
    const stopArchiving = archiveFiles(join(dataDir, 'queue'), archive);
    let second: Awaited<ReturnType<typeof spawnLarder>> | null = null;
    try {
      // Each message's first attempt fails.
      rx.answer('/once', (_, d) => (rx.at('/once').filter((x) => x.body === d.body).length === 1 ? { status: 500, body: 'once' } : { status: 200 }));
      rx.answer('/later', () => ({ status: 503, body: 'later' }));
      rx.answer('/fail', () => ({ status: 500, body: 'fail' }));
      const client = queueClient(q);
      const wf = {
        ep,
        url: ep.route('/steps', async (ctx) => {
          const a = await ctx.run('a', () => 1);
          const b = await ctx.run('b', () => a + 1);
          return await ctx.run('c', () => b + 1);
        }),
      };
      const ack: Acknowledged = { delayed: [], cancelled: new Set(), delivered: [], waiting: [], deadLettered: [], schedules: [], runs: [] };
      const snapshots = () => readdirSync(archive).filter((f) => f.startsWith('snapshot-')).length;
      for (let i = 0; snapshots() < SNAPSHOTS || i < 20; i++) {
        assert.ok(i < MAX_ROUNDS, `${snapshots()} snapshots after ${i} rounds`);
        await round(client, rx, wf, ack, i);
      }
      // Settled: every delivery, retry and dead letter the rounds set off has happened.
      const done = (path: string, n: number) => new Set(rx.at(path).map((d) => d.body)).size >= n;
      const rounds = ack.waiting.length;
      await waitFor(() => done('/ok', rounds) && rx.at('/once').length >= 2 * rounds && done('/later', rounds), 30_000, `every delivery: ${rounds} rounds, ${rx.at('/ok').length} /ok, ${rx.at('/once').length} /once, ${rx.at('/later').length} /later`);
      await waitFor(async () => (await client.dlq.listMessages({ count: 1000 })).messages.length === rounds, 30_000, 'every dead letter');
      await waitFor(async () => (await shown(first.info, ack)).back.length === 0, 30_000, 'every delivery settled');
      for (const id of ack.runs) await ep.runIs(id, 'RUN_SUCCESS');
      const before = await shown(first.info, ack);
      assert.deepEqual(before.back, [], 'delivered, dead-lettered and cancelled messages are gone');
      assert.deepEqual(before.retried, [...ack.delayed.filter((id) => !ack.cancelled.has(id)).map(() => 0), ...ack.waiting.map(() => 1)]);
      assert.deepEqual(before.dlq, [...ack.deadLettered].sort());
      assert.deepEqual(before.runs, ack.runs.map(() => [['RUN_SUCCESS', '3']]));

      // kill -9 while a compaction runs: publish until one is seen running.
      const late: string[] = [];
      while (!readdirSync(join(dataDir, 'queue')).some((f) => f.endsWith('.tmp'))) {
        assert.ok(late.length < 40_000, 'a compaction was seen running');
        const batch = await client.batch(Array.from({ length: 100 }, (_, i) => ({ url: `${rx.url}/never`, body: `k${late.length + i}`, delay: A_DAY_S })));
        late.push(...batch.map((a) => (a as { messageId: string }).messageId));
      }
      first.kill('SIGKILL');
      assert.equal((await first.exited).signal, 'SIGKILL');
      stopArchiving();
      const checked = checkArchive(archive);
      assert.ok(checked >= SNAPSHOTS - 1, `${checked} snapshots checked`);

      const latePending = async (info: Ready) => (await eachOf(late, (id) => queueClient(info.queue).messages.get(id))).map((m) => m.body);
      second = await spawnLarder({ dataDir, config });
      assert.deepEqual(await shown(second.info, ack), before, 'after kill -9');
      assert.deepEqual(await latePending(second.info), late.map((_, i) => `k${i}`));
      assert.equal((await second.stop()).code, 0);
      second = null;

      const third = await spawnLarder({ dataDir, config });
      try {
        assert.deepEqual(await shown(third.info, ack), before, 'after a clean stop');
        assert.deepEqual(await latePending(third.info), late.map((_, i) => `k${i}`));
      } finally {
        await third.stop();
      }
    } finally {
      stopArchiving();
      if (second !== null) await second.stop();
      if (first.child.exitCode === null && first.child.signalCode === null) await first.stop();
      await rx.close();
      await ep.close();
    }
  });
});

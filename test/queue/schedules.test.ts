// Schedules through the official @upstash/qstash Client (client.schedules), firing into a real
// local receiver that verifies every delivery with the SDK's Receiver. Larder takes six-field
// cron expressions (seconds first) besides the service's five, so a schedule fires every second
// here. "No more deliveries" is judged against a second schedule that keeps firing (a clock),
// not against a wall-clock wait. Schedules are kept in the store log and survive a restart.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client, QstashError } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { queueSnapshotTaken } from '../support/queue-backend.js';
import { queueClient, queueSuite, startQueueReceiver, type QueueReceiver } from '../support/queue-receiver.js';
import { restartableServers } from '../support/restarts.js';

const status = (e: unknown) => (e as QstashError).status;
const EVERY_SECOND = '* * * * * *';
/** Never fires during a test run. */
const YEARLY = '0 0 1 1 *';

describe('queue schedules', () => {
  const { t, rx, client } = queueSuite();

  const count = (path: string) => rx.at(path).length;
  const reach = (path: string, n: number) => eventually(async () => count(path) >= n, `${n} deliveries to ${path}`);

  it('fires every second, signed, with Upstash-Schedule-Id; pause stops it, resume starts it again; delete ends it', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: `${rx.url}/tick`,
      cron: EVERY_SECOND,
      body: 'tick body',
      headers: { 'content-type': 'text/plain', 'x-custom': 'yes' },
      retries: 2,
    });
    assert.match(scheduleId, /^scd_/);
    const s = await client.schedules.get(scheduleId);
    assert.equal(s.scheduleId, scheduleId);
    assert.equal(s.cron, EVERY_SECOND);
    assert.equal(s.destination, `${rx.url}/tick`);
    assert.equal(s.method, 'POST');
    assert.equal(s.body, 'tick body');
    assert.deepEqual(s.header?.['X-Custom'], ['yes']);
    assert.equal(s.retries, 2);
    assert.equal(s.isPaused, false);
    // The next whole second after the server read it: it may have fired once since its creation.
    const next = s.nextScheduleTime!;
    assert.ok(next > s.createdAt && next % 1000 === 0 && next <= Date.now() + 1000, `${next} ${s.createdAt}`);
    assert.ok((await client.schedules.list()).some((x) => x.scheduleId === scheduleId));

    await reach('/tick', 2);
    const ticks = rx.at('/tick');
    for (const d of ticks) {
      assert.equal(d.verified, true, d.verifyError);
      assert.equal(d.headers['upstash-schedule-id'], scheduleId);
      assert.equal(d.headers['x-custom'], 'yes');
      assert.equal(d.headers['content-type'], 'text/plain');
      assert.equal(d.body, 'tick body');
    }
    assert.notEqual(ticks[0].headers['upstash-message-id'], ticks[1].headers['upstash-message-id']);
    assert.ok((await client.schedules.get(scheduleId)).lastScheduleTime! >= s.createdAt);
    const [log] = (await client.logs({ filter: { messageId: String(ticks[0].headers['upstash-message-id']) } })).logs;
    assert.equal(log.url, `${rx.url}/tick`);

    const clock = await client.schedules.create({ destination: `${rx.url}/clock`, cron: EVERY_SECOND });
    await client.schedules.pause({ schedule: scheduleId });
    assert.equal((await client.schedules.get(scheduleId)).isPaused, true);
    // A firing made just before the pause may still be arriving; two clock ticks later it has.
    await reach('/clock', count('/clock') + 2);
    const paused = count('/tick');
    await reach('/clock', count('/clock') + 3);
    assert.equal(count('/tick'), paused, 'a paused schedule fired');

    await client.schedules.resume({ schedule: scheduleId });
    assert.equal((await client.schedules.get(scheduleId)).isPaused, false);
    await reach('/tick', paused + 2);

    await client.schedules.delete(scheduleId);
    await assert.rejects(client.schedules.get(scheduleId), (e) => status(e) === 404);
    assert.ok(!(await client.schedules.list()).some((x) => x.scheduleId === scheduleId));
    await reach('/clock', count('/clock') + 2);
    const deleted = count('/tick');
    await reach('/clock', count('/clock') + 3);
    assert.equal(count('/tick'), deleted, 'a deleted schedule fired');
    await client.schedules.delete(clock.scheduleId);
  });

  it('pauses and resumes by POST too (the API reference), and by PATCH (the SDK)', async () => {
    const { scheduleId } = await client.schedules.create({ destination: `${rx.url}/never`, cron: YEARLY });
    const q = t.queue();
    const call = (method: string, action: string) =>
      fetch(`${q.url}/v2/schedules/${scheduleId}/${action}`, { method, headers: { authorization: `Bearer ${q.token}` } });
    assert.equal((await call('POST', 'pause')).status, 200);
    assert.equal((await client.schedules.get(scheduleId)).isPaused, true);
    assert.equal((await call('POST', 'resume')).status, 200);
    assert.equal((await client.schedules.get(scheduleId)).isPaused, false);
    assert.equal((await call('PATCH', 'pause')).status, 200);
    assert.equal((await client.schedules.get(scheduleId)).isPaused, true);
    assert.equal((await call('PATCH', 'nap')).status, 404);
    await client.schedules.delete(scheduleId);
  });

  it('keeps the publish settings and applies them to each fired message', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: `${rx.url}/settings`,
      cron: YEARLY,
      method: 'PUT',
      delay: 5,
      retries: 0,
      callback: `${rx.url}/cb`,
      failureCallback: `${rx.url}/fcb`,
      label: 'nightly',
    });
    const s = await client.schedules.get(scheduleId);
    assert.equal(s.method, 'PUT');
    assert.equal(s.delay, 5);
    assert.equal(s.retries, 0);
    assert.equal(s.callback, `${rx.url}/cb`);
    assert.equal(s.failureCallback, `${rx.url}/fcb`);
    assert.deepEqual(s.labels, ['nightly']);
    await client.schedules.delete(scheduleId);

    rx.answer('/put-fail', () => ({ status: 500, body: 'no' }));
    const failing = await client.schedules.create({ destination: `${rx.url}/put-fail`, cron: EVERY_SECOND, method: 'PUT', retries: 0, failureCallback: `${rx.url}/put-failed` });
    await reach('/put-failed', 1);
    await client.schedules.delete(failing.scheduleId);
    assert.equal(rx.at('/put-fail')[0].method, 'PUT');
    const body = JSON.parse(rx.at('/put-failed')[0].body);
    assert.equal(body.scheduleId, failing.scheduleId);
    assert.equal(body.maxRetries, 0);
  });

  it('evaluates CRON_TZ= in its zone', async () => {
    const { scheduleId } = await client.schedules.create({ destination: `${rx.url}/zoned`, cron: 'CRON_TZ=America/New_York 30 4 * * *' });
    const s = await client.schedules.get(scheduleId);
    assert.equal(s.cron, 'CRON_TZ=America/New_York 30 4 * * *');
    const at = new Date(s.nextScheduleTime!);
    const local = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    assert.equal(local, '04:30');
    assert.ok(at.getTime() > Date.now() && at.getTime() - Date.now() <= 25 * 3600_000);
    await client.schedules.delete(scheduleId);
  });

  it('replaces the schedule with the same Upstash-Schedule-Id', async () => {
    await client.schedules.create({ destination: `${rx.url}/v1`, cron: YEARLY, body: 'v1', scheduleId: 'my-schedule' });
    const first = await client.schedules.get('my-schedule');
    const out = await client.schedules.create({ destination: `${rx.url}/v2`, cron: '0 12 * * *', body: 'v2', scheduleId: 'my-schedule' });
    assert.equal(out.scheduleId, 'my-schedule');
    const mine = (await client.schedules.list()).filter((x) => x.scheduleId === 'my-schedule');
    assert.equal(mine.length, 1);
    assert.equal(mine[0].destination, `${rx.url}/v2`);
    assert.equal(mine[0].body, 'v2');
    assert.equal(mine[0].cron, '0 12 * * *');
    assert.equal(mine[0].createdAt, first.createdAt);
    await client.schedules.delete('my-schedule');
  });

  it('fires to every endpoint of a URL group, which cannot be deleted while scheduled', async () => {
    await client.urlGroups.addEndpoints({ name: 'cron-group', endpoints: [{ url: `${rx.url}/cg/1`, name: 'one' }, { url: `${rx.url}/cg/2` }] });
    const { scheduleId } = await client.schedules.create({ destination: 'cron-group', cron: EVERY_SECOND, body: 'to all' });
    assert.equal((await client.schedules.get(scheduleId)).destination, 'cron-group');
    await reach('/cg/1', 1);
    await reach('/cg/2', 1);
    for (const d of [rx.at('/cg/1')[0], rx.at('/cg/2')[0]]) {
      assert.equal(d.verified, true, d.verifyError);
      assert.equal(d.headers['upstash-schedule-id'], scheduleId);
      assert.equal(d.headers['upstash-topic-name'], 'cron-group');
      assert.equal(d.body, 'to all');
    }
    await assert.rejects(client.urlGroups.delete('cron-group'), (e) => status(e) === 400 && /delete the schedule first/.test((e as Error).message));
    // Nor by removing its last endpoint, which deletes a group.
    await client.urlGroups.removeEndpoints({ name: 'cron-group', endpoints: [{ name: 'one' }] });
    const lastOne = { name: 'cron-group', endpoints: [{ url: `${rx.url}/cg/2` }] };
    await assert.rejects(client.urlGroups.removeEndpoints(lastOne), (e) => status(e) === 400 && /delete the schedule first/.test((e as Error).message));
    assert.deepEqual((await client.urlGroups.get('cron-group')).endpoints.map((e) => e.url), [`${rx.url}/cg/2`]);
    await client.schedules.delete(scheduleId);
    await client.urlGroups.delete('cron-group');
  });

  it('answers 400 for a bad cron and 404 for an unknown schedule or group', async () => {
    for (const cron of ['not a cron', '61 * * * *', '* * * * * * *', '* * *', 'CRON_TZ=Nowhere/Land * * * * *', '0 0 30 2 *']) {
      await assert.rejects(
        client.schedules.create({ destination: `${rx.url}/bad`, cron }),
        (e) => status(e) === 400 && (e as Error).message.includes(`invalid cron expression '${cron}'`),
        cron,
      );
    }
    await assert.rejects(client.schedules.create({ destination: 'no-such-group', cron: YEARLY }), (e) => status(e) === 404);
    await assert.rejects(client.schedules.create({ destination: 'ftp://nowhere', cron: YEARLY }), (e) => status(e) === 400);
    await assert.rejects(client.schedules.get('scd_missing'), (e) => status(e) === 404 && /schedule scd_missing not found/.test((e as Error).message));
    await assert.rejects(client.schedules.delete('scd_missing'), (e) => status(e) === 404);
    await assert.rejects(client.schedules.pause({ schedule: 'scd_missing' }), (e) => status(e) === 404);
    await assert.rejects(client.schedules.resume({ schedule: 'scd_missing' }), (e) => status(e) === 404);
    assert.ok(!(await client.schedules.list()).some((x) => x.destination === `${rx.url}/bad`));
  });
});

describe('queue schedules across a restart', () => {
  const servers = restartableServers();

  /** What a restart must keep: everything but the next time, which moves on. */
  const kept = async (client: Client) => (await client.schedules.list()).map(({ nextScheduleTime: _, ...rest }) => rest);

  // Compacting after every byte restates the schedules in a snapshot; otherwise the log is replayed.
  const ways = [
    ['replayed from the log', {}],
    ['loaded from a snapshot', { compactAfterBytes: 1 }],
  ] as const;
  for (const [how, more] of ways) {
    it(`keeps schedules, paused or not, and fires them again after the restart (${how})`, async () => {
      const config = { queue: { retryDelayScale: 0.001, ...more } };
      const first = await servers.start(config);
      const q = first.queue();
      let rx: QueueReceiver | undefined;
      try {
        rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
        const client = queueClient(q);
        await client.urlGroups.addEndpoints({ name: 'restart-group', endpoints: [{ url: `${rx.url}/rg` }] });
        const live = await client.schedules.create({ destination: `${rx.url}/live`, cron: EVERY_SECOND, body: 'live' });
        const grouped = await client.schedules.create({ destination: 'restart-group', cron: EVERY_SECOND });
        const paused = await client.schedules.create({ destination: `${rx.url}/paused`, cron: EVERY_SECOND });
        await client.schedules.pause({ schedule: paused.scheduleId });
        const gone = await client.schedules.create({ destination: `${rx.url}/gone`, cron: YEARLY });
        await client.schedules.delete(gone.scheduleId);
        const r = rx;
        // A second boundary between its creation and the pause may have fired the paused one once;
        // two live ticks after the pause that firing has arrived, and from then on none may.
        const liveAtPause = r.at('/live').length;
        await eventually(async () => r.at('/live').length >= liveAtPause + 2 && r.at('/rg').length >= 1, 'firings before the restart');
        const pausedFirings = r.at('/paused').length;
        // The paused one does not change while the others fire, so it must come back as it was.
        const pausedBefore = (await kept(client)).find((s) => s.scheduleId === paused.scheduleId);
        await servers.stop(first);
        assert.equal(await queueSnapshotTaken(first.dataDir), 'compactAfterBytes' in more);

        const second = await servers.start(config, first.dataDir);
        const client2 = queueClient(second.queue());
        const after = await kept(client2);
        assert.deepEqual(after.map((s) => [s.scheduleId, s.isPaused]).sort(), [[live.scheduleId, false], [grouped.scheduleId, false], [paused.scheduleId, true]].sort());
        assert.equal(after.find((s) => s.scheduleId === live.scheduleId)?.body, 'live');
        assert.deepEqual(after.find((s) => s.scheduleId === paused.scheduleId), pausedBefore);
        const liveCount = r.at('/live').length;
        await eventually(async () => r.at('/live').length >= liveCount + 2 && r.at('/rg').length >= 2, 'firings after the restart');
        assert.ok(r.at('/live').every((d) => d.verified && d.headers['upstash-schedule-id'] === live.scheduleId));
        assert.equal(r.at('/paused').length, pausedFirings);
        assert.equal(r.at('/gone').length, 0);
        for (const s of [live, grouped, paused]) await client2.schedules.delete(s.scheduleId);
      } finally {
        await rx?.close();
      }
    });
  }
});

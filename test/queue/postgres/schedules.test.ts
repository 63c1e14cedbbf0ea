// Three Larder processes on one PostgreSQL queue, each watching the schedules: a schedule
// every second fires once per tick, whichever process fires it. Larder takes cron with seconds
// (queue/schedules/cron.ts), so ten ticks take ten seconds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queueClient } from '../../support/queue-receiver.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { suiteFleet } from '../../support/queue-fleet.js';

const EVERY_SECOND = '* * * * * *';
const TICKS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('queue on PostgreSQL: a schedule with three processes', { skip: postgresRunSkip }, () => {
  const { fleet, ledger } = suiteFleet(3, 10);

  it(`fires a schedule every second ${TICKS} times in ${TICKS} s, once per tick`, async () => {
    // Created early in a second and deleted half-way through the tenth after it, so no tick
    // falls near either request.
    await sleep(1200 - (Date.now() % 1000));
    const { scheduleId } = await queueClient(fleet.queue(0)).schedules.create({ destination: `${ledger.url}/tick`, cron: EVERY_SECOND });
    const { createdAt } = await queueClient(fleet.queue(1)).schedules.get(scheduleId);
    const lastTick = Math.floor(createdAt / 1000) * 1000 + TICKS * 1000;
    await sleep(lastTick + 500 - Date.now());
    await queueClient(fleet.queue(2)).schedules.delete(scheduleId);
    // A firing of the last tick may still be on its way.
    await sleep(1500);
    const ticks = ledger.at('/tick');
    assert.ok(ticks.every((a) => a.answered && a.verified));
    assert.equal(new Set(ticks.map((a) => a.messageId)).size, ticks.length, 'a message delivered twice');
    assert.equal(ticks.length, TICKS, `fired at ${ticks.map((a) => a.arrivedAt - lastTick).join(', ')} ms from the last tick`);
  });
});

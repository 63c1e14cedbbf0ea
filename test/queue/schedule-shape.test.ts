// What client.schedules.get / list answer, as the SDK's own schedule tests expect of the service:
// header names in canonical form (a forwarded header under its own name), no body when there is
// none, the cron trimmed, the flow-control settings and retry delay given at creation; and a
// create with the same id replaces everything the earlier create sent.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queueSuite } from '../support/queue-receiver.js';

/** Never fires during a test run. */
const YEARLY = '0 0 1 1 *';

describe('queue schedule shape', () => {
  const { rx, client } = queueSuite();

  it('answers canonical header names, the trimmed cron, flow control and retry delay', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: `${rx.url}/shape12`,
      cron: `${YEARLY} `,
      body: JSON.stringify({ hello: 'world' }),
      headers: { 'test-header': 'test-value', 'Upstash-Forward-bypass-tunnel-reminder': 'client-test' },
      retryDelay: 'pow(2, retried) * 1000',
      flowControl: { key: 'shape12-key', parallelism: 2, rate: 5, period: 30 },
    });
    const s = await client.schedules.get(scheduleId);
    assert.equal(s.cron, YEARLY);
    assert.deepEqual(s.header, {
      'Bypass-Tunnel-Reminder': ['client-test'],
      'Content-Type': ['application/json'],
      'Test-Header': ['test-value'],
    });
    assert.equal(s.body, '{"hello":"world"}');
    assert.equal(s.retryDelayExpression, 'pow(2, retried) * 1000');
    assert.equal(s.flowControlKey, 'shape12-key');
    assert.equal(s.parallelism, 2);
    assert.equal(s.rate, 5);
    assert.equal(s.ratePerSecond, 5);
    assert.equal(s.period, 30);
    const listed = (await client.schedules.list()).find((x) => x.scheduleId === scheduleId);
    assert.deepEqual(listed?.header, s.header);
    assert.equal(listed?.flowControlKey, 'shape12-key');
    await client.schedules.delete(scheduleId);
  });

  it('has no body when none was given, and an update replaces what the SDK sends', async () => {
    const scheduleId = 'shape12-update';
    await client.schedules.create({
      scheduleId,
      destination: `${rx.url}/first12`,
      cron: YEARLY,
      body: 'my-payload',
      headers: { 'x-old': '1' },
      flowControl: { key: 'shape12-old', parallelism: 1 },
      retryDelay: '1000',
      label: 'old12',
    });
    await client.schedules.create({ scheduleId, destination: `${rx.url}/second12`, cron: YEARLY });
    const [s] = (await client.schedules.list()).filter((x) => x.scheduleId === scheduleId);
    assert.equal(s.destination, `${rx.url}/second12`);
    assert.equal(s.body, undefined);
    assert.equal(s.bodyBase64, undefined);
    assert.deepEqual(s.header, { 'Content-Type': ['application/json'] });
    assert.equal(s.flowControlKey, undefined);
    assert.equal(s.retryDelayExpression, undefined);
    assert.equal(s.labels, undefined);
    await client.schedules.delete(scheduleId);
  });
});

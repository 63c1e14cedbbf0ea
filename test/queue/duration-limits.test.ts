// The bounds on the queue's durations: Upstash-Delay and Upstash-Not-Before no further ahead
// than queue.maxDelayMs (here 7 days, the hosted free plan's), a flow-control period no longer
// either, and Upstash-Timeout no longer than a timer can wait. Absurd values (digits enough to
// overflow a double) are refused the same way, never stored as Infinity or as a lost integer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QstashError } from '@upstash/qstash';
import { suiteLarder } from '../support/larder.js';
import { queueClient } from '../support/queue-receiver.js';

const DAY_S = 86_400;
const ABSURD = '99999999999999999d';
const HUGE = '9'.repeat(400);

describe('queue duration limits', () => {
  const t = suiteLarder({ queue: { maxDelayMs: 7 * DAY_S * 1000 } });
  const DEST = 'http://127.0.0.1:9/never';

  const call = (path: string, init: RequestInit = {}) =>
    fetch(t.queue().url + path, { method: 'POST', ...init, headers: { authorization: `Bearer ${t.queue().token}`, ...(init.headers as Record<string, string>) } });
  const publish = (headers: Record<string, string>) => call(`/v2/publish/${DEST}`, { body: 'x', headers });
  const refused = async (res: Response, error: string) => {
    assert.deepEqual(await res.json(), { error, status: 400 });
    assert.equal(res.status, 400);
  };

  it('takes a delay up to queue.maxDelayMs and refuses a longer one', async () => {
    assert.equal((await publish({ 'Upstash-Delay': '7d' })).status, 200);
    assert.equal((await publish({ 'Upstash-Delay': `${7 * DAY_S}` })).status, 200);
    await refused(await publish({ 'Upstash-Delay': `${7 * DAY_S + 1}s` }), `invalid delay: '${7 * DAY_S + 1}s' is longer than the maximum of 7d`);
    await refused(await publish({ 'Upstash-Delay': ABSURD }), `invalid delay: '${ABSURD}' is longer than the maximum of 7d`);
    await refused(await publish({ 'Upstash-Delay': `${HUGE}ms` }), `invalid delay: '${HUGE}ms' is longer than the maximum of 7d`);
    await refused(await publish({ 'Upstash-Callback': DEST, 'Upstash-Callback-Delay': '8d' }), "invalid delay: '8d' is longer than the maximum of 7d");
  });

  it('refuses the SDK a delay or notBefore past the limit', async () => {
    const client = queueClient(t.queue());
    await assert.rejects(client.publish({ url: DEST, body: 'x', delay: 8 * DAY_S }), (e: Error) => e instanceof QstashError && /invalid delay: '691200s' is longer than the maximum of 7d/.test(e.message));
    const late = Math.floor(Date.now() / 1000) + 8 * DAY_S;
    await assert.rejects(client.publish({ url: DEST, body: 'x', notBefore: late }), (e: Error) => e instanceof QstashError && /is more than 7d ahead/.test(e.message));
    const soon = Math.floor(Date.now() / 1000) + 6 * DAY_S;
    assert.match((await client.publish({ url: DEST, body: 'x', notBefore: soon })).messageId, /^msg_/);
  });

  it('refuses an Upstash-Not-Before further ahead than the limit', async () => {
    const late = String(Math.floor(Date.now() / 1000) + 8 * DAY_S);
    await refused(await publish({ 'Upstash-Not-Before': late }), `invalid Upstash-Not-Before: '${late}' is more than 7d ahead`);
    await refused(await publish({ 'Upstash-Not-Before': HUGE }), `invalid Upstash-Not-Before: '${HUGE}' is more than 7d ahead`);
  });

  it('refuses a timeout longer than a timer can wait', async () => {
    assert.equal((await publish({ 'Upstash-Timeout': '24d' })).status, 200);
    await refused(await publish({ 'Upstash-Timeout': '25d' }), "invalid timeout: '25d' is longer than the maximum of 2147483647ms");
    await refused(await publish({ 'Upstash-Timeout': ABSURD }), `invalid timeout: '${ABSURD}' is longer than the maximum of 2147483647ms`);
  });

  it('refuses a flow-control period longer than the limit', async () => {
    const value = `rate=1, period=${ABSURD}`;
    await refused(await publish({ 'Upstash-Flow-Control-Key': 'dl-k', 'Upstash-Flow-Control-Value': value }), `invalid period: '${ABSURD}' is longer than the maximum of 7d`);
    await refused(await call(`/v2/flowControl/dl-k/pin?period=8d`), "invalid period: '8d' is longer than the maximum of 7d");
    await refused(await call(`/v2/flowControl/dl-k/pin?period=${HUGE}`), `invalid period: '${HUGE}' is longer than the maximum of 7d`);
  });

  it("refuses a workflow wait's timeout longer than the limit", async () => {
    const wait = (timeout: unknown) =>
      call('/v2/wait/dl-ev', { headers: { 'upstash-workflow-runid': 'wfr_none', 'content-type': 'application/json' }, body: JSON.stringify({ timeout, step: {} }) });
    await refused(await wait(ABSURD), `invalid timeout: '${ABSURD}' is longer than the maximum of 7d`);
    await refused(await wait(1e20), "invalid timeout: '100000000000000000000s' is longer than the maximum of 7d");
    await refused(await wait('1d'), 'workflow run wfr_none is not active');
  });
});

// Every publish option shows on the message (client.messages.get) and its dead letter
// (client.dlq.listMessages) under the SDK's Message names: retryDelayExpression, the flow-control
// settings (rate also as ratePerSecond, period in seconds), labels, callbacks and the timeout.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

describe('queue message options', () => {
  const { t, rx, client } = queueSuite();

  const options = {
    retryDelay: '1000 * (1 + retried)',
    flowControl: { key: 'opt11-key', parallelism: 3, rate: 7, period: '10s' as const },
    label: ['opt11-a', 'opt11-b'],
    timeout: '7s' as const,
  };

  const assertOptions = (m: Message) => {
    assert.equal(m.retryDelayExpression, '1000 * (1 + retried)');
    assert.equal(m.flowControlKey, 'opt11-key');
    assert.equal(m.parallelism, 3);
    assert.equal(m.rate, 7);
    assert.equal(m.ratePerSecond, 7);
    assert.equal(m.period, 10);
    assert.deepEqual(m.labels, ['opt11-a', 'opt11-b']);
    assert.equal(m.label, 'opt11-a');
    assert.equal((m as { timeout?: number }).timeout, 7);
  };

  it('shows every publish option on a waiting message', async () => {
    const { messageId } = await client.publish({
      ...options,
      url: `${rx.url}/opt11/later`,
      body: 'x',
      delay: 3600,
      callback: `${rx.url}/opt11/cb`,
      failureCallback: `${rx.url}/opt11/fcb`,
    });
    const m = await client.messages.get(messageId);
    assertOptions(m);
    assert.equal(m.callback, `${rx.url}/opt11/cb`);
    assert.equal(m.failureCallback, `${rx.url}/opt11/fcb`);
    await client.messages.cancel(messageId);
  });

  it('shows every publish option on a dead letter', async () => {
    rx.answer('/opt11/dead', () => ({ status: 500 }));
    const { messageId } = await client.publish({ ...options, url: `${rx.url}/opt11/dead`, body: 'x', retries: 0, failureCallback: `${rx.url}/opt11/fcb2` });
    let entry: Message | undefined;
    await eventually(async () => {
      entry = (await client.dlq.listMessages({ filter: { messageId } })).messages[0];
      return entry !== undefined;
    }, 'the dead letter');
    assertOptions(entry!);
    assert.equal(entry!.failureCallback, `${rx.url}/opt11/fcb2`);
  });

  it('refuses at publish a header no delivery could send (from a batch entry or a query setting), rather than failing every attempt', async () => {
    const batch = (headers: Record<string, string>) =>
      fetch(`${t.queue().url}/v2/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.queue().token}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ destination: `${rx.url}/opt12/never`, headers: { 'Upstash-Delay': '1h', ...headers } }]),
      });
    const refused = (name: string) => ({
      error: `invalid header to forward: '${name}' (a name is an HTTP token; a value holds no control character and no character past U+00FF)`,
      status: 400,
    });
    const cases: [Record<string, string>, string][] = [
      [{ 'Upstash-Forward-X': 'a\r\nInjected: yes' }, 'x'],
      [{ 'Upstash-Forward-X\r\nY': 'a' }, 'x\r\ny'],
      [{ 'Upstash-Forward-A B': 'a' }, 'a b'],
      [{ 'Upstash-Forward-X': 'nul\u0000' }, 'x'],
      [{ 'Upstash-Forward-X': '\u0100' }, 'x'],
      [{ 'Content-Type': 'text/plain\n' }, 'content-type'],
      [{ 'Upstash-Callback': `${rx.url}/opt12/cb`, 'Upstash-Callback-Forward-Y': 'a\rb' }, 'y'],
    ];
    for (const [headers, name] of cases) {
      const res = await batch(headers);
      assert.equal(res.status, 400, JSON.stringify(headers));
      assert.deepEqual(await res.json(), refused(name));
    }
    const viaQuery = await fetch(`${t.queue().url}/v2/publish/${rx.url}/opt12/never?upstash-forward-x=a%0Db&upstash-delay=1h`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.queue().token}` },
      body: 'x',
    });
    assert.deepEqual([viaQuery.status, await viaQuery.json()], [400, refused('x')]);
    // No more than queue.maxForwardedHeaders (2000): Bun's fetch takes time squared in their count.
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`Upstash-Forward-H${i}`, 'v']));
    const tooMany = await batch(many(2001));
    assert.deepEqual([tooMany.status, await tooMany.json()], [400, { error: '2001 headers to forward, more than the limit of 2000 (queue.maxForwardedHeaders)', status: 400 }]);
    const enough = await batch(many(2000));
    assert.equal(enough.status, 200);
    await client.messages.cancel(((await enough.json()) as { messageId: string }[])[0].messageId);
    // Latin-1 letters and tabs are fine.
    const ok = await batch({ 'Upstash-Forward-X': 'caf\u00e9\tok' });
    assert.equal(ok.status, 200);
    const [{ messageId }] = (await ok.json()) as { messageId: string }[];
    assert.equal((await client.messages.get(messageId)).header?.['X']?.[0] ?? (await client.messages.get(messageId)).header?.['x']?.[0], 'caf\u00e9\tok');
    await client.messages.cancel(messageId);
  });
});

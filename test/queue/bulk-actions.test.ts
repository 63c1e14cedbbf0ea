// Bulk actions and filters through the official @upstash/qstash Client: messages.cancel,
// dlq.delete and dlq.retry act on at most `count` items and answer a cursor while more match;
// every filter the SDK declares is exact (host, path, response status, dates, ...), and a field
// no endpoint knows (a typo) answers 400 naming it instead of widening the action to everything.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client, QstashError } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { queueSuite } from '../support/queue-receiver.js';

/** Long enough that nothing is delivered during the test. */
const LATER = 3600;

const refusal = async (p: Promise<unknown>): Promise<QstashError> => {
  try {
    await p;
  } catch (e) {
    return e as QstashError;
  }
  assert.fail('expected the call to be refused');
};

/** What a bulk call answers, with the cursor the SDK's declared type leaves out. */
type Bulk = { cancelled?: number; deleted?: number; responses?: unknown[]; cursor?: string };

describe('queue bulk actions and filters', () => {
  const { t, rx, client } = queueSuite();

  const waiting = async (label: string, n: number, url = `${rx.url}/bulk/${label}`) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push((await client.publish({ url, body: `${label} ${i}`, delay: LATER, label })).messageId);
    return out;
  };
  const pending = async (ids: string[]) => {
    let n = 0;
    for (const id of ids) n += await client.messages.get(id).then(() => 1, () => 0);
    return n;
  };
  /** `n` messages with `label` that fail at once (answered `status`) and land in the DLQ. */
  const deadLetters = async (label: string, n: number, status = 500, path = `/dead/${label}`) => {
    rx.answer(path, () => ({ status, body: 'no' }));
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await client.publish({ url: `${rx.url}${path}`, body: `${label} ${i}`, retries: 0, label })).messageId);
    await eventually(async () => {
      const dead = new Set((await dlqOf(client, label)).map((m) => m.messageId));
      return ids.every((id) => dead.has(id));
    }, `${n} dead letters labelled ${label}`);
    return ids;
  };

  it('messages.cancel with a filter ignores count (the SDK sends 100) and cancels every match in one call, with no cursor', async () => {
    const ids = await waiting('cancel9', 5);
    const other = await waiting('keep9', 1);
    assert.deepEqual(await client.messages.cancel({ filter: { label: 'cancel9' }, count: 2 } as never), { cancelled: 5 });
    assert.equal(await pending(ids), 0);
    assert.equal(await pending(other), 1);
  });

  it('messages.deleteAll cancels every waiting message, more than the 100 the SDK asks for', async () => {
    const many = await client.batch(Array.from({ length: 150 }, (_, i) => ({ url: `${rx.url}/bulk/all9`, body: String(i), delay: LATER, label: 'all9' })));
    const ids = many.map((r) => (r as { messageId: string }).messageId);
    const cancelled = await client.messages.deleteAll();
    assert.ok(cancelled >= 150, `${cancelled} cancelled`);
    assert.equal(await pending(ids), 0);
  });

  it('a bulk cancel without count (a raw call; the SDK always sends one) cancels every match', async () => {
    const many = await client.batch(Array.from({ length: 120 }, (_, i) => ({ url: `${rx.url}/bulk/nocount9`, body: String(i), delay: LATER, label: 'nocount9' })));
    const ids = many.map((r) => (r as { messageId: string }).messageId);
    const res = await fetch(`${t.queue().url}/v2/messages?label=nocount9`, { method: 'DELETE', headers: { authorization: `Bearer ${t.queue().token}` } });
    assert.deepEqual(await res.json(), { cancelled: 120 });
    assert.equal(await pending(ids.slice(0, 3)), 0);
  });

  it('dlq.delete and dlq.retry with count act on at most count entries and answer a cursor until none match', async () => {
    await deadLetters('del9', 5);
    let cursor: string | undefined;
    const deleted: number[] = [];
    do {
      const r = (await client.dlq.delete({ filter: { label: 'del9' }, count: 2, cursor })) as Bulk;
      deleted.push(r.deleted!);
      cursor = r.cursor;
    } while (cursor !== undefined);
    assert.deepEqual(deleted, [2, 2, 1]);
    assert.equal((await dlqOf(client, 'del9')).length, 0);

    await deadLetters('retry9', 3);
    rx.answer('/dead/retry9', () => ({ status: 200 }));
    const first = await client.dlq.retry({ all: true, count: 2 });
    assert.equal(first.responses.length, 2);
    assert.equal(typeof first.cursor, 'string');
    const second = await client.dlq.retry({ all: true, count: 2, cursor: first.cursor });
    assert.equal(second.responses.length, 1);
    assert.equal(second.cursor, undefined);
  });

  it('refuses a filter field it does not know with 400 naming it, and acts on nothing', async () => {
    const ids = await waiting('typo10', 2);
    const e = await refusal(client.messages.cancel({ filter: { labeel: 'typo10' } } as never));
    assert.equal(e.status, 400);
    assert.match(e.message, /'labeel'/);
    assert.equal(await pending(ids), 2);
    const d = await refusal(client.dlq.delete({ filter: { urlgroup: 'x' } } as never));
    assert.equal(d.status, 400);
    assert.match(d.message, /'urlgroup'/);
    const l = await refusal(client.logs({ filter: { stat: 'DELIVERED' } } as never));
    assert.equal(l.status, 400);
    assert.match(l.message, /'stat'/);
    // host and path are filters of messages and logs; the DLQ refuses them, as the SDK documents.
    const h = await refusal(client.dlq.listMessages({ filter: { host: '127.0.0.1' } } as never));
    assert.equal(h.status, 400);
    assert.match(h.message, /'host'/);
    await client.messages.cancel(ids);
  });

  it('a body of ids, as the API documents and older SDKs send it (deleteMany), acts on exactly those; any other body is refused and acts on nothing', async () => {
    const raw = (path: string, body: string) =>
      fetch(`${t.queue().url}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${t.queue().token}`, 'content-type': 'application/json' }, body });
    const [cancel, keep] = [await waiting('body12', 2), await waiting('body12', 1)];
    const res = await raw('/v2/messages', JSON.stringify({ messageIds: cancel }));
    assert.deepEqual(await res.json(), { cancelled: 2 });
    assert.deepEqual([await pending(cancel), await pending(keep)], [0, 1]);
    assert.deepEqual(await (await raw('/v2/messages', JSON.stringify({ messageIds: [] }))).json(), { cancelled: 0 });
    for (const bad of ['{"messageIds":5}', '{"messageIds":[1]}', '{"messageId":["x"]}', '["x"]', '{"messageIds":[],"label":"x"}']) {
      const r = await raw('/v2/messages', bad);
      assert.equal(r.status, 400, bad);
      assert.deepEqual(await r.json(), { error: 'the body names records by id only: {"messageIds": ["...", ...]}; filters go in the query', status: 400 });
    }
    assert.equal(await pending(keep), 1);

    await deadLetters('body12', 3);
    const dead = (await dlqOf(client, 'body12')).map((m) => m.dlqId);
    assert.deepEqual(await (await raw('/v2/dlq', JSON.stringify({ dlqIds: dead.slice(0, 2) }))).json(), { deleted: 2 });
    const r = await raw('/v2/dlq', '{"dlqIds":"all"}');
    assert.equal(r.status, 400);
    assert.deepEqual((await dlqOf(client, 'body12')).map((m) => m.dlqId), dead.slice(2));
    // A path that only starts like retry is no endpoint, not a retry of every dead letter.
    const typo = await fetch(`${t.queue().url}/v2/dlq/retryAll`, { method: 'POST', headers: { authorization: `Bearer ${t.queue().token}` } });
    assert.deepEqual([typo.status, await typo.json()], [404, { error: `no endpoint at /qstash/v2/dlq/retryAll`, status: 404 }]);
    assert.deepEqual((await dlqOf(client, 'body12')).map((m) => m.dlqId), dead.slice(2));
  });

  it('cancels by host (that host only), exact path (several mean either), caller IP, schedule and dates', async () => {
    const port = new URL(rx.url).port;
    const local = await waiting('host10', 1, `http://localhost:${port}/h10`);
    const loop = await waiting('host10', 1, `${rx.url}/h10`);
    assert.equal((await client.messages.cancel({ filter: { host: '127.0.0.1', label: 'host10' } })).cancelled, 1);
    assert.equal(await pending(loop), 0);
    assert.equal(await pending(local), 1);
    await client.messages.cancel(local);

    const a = await waiting('path10', 1, `${rx.url}/p10/a`);
    const ab = await waiting('path10', 1, `${rx.url}/p10/a/b`);
    const c = await waiting('path10', 1, `${rx.url}/p10/c`);
    assert.equal((await client.messages.cancel({ filter: { path: ['/p10/a', '/p10/c'] } })).cancelled, 2);
    assert.equal(await pending([...a, ...c]), 0);
    assert.equal(await pending(ab), 1);
    assert.equal((await client.messages.cancel({ filter: { callerIp: '203.0.113.9', label: 'path10' } })).cancelled, 0);
    assert.equal((await client.messages.cancel({ filter: { scheduleId: 'scd_none', label: 'path10' } })).cancelled, 0);
    const future = Date.now() + 60_000;
    assert.equal((await client.messages.cancel({ filter: { fromDate: future, label: 'path10' } })).cancelled, 0);
    assert.equal((await client.messages.cancel({ filter: { toDate: future, label: 'path10' } })).cancelled, 1);
    assert.equal(await pending(ab), 0);
  });

  it('filters the DLQ by response status, message id, caller IP and dates', async () => {
    const [m500] = await deadLetters('status10', 1, 500, '/dead/status10-500');
    const [m502] = await deadLetters('status10', 2, 502, '/dead/status10-502');
    const only502 = await client.dlq.listMessages({ filter: { label: 'status10', responseStatus: 502 } });
    assert.equal(only502.messages.length, 2);
    assert.ok(only502.messages.every((m) => m.responseStatus === 502));
    const either = await client.dlq.listMessages({ filter: { label: 'status10', responseStatus: [500, 502] } });
    assert.equal(either.messages.length, 3);
    const one = await client.dlq.listMessages({ filter: { messageId: m500 } });
    assert.deepEqual(one.messages.map((m) => m.messageId), [m500]);
    assert.equal((await client.dlq.listMessages({ filter: { label: 'status10', callerIp: '203.0.113.9' } })).messages.length, 0);
    assert.equal((await client.dlq.listMessages({ filter: { label: 'status10', fromDate: Date.now() + 60_000 } })).messages.length, 0);
    assert.equal((await client.dlq.listMessages({ filter: { label: 'status10', toDate: Date.now() + 60_000 } })).messages.length, 3);
    assert.equal((await client.dlq.delete({ filter: { label: 'status10', messageId: m502 } })).deleted, 1);
    assert.equal((await dlqOf(client, 'status10')).length, 2);
  });
});

async function dlqOf(client: Client, label: string) {
  return (await client.dlq.listMessages({ filter: { label } })).messages;
}

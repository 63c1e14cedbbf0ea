// URL groups through the official @upstash/qstash Client (client.urlGroups), and publishes to
// a group's name fanning out to every endpoint of a real local receiver that verifies each
// delivery with the SDK's Receiver. Groups are kept in the store log and survive a restart.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QstashError } from '@upstash/qstash';
import { eventually } from '../support/eventually.js';
import { queueSnapshotTaken } from '../support/queue-backend.js';
import { queueClient, queueSuite, startQueueReceiver } from '../support/queue-receiver.js';
import { restartableServers } from '../support/restarts.js';

const status = (e: unknown) => (e as QstashError).status;

describe('queue url groups', () => {
  const { rx, client } = queueSuite();

  const arrived = (path: string, n = 1) => eventually(async () => rx.at(path).length >= n, `${n} deliveries to ${path}`);

  it('keeps endpoints; a publish to the group delivers to each, signed, with its group and endpoint', async () => {
    const urls = ['a', 'b', 'c'].map((p) => `${rx.url}/fan/${p}`);
    await client.urlGroups.addEndpoints({ name: 'fan', endpoints: [{ url: urls[0], name: 'ep-a' }, { url: urls[1], name: 'ep-b' }] });
    await client.urlGroups.addEndpoints({ name: 'fan', endpoints: [{ url: urls[2] }] });
    const group = await client.urlGroups.get('fan');
    assert.equal(group.name, 'fan');
    assert.deepEqual(group.endpoints, [{ url: urls[0], name: 'ep-a' }, { url: urls[1], name: 'ep-b' }, { url: urls[2] }]);
    assert.ok(group.createdAt > 0 && group.updatedAt >= group.createdAt);
    assert.ok((await client.urlGroups.list()).some((g) => g.name === 'fan'));

    const res = await client.publishJSON({ urlGroup: 'fan', body: { hello: 'all' }, headers: { 'x-custom': 'yes' } });
    assert.ok(Array.isArray(res));
    assert.deepEqual(res.map((r) => r.url), urls);
    assert.equal(new Set(res.map((r) => r.messageId)).size, 3);
    for (const [i, p] of ['/fan/a', '/fan/b', '/fan/c'].entries()) {
      await arrived(p);
      const [d] = rx.at(p);
      assert.equal(d.verified, true, d.verifyError);
      assert.equal(d.body, '{"hello":"all"}');
      assert.equal(d.headers['x-custom'], 'yes');
      assert.equal(d.headers['upstash-topic-name'], 'fan');
      assert.equal(d.headers['upstash-message-id'], res[i].messageId);
    }
    await eventually(async () => (await client.logs({ filter: { messageId: res[0].messageId, state: 'DELIVERED' } })).logs.length === 1, 'DELIVERED log');
    const [log] = (await client.logs({ filter: { messageId: res[0].messageId, state: 'DELIVERED' } })).logs;
    assert.equal(log.urlGroup, 'fan');
    assert.equal(log.endpointName, 'ep-a');
  });

  it('names the group and the endpoint in callbacks', async () => {
    await client.urlGroups.addEndpoints({ name: 'called', endpoints: [{ url: `${rx.url}/called/one`, name: 'one' }] });
    const [res] = await client.publish({ urlGroup: 'called', body: 'x', callback: `${rx.url}/called-back` });
    await arrived('/called-back');
    const body = JSON.parse(rx.at('/called-back')[0].body);
    assert.equal(body.sourceMessageId, res.messageId);
    assert.equal(body.topicName, 'called');
    assert.equal(body.endpointName, 'one');
  });

  it('answers a batch entry for a group with an array, and one for a URL with an object', async () => {
    await client.urlGroups.addEndpoints({ name: 'batched', endpoints: [{ url: `${rx.url}/batched/1` }, { url: `${rx.url}/batched/2` }] });
    const out = (await client.batch([
      { urlGroup: 'batched', body: 'to the group' },
      { url: `${rx.url}/batched/solo`, body: 'to one' },
    ])) as unknown[];
    assert.equal(out.length, 2);
    assert.ok(Array.isArray(out[0]) && out[0].length === 2);
    assert.equal((out[1] as { url: string }).url, `${rx.url}/batched/solo`);
    await arrived('/batched/1');
    await arrived('/batched/2');
    await arrived('/batched/solo');
    assert.equal(rx.at('/batched/2')[0].body, 'to the group');
  });

  it('removes endpoints by URL or name; removing the last deletes the group', async () => {
    const urls = [1, 2, 3].map((i) => `${rx.url}/shrink/${i}`);
    await client.urlGroups.addEndpoints({ name: 'shrink', endpoints: [{ url: urls[0], name: 'one' }, { url: urls[1] }, { url: urls[2] }] });
    await client.urlGroups.removeEndpoints({ name: 'shrink', endpoints: [{ name: 'one' }, { url: urls[2] }] });
    assert.deepEqual((await client.urlGroups.get('shrink')).endpoints, [{ url: urls[1] }]);
    const res = await client.publish({ urlGroup: 'shrink', body: 'only two' });
    assert.deepEqual(res.map((r) => r.url), [urls[1]]);
    await arrived('/shrink/2');
    await client.urlGroups.removeEndpoints({ name: 'shrink', endpoints: [{ url: urls[1] }] });
    await assert.rejects(client.urlGroups.get('shrink'), (e) => status(e) === 404);
    assert.equal(rx.at('/shrink/1').length + rx.at('/shrink/3').length, 0);
  });

  // Each endpoint added or removed was once compared with every endpoint of the group: 50,000
  // in one body held the server's thread for minutes, every other request waiting behind it.
  it('adds and removes many endpoints in one call, in time linear in their number', { timeout: 60_000 }, async () => {
    const n = 100_000;
    const urls = Array.from({ length: n }, (_, i) => `http://127.0.0.1:9/many/${i}`);
    // Ends repeating the first URL under a name, then naming another endpoint with that name:
    // each replaces the one before it and goes to the end, as one at a time would.
    const endpoints = [...urls.map((url) => ({ url })), { url: urls[0], name: 'first' }, { url: urls[1], name: 'first' }];
    await client.urlGroups.addEndpoints({ name: 'many', endpoints });
    const kept = (await client.urlGroups.get('many')).endpoints;
    assert.equal(kept.length, n - 1);
    assert.deepEqual(kept.slice(0, 2), [{ url: urls[2] }, { url: urls[3] }]);
    assert.deepEqual(kept.at(-1), { url: urls[1], name: 'first' });
    await client.urlGroups.removeEndpoints({ name: 'many', endpoints: [...urls.slice(3).map((url) => ({ url })), { name: 'first' }] });
    assert.deepEqual((await client.urlGroups.get('many')).endpoints, [{ url: urls[2] }]);
    await client.urlGroups.delete('many');
  });

  it('deletes a group', async () => {
    await client.urlGroups.addEndpoints({ name: 'doomed', endpoints: [{ url: `${rx.url}/doomed` }] });
    await client.urlGroups.delete('doomed');
    assert.ok(!(await client.urlGroups.list()).some((g) => g.name === 'doomed'));
    await assert.rejects(client.publish({ urlGroup: 'doomed', body: 'x' }), (e) => status(e) === 404);
  });

  it('answers 404 for an unknown group and 400 for bad endpoints or names', async () => {
    await assert.rejects(client.publish({ urlGroup: 'no-such-group', body: 'x' }), (e) => status(e) === 404 && /url group 'no-such-group' not found/.test((e as Error).message));
    await assert.rejects(client.batch([{ urlGroup: 'no-such-group', body: 'x' }]), (e) => status(e) === 404);
    await assert.rejects(client.urlGroups.get('no-such-group'), (e) => status(e) === 404);
    await assert.rejects(client.urlGroups.delete('no-such-group'), (e) => status(e) === 404);
    await assert.rejects(client.urlGroups.removeEndpoints({ name: 'no-such-group', endpoints: [{ url: `${rx.url}/x` }] }), (e) => status(e) === 404);
    await assert.rejects(client.urlGroups.addEndpoints({ name: 'bad', endpoints: [{ url: 'not a url' }] }), (e) => status(e) === 400);
    await assert.rejects(client.urlGroups.addEndpoints({ name: 'bad', endpoints: [] }), (e) => status(e) === 400);
    await assert.rejects(client.urlGroups.addEndpoints({ name: 'bad name!', endpoints: [{ url: `${rx.url}/x` }] }), (e) => status(e) === 400);
    assert.ok(!(await client.urlGroups.list()).some((g) => g.name === 'bad'));
  });
});

describe('queue url groups across a restart', () => {
  const servers = restartableServers();

  // Compacting after every byte restates the groups in a snapshot; otherwise the log is replayed.
  const ways = [
    ['replayed from the log', {}],
    ['loaded from a snapshot', { compactAfterBytes: 1 }],
  ] as const;
  for (const [how, more] of ways) {
    it(`keeps groups and their endpoints, and fans out after the restart (${how})`, async () => {
      const config = { queue: { retryDelayScale: 0.001, ...more } };
      const first = await servers.start(config);
      const q = first.queue();
      const rx = await startQueueReceiver({ current: q.currentSigningKey, next: q.nextSigningKey });
      try {
        const client = queueClient(q);
        await client.urlGroups.addEndpoints({ name: 'kept', endpoints: [{ url: `${rx.url}/kept/1`, name: 'first' }, { url: `${rx.url}/kept/2` }, { url: `${rx.url}/kept/3` }] });
        await client.urlGroups.removeEndpoints({ name: 'kept', endpoints: [{ url: `${rx.url}/kept/3` }] });
        await client.urlGroups.addEndpoints({ name: 'gone', endpoints: [{ url: `${rx.url}/gone` }] });
        await client.urlGroups.delete('gone');
        const before = await client.urlGroups.list();
        await servers.stop(first);
        assert.equal(await queueSnapshotTaken(first.dataDir), 'compactAfterBytes' in more);

        const second = await servers.start(config, first.dataDir);
        const client2 = queueClient(second.queue());
        assert.deepEqual(await client2.urlGroups.list(), before);
        assert.deepEqual(before.map((g) => g.name), ['kept']);
        await client2.publish({ urlGroup: 'kept', body: 'after' });
        await eventually(async () => rx.at('/kept/1').length === 1 && rx.at('/kept/2').length === 1, 'both endpoints');
        assert.ok(rx.deliveries.every((d) => d.verified));
      } finally {
        await rx.close();
      }
    });
  }
});

// Search indexes over a stream (`dataType: 'stream'`, SEARCH.CREATE ... ON STREAM key), as
// Upstash's "Searching Streams" page describes them, through the official SDK: each entry is a
// document whose key is its id, the index follows XADD, XDEL, XTRIM, trimming XADDs, DEL and
// expiry, and a stream made again under the key is indexed again.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { s } from '@upstash/redis';
import { embeddedOnly } from '../../support/larder.js';
import { suiteSdk } from '../../support/sdk.js';

const schema = s.object({
  message: s.string(),
  service: s.keyword(),
  severity: s.number('U64'),
  occurredAt: s.date().fast(),
});

const only = embeddedOnly('SEARCH.* needs the embedded engine');

describe('search indexes over a stream, through the SDK', () => {
  const { t, redis } = suiteSdk({ autoPipeline: false });

  only('indexes each entry as a document named by its id, before and after the stream exists', async () => {
    const index = await redis.search.createIndex({ name: 'event-search', dataType: 'stream', stream: 'events', schema });
    assert.deepEqual(await index.describe(), {
      name: 'event-search',
      dataType: 'stream',
      prefixes: ['events'],
      language: 'english',
      schema: {
        message: { type: 'TEXT' },
        service: { type: 'KEYWORD' },
        severity: { type: 'U64', fast: true },
        occurredAt: { type: 'DATE', fast: true },
      },
    });
    await redis.xadd('events', '1-0', { message: 'Payment authorization failed', service: 'checkout', severity: 4, occurredAt: '2026-08-24T09:30:00Z' });
    await redis.xadd('events', '2-0', { message: 'Order completed', service: 'checkout', severity: 1, occurredAt: '2026-08-24T09:31:00Z' });
    assert.equal(await index.waitIndexing(), 1);

    const found = await index.query({ filter: { message: 'authorization', severity: { $gte: 3 } }, select: { message: true, service: true, severity: true } });
    // (The SDK parses each value it can as JSON: the reply holds the stream's strings, below.)
    assert.deepEqual(found.map((r) => [r.key, r.data]), [['1-0', { message: 'Payment authorization failed', service: 'checkout', severity: 4 }]]);
    const raw = await t.ok(['search.query', 'event-search', '{"severity":{"$gte":3}}', 'SELECT', '2', 'severity', 'occurredAt']);
    assert.deepEqual(raw, [['1-0', raw[0][1], [['severity', '4'], ['occurredAt', '2026-08-24T09:30:00Z']]]]);
    const whole = await index.query({ filter: { service: 'checkout' }, orderBy: { occurredAt: 'DESC' } });
    assert.deepEqual(whole.map((r) => r.key), ['2-0', '1-0']);
    assert.deepEqual(whole[0].data, { message: 'Order completed', service: 'checkout', severity: 1, occurredAt: '2026-08-24T09:31:00Z' });

    // A JSON array gives a field several values; the content keeps the text as stored.
    await redis.xadd('events', '3-0', { message: 'Payment retried', service: '["checkout","payments"]', severity: 2 });
    const payments = await t.ok(['search.query', 'event-search', '{"service":"payments"}', 'SELECT', '1', 'service']);
    assert.deepEqual(payments, [['3-0', payments[0][1], [['service', '["checkout","payments"]']]]]);
    // An entry with no usable schema field is no document; other fields are not searchable.
    await redis.xadd('events', '4-0', { note: 'nothing indexed', severity: 'high' });
    assert.deepEqual(await index.count({ filter: {} }), { count: 3 });
    const perService = await index.aggregate({ filter: {}, aggregations: { bySeverity: { $stats: { field: 'severity' } } } });
    assert.deepEqual(perService.bySeverity, { count: 3, min: 1, max: 4, sum: 7, avg: 7 / 3 });
  });

  only('follows deletions, trims, DEL and expiry, and a stream made again', async () => {
    const index = await redis.search.createIndex({ name: 'log-search', dataType: 'stream', stream: 'log', schema });
    const keys = async () => (await index.query({ filter: {}, select: {}, limit: 100 })).map((r) => r.key).sort();
    for (let i = 1; i <= 6; i++) await redis.xadd('log', `${i}-0`, { message: `line ${i}`, severity: i });
    assert.deepEqual(await keys(), ['1-0', '2-0', '3-0', '4-0', '5-0', '6-0']);
    await redis.xdel('log', '3-0');
    assert.deepEqual(await keys(), ['1-0', '2-0', '4-0', '5-0', '6-0']);
    await redis.xtrim('log', { strategy: 'MAXLEN', threshold: 3 });
    assert.deepEqual(await keys(), ['4-0', '5-0', '6-0']);
    await redis.xadd('log', '7-0', { message: 'line 7', severity: 7 }, { trim: { type: 'MAXLEN', threshold: 2, comparison: '=' } });
    assert.deepEqual(await keys(), ['6-0', '7-0']);
    await redis.xtrim('log', { strategy: 'MINID', threshold: '7-0' });
    assert.deepEqual(await keys(), ['7-0']);

    // DEL empties the index and keeps it; a stream made again is indexed again, from lower ids too.
    await redis.del('log');
    assert.deepEqual(await keys(), []);
    assert.notEqual(await index.describe(), null);
    await redis.xadd('log', '1-0', { message: 'again', severity: 1 });
    assert.deepEqual(await index.query({ filter: { message: 'again' }, select: {} }), [{ key: '1-0', score: (await index.query({ filter: { message: 'again' }, select: {} }))[0].score }]);

    // The key's expiry takes its documents out.
    await redis.pexpire('log', 50);
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(await index.count({ filter: {} }), { count: 0 });

    // A value of another type under the key is no stream: nothing to index.
    await redis.set('log', 'text');
    assert.deepEqual(await index.count({ filter: {} }), { count: 0 });
    await redis.del('log');
  });

  only('SKIPINITIALSCAN leaves the entries present out until SEARCH.REINDEX; FROM renames a field', async () => {
    await redis.xadd('audit', '1-0', { message: 'old entry', severity: 1 });
    await t.ok(['search.create', 'audit-search', 'SKIPINITIALSCAN', 'ON', 'STREAM', 'audit', 'SCHEMA', 'description', 'TEXT', 'FROM', 'message', 'severity', 'U64', 'FAST']);
    await redis.xadd('audit', '2-0', { message: 'new entry', severity: 2 });
    const index = redis.search.index({ name: 'audit-search' });
    const keys = async () => (await index.query({ filter: { description: 'entry' }, select: {} })).map((r) => r.key).sort();
    assert.deepEqual(await keys(), ['2-0']);
    // Queries use the schema's name, SELECT and the content the stream's own.
    const shown = await t.ok(['search.query', 'audit-search', '{"description":"new"}', 'SELECT', '1', 'message']);
    assert.deepEqual(shown, [['2-0', (shown as [string, string][])[0][1], [['message', 'new entry']]]]);
    assert.equal(await t.ok(['search.reindex', 'audit-search']), 1);
    assert.deepEqual(await keys(), ['1-0', '2-0']);
  });

  only('binds a stream to one index, and refuses PREFIX for a stream index', async () => {
    await t.ok(['search.create', 'first', 'ON', 'STREAM', 'shared', 'SCHEMA', 'message', 'TEXT']);
    const second = await t.command(['search.create', 'second', 'ON', 'STREAM', 'shared', 'SCHEMA', 'message', 'TEXT']);
    assert.equal(second.status, 400);
    assert.match(second.body.error ?? '', /^ERR Stream shared is already indexed by first/);
    const prefixed = await t.command(['search.create', 'third', 'ON', 'STREAM', 'other', 'PREFIX', '1', 'x', 'SCHEMA', 'message', 'TEXT']);
    assert.match(prefixed.body.error ?? '', /^ERR PREFIX is not supported for stream indexes/);
    // Once the first is dropped, another may take the stream.
    await t.ok(['search.drop', 'first']);
    assert.equal(await t.ok(['search.create', 'second', 'ON', 'STREAM', 'shared', 'SCHEMA', 'message', 'TEXT']), 1);
  });
});

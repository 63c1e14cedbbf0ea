// SEARCH.REINDEX and SKIPINITIALSCAN over HTTP: an index created with SKIPINITIALSCAN leaves
// the keys that existed before it out until they are written again or the index is rebuilt;
// REINDEX rebuilds it from the current keys (by name or alias). Read-only tokens may
// aggregate, not reindex.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

describe('SEARCH.REINDEX', () => {
  const t = suiteLarder();
  const { reply, fails } = replies(() => t);
  const keys = async (index: string) => ((await t.ok(['search.query', index, '{}', 'NOCONTENT'])) as [string, string][]).map((r) => r[0]);

  embeddedOnly('SEARCH.* needs the embedded engine')('SKIPINITIALSCAN skips existing keys until written; REINDEX takes them all', async () => {
    await t.ok(['hset', 'u:1', 'name', 'ada']);
    await t.ok(['hset', 'u:2', 'name', 'bob']);
    await reply(['search.create', 'users', 'SKIPINITIALSCAN', 'ON', 'HASH', 'PREFIX', '1', 'u:', 'SCHEMA', 'name', 'TEXT'], 1);
    await t.ok(['hset', 'u:3', 'name', 'cy']);
    assert.deepEqual(await keys('users'), ['u:3']);
    await t.ok(['hset', 'u:1', 'age', '3']); // written again: indexed from now on
    assert.deepEqual(await keys('users'), ['u:1', 'u:3']);
    await reply(['search.aliasadd', 'people', 'users'], 1);
    await reply(['search.reindex', 'people'], 1);
    assert.deepEqual(await keys('users'), ['u:1', 'u:2', 'u:3']);
    await reply(['search.reindex', 'nobody'], 0);
    await fails(['search.reindex'], "ERR wrong number of arguments for 'search.reindex' command");
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('REINDEX re-reads every key: the index equals a fresh one', async () => {
    await t.ok(['json.set', 'd:1', '$', '{"n":1}']);
    await reply(['search.create', 'docs', 'ON', 'JSON', 'PREFIX', '1', 'd:', 'SCHEMA', 'n', 'U64', 'FAST'], 1);
    await t.ok(['json.set', 'd:2', '$', '{"n":2}']);
    await t.ok(['del', 'd:1']);
    await reply(['search.reindex', 'docs'], 1);
    assert.deepEqual(await keys('docs'), ['d:2']);
    await reply(['search.aggregate', 'docs', '{}', '{"s":{"$sum":{"field":"n"}}}'], ['s', ['value', 2]]);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('a read-only token may aggregate, not reindex', async () => {
    await t.ok(['search.create', 'ro', 'ON', 'JSON', 'PREFIX', '1', 'ro:', 'SCHEMA', 'n', 'F64', 'FAST']);
    const asReader = (argv: string[]) => t.command(argv, { token: t.readOnlyToken });
    assert.deepEqual(await asReader(['search.aggregate', 'ro', '{}', '{"n":{"$count":{"field":"n"}}}']), { status: 200, body: { result: ['n', ['value', 0]] } });
    const { status, body } = await asReader(['search.reindex', 'ro']);
    assert.equal(status, 400);
    assert.match(body.error, /NOPERM|READONLY|read.?only/i);
  });
});

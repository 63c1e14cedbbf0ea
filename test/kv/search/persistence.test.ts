// Search index definitions survive a restart, whether replayed from the log or loaded from a
// snapshot, and the indexes are rebuilt from the keys, writes made after the definition included.
// An index created with SKIPINITIALSCAN comes back without the keys it skipped (film:1), as it was;
// a stream index with its entries, less those deleted and those it skipped (1-0).

import assert from 'node:assert/strict';
import { after, describe } from 'node:test';
import type { TestLarder } from '../../support/larder.js';
import { embeddedOnly } from '../../support/larder.js';
import { RESTART_WAYS, restartWith } from '../../support/restarts.js';

const WRITES = [
  ['json.set', 'book:1', '$', '{"title":"The Dark Forest","year":1969}'],
  ['search.create', 'books', 'ON', 'JSON', 'PREFIX', '1', 'book:', 'SCHEMA', 'title', 'TEXT', 'year', 'U64', 'FAST'],
  ['hset', 'film:1', 'title', 'Dark City'],
  ['search.create', 'films', 'EXISTSOK', 'ON', 'HASH', 'PREFIX', '1', 'film:', 'SKIPINITIALSCAN', 'SCHEMA', 'title', 'TEXT'],
  ['hset', 'film:2', 'title', 'The Dark Knight'],
  ['json.set', 'book:2', '$', '{"title":"A Dark Room","year":1994}'],
  ['search.create', 'gone', 'ON', 'STRING', 'PREFIX', '1', 'g:', 'SCHEMA', 'a', 'TEXT'],
  ['search.drop', 'gone'],
  ['json.set', 'book:3', '$', '{"title":"Bright","year":2001}'],
  ['del', 'book:3'],
  ['search.aliasadd', 'library', 'books'],
  ['search.aliasadd', 'dangling', 'nothing'],
  ['search.aliasadd', 'old', 'films'],
  ['search.aliasdel', 'old'],
  ['xadd', 'events', '1-0', 'message', 'dark start'],
  ['search.create', 'event-search', 'SKIPINITIALSCAN', 'ON', 'STREAM', 'events', 'SCHEMA', 'message', 'TEXT'],
  ['xadd', 'events', '2-0', 'message', 'dark middle'],
  ['xadd', 'events', '3-0', 'message', 'dark end'],
  ['xdel', 'events', '2-0'],
];

async function state(t: TestLarder): Promise<unknown> {
  return {
    list: await t.ok(['search.listindexes']),
    books: await t.ok(['search.describe', 'books']),
    films: await t.ok(['search.describe', 'films']),
    dark: await t.ok(['search.query', 'books', '{"title":"dark"}', 'ORDERBY', 'year', 'DESC', 'NOCONTENT']),
    all: await t.ok(['search.count', 'books', '{}']),
    filmKeys: await t.ok(['search.query', 'films', '{}', 'NOCONTENT']),
    aliases: await t.ok(['search.listaliases']),
    viaAlias: await t.ok(['search.count', 'library', '{}']),
    events: await t.ok(['search.describe', 'event-search']),
    eventIds: await t.ok(['search.query', 'event-search', '{"message":"dark"}', 'NOCONTENT']),
  };
}

describe('search indexes across restarts', () => {
  const open: TestLarder[] = [];
  after(async () => Promise.all(open.map((t) => t.close())));

  for (const way of RESTART_WAYS) {
    embeddedOnly('a restart of Larder: the data is the Redis server\'s')(`keeps definitions and rebuilds indexes, ${way.how}`, async () => {
      const { server, before } = await restartWith(way, WRITES, state);
      open.push(server);
      const seen = before as { list: unknown; dark: [string, string][]; all: number; filmKeys: [string, string][]; eventIds: [string, string][] };
      assert.deepEqual(seen.list, [['name', 'books', 'type', 'JSON'], ['name', 'event-search', 'type', 'STREAM'], ['name', 'films', 'type', 'HASH']]);
      assert.deepEqual(seen.eventIds.map((r) => r[0]), ['3-0']);
      assert.deepEqual(seen.dark.map((r) => r[0]), ['book:2', 'book:1']);
      assert.equal(seen.all, 2);
      assert.deepEqual(seen.filmKeys.map((r) => r[0]), ['film:2']);
      assert.deepEqual(before, { ...seen, aliases: [['dangling', 'nothing'], ['library', 'books']], viaAlias: 2 });
      // Writes after the restart still reach the index.
      await server.ok(['hset', 'film:3', 'title', 'Dark Water']);
      assert.equal(await server.ok(['search.count', 'films', '{"title":"dark"}']), 2);
      // SEARCH.REINDEX takes the skipped keys in.
      assert.equal(await server.ok(['search.reindex', 'films']), 1);
      assert.equal(await server.ok(['search.count', 'films', '{"title":"dark"}']), 3);
      await server.ok(['xadd', 'events', '4-0', 'message', 'dark again']);
      assert.equal(await server.ok(['search.reindex', 'event-search']), 1);
      assert.deepEqual((await server.ok(['search.query', 'event-search', '{"message":"dark"}', 'NOCONTENT'])).map((r: string[]) => r[0]).sort(), ['1-0', '3-0', '4-0']);
    });
  }
});

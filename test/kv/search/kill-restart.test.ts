// Search indexes after kill -9 under `fsync: always`: definitions and aliases come back, the
// indexes are rebuilt from the keys (part from a snapshot, part from the log after it) and
// answer queries, counts and aggregations as before; an index created with SKIPINITIALSCAN
// still leaves out the keys it skipped; the log says how long the rebuild took.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { spawnLarder } from '../../support/larder-process.js';
import { embeddedOnly, kvClient, type KvClient } from '../../support/larder.js';

type Argv = (string | number)[];

function writes(): Argv[] {
  const cmds: Argv[] = [
    ['HSET', 'old:1', 'title', 'dark early'],
    ['SEARCH.CREATE', 'late', 'SKIPINITIALSCAN', 'ON', 'HASH', 'PREFIX', 1, 'old:', 'SCHEMA', 'title', 'TEXT'],
    ['HSET', 'old:2', 'title', 'dark later'],
    ['SEARCH.CREATE', 'books', 'ON', 'JSON', 'PREFIX', 1, 'book:', 'SCHEMA', 'title', 'TEXT', 'year', 'U64', 'FAST', 'genre', 'KEYWORD', 'FAST'],
    ['SEARCH.ALIASADD', 'library', 'books'],
  ];
  // Enough documents and churn to compact the log several times.
  for (let i = 0; i < 60; i++) {
    cmds.push(['JSON.SET', `book:${i}`, '$', JSON.stringify({ title: `${i % 3 === 0 ? 'dark' : 'bright'} tale ${'x'.repeat(200)}`, year: 1950 + i, genre: `g${i % 4}` })]);
    if (i % 5 === 4) cmds.push(['DEL', `book:${i - 2}`]);
  }
  cmds.push(['SEARCH.ALIASADD', 'shelf', 'late'], ['HSET', 'old:3', 'title', 'dark last']);
  return cmds;
}

async function state(client: KvClient): Promise<unknown> {
  return {
    list: await client.ok(['SEARCH.LISTINDEXES']),
    aliases: await client.ok(['SEARCH.LISTALIASES']),
    describe: await client.ok(['SEARCH.DESCRIBE', 'library']),
    dark: await client.ok(['SEARCH.QUERY', 'library', '{"title":"dark"}', 'ORDERBY', 'year', 'DESC', 'NOCONTENT', 'LIMIT', 100]),
    count: await client.ok(['SEARCH.COUNT', 'books', '{}']),
    genres: await client.ok(['SEARCH.AGGREGATE', 'books', '{}', '{"g":{"$terms":{"field":"genre"},"$aggs":{"y":{"$avg":{"field":"year"}}}}}']),
    late: await client.ok(['SEARCH.QUERY', 'shelf', '{"title":"dark"}', 'NOCONTENT']),
  };
}

async function connect(dataDir: string) {
  const config = { logLevel: 'info', kv: { fsync: 'always', compactAfterBytes: 8192 } };
  const p = await spawnLarder({ config, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('search indexes after kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-search-kill-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  embeddedOnly('a restart of Larder: the data is the Redis server\'s')('keeps definitions, aliases and SKIPINITIALSCAN; the rebuilt indexes answer as before', async () => {
    const { p, client } = await connect(dataDir);
    const res = await client.request('/pipeline', { method: 'POST', body: JSON.stringify(writes()) });
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { error?: string }[]).filter((r) => r.error !== undefined), []);
    const before = (await state(client)) as { count: number; late: [string, string][]; dark: unknown[] };
    assert.equal(before.count, 48);
    assert.deepEqual(before.late.map((r) => r[0]).sort(), ['old:2', 'old:3']);
    assert.ok(readdirSync(join(dataDir, 'kv', 'default')).some((f) => f.startsWith('snapshot-')), 'the log was compacted');
    p.kill('SIGKILL');
    assert.equal((await p.exited).signal, 'SIGKILL');

    const restarted = await connect(dataDir);
    try {
      assert.deepEqual(await state(restarted.client), before);
      const rebuilt = restarted.p.stderr().split('\n').filter((line) => line.includes('kv search indexes rebuilt'));
      assert.equal(rebuilt.length, 1, restarted.p.stderr());
      const logged = JSON.parse(rebuilt[0]) as { indexes: number; ms: number };
      assert.equal(logged.indexes, 2);
      assert.equal(typeof logged.ms, 'number');
      // Writes go on reaching the index after the restart.
      await restarted.client.ok(['JSON.SET', 'book:100', '$', '{"title":"dark new","year":2100,"genre":"g9"}']);
      assert.equal(await restarted.client.ok(['SEARCH.COUNT', 'library', '{"title":"dark"}']), before.dark.length + 1);
    } finally {
      await restarted.p.stop('SIGTERM');
    }
  });
});

// On a database whose engine is a remote Redis, every SEARCH.* is refused with one error saying
// it needs the embedded engine: plain Redis has no SEARCH.*, and Larder does not forward them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';
import { startTestLarder, type KvClient, type TestLarder } from '../../support/larder.js';

const REDIS = findRedisServer();

describe('SEARCH.* on engine: redis', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  let redis: RedisServer;
  let t: TestLarder;
  let db: KvClient;
  before(async () => {
    redis = await startRedisServer(REDIS!);
    t = await startTestLarder({ kv: { databases: { default: {}, remote: { url: `redis://127.0.0.1:${redis.port}` } } } });
    db = t.database('remote');
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('refuses every SEARCH.* command with the same error', async () => {
    const commands = [...TABLE.values()].filter((c) => c.name.startsWith('search.'));
    assert.ok(commands.length >= 6, commands.map((c) => c.name).join(' '));
    for (const { name, arity } of commands) {
      // As many arguments as the command takes (arity counts the name): admission checks arity first.
      const argv = [name.toUpperCase(), 'idx', '{}', 'ON', 'JSON', 'PREFIX', '1', 'p'].slice(0, Math.abs(arity));
      assert.deepEqual(await db.command(argv), {
        status: 400,
        body: { error: `ERR ${name.toUpperCase()} needs Larder's embedded engine; this database uses engine: redis` },
      }, name);
    }
    // Inside a pipeline too.
    const res = await db.request('/pipeline', { method: 'POST', body: JSON.stringify([['search.listindexes'], ['ping']]) });
    assert.deepEqual(await res.json(), [{ error: "ERR SEARCH.LISTINDEXES needs Larder's embedded engine; this database uses engine: redis" }, { result: 'PONG' }]);
  });
});

// GEO values survive a restart: they are sorted sets scored by geohash, replayed from the log
// (GEOADD, GEOSEARCHSTORE and GEORADIUS ... STORE recompute the same scores) or loaded from a
// snapshot, with their TTLs; DUMP and RESTORE carry them. Searches that store nothing, and
// GEORADIUS without STORE (a write command in Redis), are not logged.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { pathBytes, startTestLarder, type TestLarder } from '../../support/larder.js';
import { loggedCommands, RESTART_WAYS, restartWith } from '../../support/restarts.js';

const EXPIRES_AT = 4102444800000;
const WRITES: (string | number)[][] = [
  ['geoadd', 'Sicily', 13.361389, 38.115556, 'Palermo', 15.087269, 37.502669, 'Catania', 180, 0, 'edge'],
  ['geoadd', 'bin', 1, 2, 'a\u0000b', -179.5, -85, '\u00e9'],
  ['geosearchstore', 'near', 'Sicily', 'FROMLONLAT', 15, 37, 'BYRADIUS', 200, 'km', 'STOREDIST'],
  ['georadius', 'Sicily', 15, 37, 200, 'km', 'STORE', 'stored'],
  ['pexpireat', 'stored', EXPIRES_AT],
];
const KEYS = ['Sicily', 'bin', 'near', 'stored'];

async function state(t: TestLarder): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const key of KEYS) out.push((await t.command(['zrange', key, 0, -1, 'withscores'])).body.result);
  out.push((await t.command(['geopos', 'Sicily', 'Palermo', 'edge'])).body.result);
  out.push((await t.command(['geopos', 'bin', 'a\u0000b', '\u00e9'])).body.result);
  return out;
}

describe('geo values across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const way of RESTART_WAYS) {
    it(`come back the same, ${way.how}`, async () => {
      const { server, before } = await restartWith(way, WRITES, state);
      try {
        assert.deepEqual(before[2], ['Catania', '56.441257870158204', 'Palermo', '190.44242984775784']);
        assert.equal(await server.ok(['pexpiretime', 'stored']), EXPIRES_AT);
      } finally {
        await server.close();
      }
    });
  }

  it('logs only searches that store something', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    for (const argv of [
      ['geoadd', 'g', 1, 1, 'a'],
      ['geoadd', 'g', 1, 1, 'a'], //                                     same position
      ['geoadd', 'g', 'xx', 2, 2, 'b'],
      ['georadius', 'g', 1, 1, 10, 'km'], //                             no STORE
      ['georadiusbymember', 'none', 'a', 10, 'km', 'STORE', 'dst'], //   no source, no destination
      ['geosearchstore', 'dst', 'g', 'FROMLONLAT', 50, 50, 'BYRADIUS', 1, 'm'],
      ['geosearchstore', 'dst', 'g', 'FROMMEMBER', 'a', 'BYRADIUS', 1, 'm'],
    ]) {
      assert.equal((await t.command(argv)).status, 200, argv.join(' '));
    }
    await t.close(true);
    assert.deepEqual(loggedCommands(t.dataDir), [
      ['geoadd', 'g', '1', '1', 'a'],
      ['geosearchstore', 'dst', 'g', 'FROMMEMBER', 'a', 'BYRADIUS', '1', 'm'],
    ]);
  });

  it('DUMP and RESTORE carry a geo set', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    try {
      await t.command(['geoadd', 'src', 13.361389, 38.115556, 'Palermo', 180, 85.05112878, 'corner']);
      const dump = (await t.command(['dump', 'src'], { headers: { 'upstash-encoding': 'base64' } })).body.result;
      const payload = Buffer.from(dump, 'base64').toString('latin1');
      // The payload travels as bytes: the path form carries them percent-encoded.
      const res = await t.request(`/restore/dst/0/${pathBytes(payload)}`);
      assert.deepEqual(await res.json(), { result: 'OK' });
      const read = async (key: string) => (await t.command(['geopos', key, 'Palermo', 'corner'])).body.result;
      assert.deepEqual(await read('dst'), await read('src'));
      assert.deepEqual(await read('dst'), [['13.36138933897018433', '38.11555639549629859'], ['180', '85.0511287799999991']]);
    } finally {
      await t.close();
    }
  });
});

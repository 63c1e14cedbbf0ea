// The GEO commands as the official @upstash/redis SDK calls them, with auto-pipelining off and
// on. Expected numbers are redis-server 7.0.15's replies, as the SDK parses them: GEOPOS and
// GEOSEARCH coordinates and distances through parseFloat, other texts as JSON when that reads
// back the same text (so "545518.8700" stays a string, as against Upstash).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from '@upstash/redis';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient } from '../../support/sdk.js';

const PALERMO = { longitude: 13.361389, latitude: 38.115556, member: 'Palermo' };
const CATANIA = { longitude: 15.087269, latitude: 37.502669, member: 'Catania' };

for (const mode of PIPELINE_MODES) {
  describe(`geo commands through the SDK (${mode.name})`, () => {
    let t: TestLarder;
    let redis: Redis;
    before(async () => {
      t = await startTestLarder();
      redis = sdkClient(t, { autoPipeline: mode.autoPipeline });
    });
    after(() => t.close());

    it('geoadd with nx, xx and ch', async () => {
      assert.equal(await redis.geoadd('Sicily', PALERMO, CATANIA), 2);
      assert.equal(await redis.geoadd('Sicily', { xx: true, ch: true }, { ...PALERMO, longitude: 13.5 }), 1);
      assert.equal(await redis.geoadd('Sicily', { nx: true }, PALERMO, { longitude: 12.758489, latitude: 38.788135, member: 'edge1' }), 1);
      assert.equal(await redis.geoadd('Sicily', { ch: true }, PALERMO), 1);
      await redis.set('str', 'v');
      await assert.rejects(redis.geoadd('str', PALERMO), /WRONGTYPE/);
    });

    it('geopos, geodist and geohash', async () => {
      assert.deepEqual(await redis.geopos('Sicily', 'Palermo', 'nope', 'Catania'), [
        { lng: 13.36138933897018433, lat: 38.11555639549629859 },
        { lng: 15.08726745843887329, lat: 37.50266842333162032 },
      ]);
      assert.equal(await redis.geodist('Sicily', 'Palermo', 'Catania'), 166274.1516);
      assert.equal(await redis.geodist('Sicily', 'Palermo', 'Catania', 'KM'), 166.2742);
      assert.equal(await redis.geodist('Sicily', 'Palermo', 'Catania', 'MI'), 103.3182);
      assert.equal(await redis.geodist('Sicily', 'Palermo', 'Catania', 'FT'), '545518.8700'); // does not read back the same as a number
      assert.equal(await redis.geodist('Sicily', 'Palermo', 'nope'), null);
      assert.deepEqual(await redis.geohash('Sicily', 'Palermo', 'Catania', 'nope'), ['sqc8b49rny0', 'sqdtr74hyu0', null]);
    });

    it('geosearch from a point and from a member, by radius and by box', async () => {
      const center = { type: 'FROMLONLAT' as const, coordinate: { lon: 15, lat: 37 } };
      assert.deepEqual(
        await redis.geosearch('Sicily', center, { type: 'BYRADIUS', radius: 200, radiusType: 'KM' }, 'ASC', {
          withCoord: true,
          withDist: true,
          withHash: true,
        }),
        [
          { member: 'Catania', dist: 56.4413, hash: '3479447370796909', coord: { long: 15.08726745843887329, lat: 37.50266842333162032 } },
          { member: 'Palermo', dist: 190.4424, hash: '3479099956230698', coord: { long: 13.36138933897018433, lat: 38.11555639549629859 } },
        ],
      );
      assert.deepEqual(
        await redis.geosearch('Sicily', center, { type: 'BYBOX', rect: { width: 400, height: 400 }, rectType: 'KM' }, 'DESC', {
          count: { limit: 2 },
        }),
        [{ member: 'edge1' }, { member: 'Palermo' }],
      );
      assert.deepEqual(
        await redis.geosearch('Sicily', { type: 'FROMMEMBER', member: 'Palermo' }, { type: 'BYRADIUS', radius: 100, radiusType: 'KM' }, 'ASC', {
          withDist: true,
        }),
        [
          { member: 'Palermo', dist: 0 },
          { member: 'edge1', dist: 91.4007 },
        ],
      );
      assert.deepEqual(
        await redis.geosearch('nokey', center, { type: 'BYRADIUS', radius: 1, radiusType: 'M' }, 'ASC'),
        [],
      );
    });

    it('geosearchstore, with and without storeDist', async () => {
      const center = { type: 'FROMLONLAT' as const, coordinate: { lon: 15, lat: 37 } };
      const shape = { type: 'BYRADIUS' as const, radius: 200, radiusType: 'KM' as const };
      assert.equal(await redis.geosearchstore('{Sicily}dst', 'Sicily', center, shape, 'ASC', { storeDist: true }), 2);
      assert.deepEqual(await redis.zrange('{Sicily}dst', 0, -1, { withScores: true }), ['Catania', '56.441257870158204', 'Palermo', 190.44242984775784]);
      assert.equal(await redis.geosearchstore('{Sicily}dst', 'Sicily', center, shape, 'ASC', { count: { limit: 1 } }), 1);
      assert.deepEqual(await redis.zrange('{Sicily}dst', 0, -1, { withScores: true }), ['Catania', 3479447370796909]);
    });
  });
}

// The GEO family over HTTP, against a real Larder. Every expected reply and error text was
// taken from redis-server 7.0.15 given the same commands: coordinates print as Redis's
// "%.17Lf" with trailing zeros cut, distances with four decimals, hashes as 11 base32 chars.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

describe('geo commands over HTTP', () => {
  const t = suiteLarder();

  const { reply, fails } = replies(() => t);

  const PALERMO = ['13.36138933897018433', '38.11555639549629859'];
  const CATANIA = ['15.08726745843887329', '37.50266842333162032'];
  const UNIT = 'ERR unsupported unit provided. please use M, KM, FT, MI';

  before(async () => {
    await reply(['geoadd', 'Sicily', 13.361389, 38.115556, 'Palermo', 15.087269, 37.502669, 'Catania'], 2);
    await reply(['geoadd', 'Sicily', 12.758489, 38.788135, 'edge1', 17.24151, 38.788135, 'edge2'], 2);
  });

  it('GEOADD with NX, XX and CH, its scores, and its errors', async () => {
    await reply(['geoadd', 'g:a', 13.361389, 38.115556, 'Palermo'], 1);
    await reply(['zscore', 'g:a', 'Palermo'], '3479099956230698');
    await reply(['geoadd', 'g:a', 'xx', 'ch', 13.361389, 38.115557, 'Palermo', 1, 1, 'newone'], 0);
    await reply(['geoadd', 'g:a', 'nx', 1, 1, 'Palermo', 2, 2, 'x'], 1);
    await reply(['geoadd', 'g:a', 'ch', 3, 3, 'x', 4, 4, 'y'], 2);
    await reply(['geoadd', 'g:a', 'xx', 5, 5, 'z'], 0);
    // The longitude limit itself gets the cell index 2^26, a bit above the 52, as in Redis.
    await reply(['geoadd', 'g:edge', 180, 0, 'm', 0, 85.05112878, 'n'], 2);
    await reply(['zrange', 'g:edge', 0, -1, 'withscores'], ['n', '6755399441055744', 'm', '10133099161583616']);
    await reply(['geopos', 'g:edge', 'm', 'n'], [['180', '0.00000126736058093'], ['0.00000268220901489', '85.0511287799999991']]);
    await fails(['geoadd', 'g:a', 200, 100, 'x'], 'ERR invalid longitude,latitude pair 200.000000,100.000000');
    await fails(['geoadd', 'g:a', 'inf', 2, 'x'], 'ERR invalid longitude,latitude pair inf,2.000000');
    await fails(['geoadd', 'g:a', 0.0078125, -90, 'x'], 'ERR invalid longitude,latitude pair 0.007812,-90.000000');
    await fails(['geoadd', 'g:a', 1, 'nan', 'x'], 'ERR value is not a valid float');
    await fails(['geoadd', 'g:a', 'nx', 'xx', 1, 1, 'x'], 'ERR syntax error');
    await fails(['geoadd', 'g:a', 'gt', 1, 1, 'x'], 'ERR syntax error');
    await fails(['geoadd', 'g:a', 1, 2], "ERR wrong number of arguments for 'geoadd' command");
    // A bad pair anywhere creates nothing.
    await fails(['geoadd', 'g:new', 1, 1, 'a', 1, 91, 'b'], 'ERR invalid longitude,latitude pair 1.000000,91.000000');
    await reply(['exists', 'g:new'], 0);
    await reply(['set', 'g:str', 'v'], 'OK');
    await fails(['geoadd', 'g:str', 1, 1, 'a'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
  });

  it('GEOPOS, GEODIST and GEOHASH', async () => {
    await reply(['geopos', 'Sicily', 'Palermo', 'nope', 'Catania'], [PALERMO, null, CATANIA]);
    await reply(['geopos', 'nokey', 'a'], [null]);
    await reply(['geopos', 'nokey'], []);
    await reply(['geodist', 'Sicily', 'Palermo', 'Catania'], '166274.1516');
    await reply(['geodist', 'Sicily', 'Palermo', 'Catania', 'km'], '166.2742');
    await reply(['geodist', 'Sicily', 'Palermo', 'Catania', 'MI'], '103.3182');
    await reply(['geodist', 'Sicily', 'Palermo', 'Catania', 'ft'], '545518.8700');
    await reply(['geodist', 'Sicily', 'Palermo', 'nope'], null);
    await reply(['geodist', 'nokey', 'a', 'b'], null);
    await fails(['geodist', 'Sicily', 'a', 'b', 'xx'], UNIT);
    await fails(['geodist', 'Sicily', 'a', 'b', 'm', 'x'], 'ERR syntax error');
    await reply(['geohash', 'Sicily', 'Palermo', 'Catania', 'nope'], ['sqc8b49rny0', 'sqdtr74hyu0', null]);
    await reply(['geohash', 'nokey', 'a'], [null]);
  });

  it('GEOSEARCH by radius and by box, sorted, counted, with every WITH option', async () => {
    await reply(
      ['geosearch', 'Sicily', 'FROMLONLAT', 15, 37, 'BYRADIUS', 200, 'km', 'ASC', 'WITHCOORD', 'WITHDIST', 'WITHHASH'],
      [
        ['Catania', '56.4413', 3479447370796909, CATANIA],
        ['Palermo', '190.4424', 3479099956230698, PALERMO],
      ],
    );
    await reply(
      ['geosearch', 'Sicily', 'FROMLONLAT', 15, 37, 'BYBOX', 400, 400, 'km', 'ASC', 'WITHDIST'],
      [['Catania', '56.4413'], ['Palermo', '190.4424'], ['edge2', '279.7403'], ['edge1', '279.7405']],
    );
    await reply(['geosearch', 'Sicily', 'FROMMEMBER', 'Palermo', 'BYRADIUS', 100, 'km', 'DESC'], ['edge1', 'Palermo']);
    await reply(['geosearch', 'Sicily', 'FROMLONLAT', 15, 37, 'BYRADIUS', 300, 'km', 'COUNT', 2], ['Catania', 'Palermo']);
    await reply(['geosearch', 'nokey', 'FROMMEMBER', 'x', 'BYRADIUS', 1, 'km'], []);
    await fails(['geosearch', 'Sicily', 'FROMMEMBER', 'nope', 'BYRADIUS', 1, 'km'], 'ERR could not decode requested zset member');
    await fails(['geosearch', 'nokey', 'FROMMEMBER', 'a', 'BYRADIUS', -1, 'm'], 'ERR radius cannot be negative');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYRADIUS', 'x', 'm'], 'ERR need numeric radius');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, -1, 'm'], 'ERR height or width cannot be negative');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'parsec'], UNIT);
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'm', 'COUNT', 0], 'ERR COUNT must be > 0');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'm', 'COUNT', 'x'], 'ERR value is not an integer or out of range');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'm', 'ANY'], 'ERR the ANY argument requires COUNT argument');
    await fails(['geosearch', 'k', 'BYBOX', 1, 1, 'm', 'ASC'], 'ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geosearch');
    await fails(['GEOSEARCH', 'k', 'FROMLONLAT', 1, 2, 'ASC', 'WITHDIST'], 'ERR exactly one of BYRADIUS and BYBOX can be specified for GEOSEARCH');
    await fails(['geosearch', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'm', 'STOREDIST'], 'ERR syntax error');
  });

  it('GEOSEARCHSTORE and GEORADIUS ... STORE write sorted sets', async () => {
    await reply(['geosearchstore', '{Sicily}dst', 'Sicily', 'FROMLONLAT', 15, 37, 'BYRADIUS', 200, 'km', 'STOREDIST'], 2);
    await reply(['zrange', '{Sicily}dst', 0, -1, 'withscores'], ['Catania', '56.441257870158204', 'Palermo', '190.44242984775784']);
    await reply(['georadius', 'Sicily', 15, 37, 200, 'km', 'STORE', '{Sicily}dst2'], 2);
    await reply(['zrange', '{Sicily}dst2', 0, -1, 'withscores'], ['Palermo', '3479099956230698', 'Catania', '3479447370796909']);
    await reply(['geosearchstore', '{Sicily}dst', 'Sicily', 'FROMLONLAT', 0, 0, 'BYRADIUS', 1, 'km'], 0);
    await reply(['exists', '{Sicily}dst'], 0);
    await fails(
      ['geosearchstore', '{k}d', 'k', 'FROMLONLAT', 1, 2, 'BYBOX', 1, 1, 'm', 'WITHDIST'],
      'ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options',
    );
    await fails(
      ['georadius', 'k', 1, 2, 3, 'm', 'STORE', '{k}x', 'WITHDIST'],
      'ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options',
    );
    await fails(['georadius_ro', 'Sicily', 15, 37, 200, 'km', 'STORE', 'x'], 'ERR syntax error');
  });

  it('GEORADIUS and GEORADIUSBYMEMBER, read-only forms too', async () => {
    await reply(['georadius', 'Sicily', 15, 37, 200, 'km', 'WITHDIST'], [['Palermo', '190.4424'], ['Catania', '56.4413']]);
    await reply(['georadius_ro', 'Sicily', 15, 37, 200, 'km', 'WITHDIST'], [['Palermo', '190.4424'], ['Catania', '56.4413']]);
    await reply(
      ['georadiusbymember', 'Sicily', 'Palermo', 200, 'km', 'WITHDIST', 'ASC'],
      [['Palermo', '0.0000'], ['edge1', '91.4007'], ['Catania', '166.2742']],
    );
    await reply(['georadiusbymember_ro', 'Sicily', 'Palermo', 100, 'km', 'ASC'], ['Palermo', 'edge1']);
    // Without the key Redis reads no radius at all.
    await reply(['georadiusbymember', 'nokey', 'm', -1, 'm'], []);
    await fails(['georadiusbymember', 'Sicily', 'nope', 1, 'm'], 'ERR could not decode requested zset member');
    await fails(['georadius', 'Sicily', 200, 1, 1, 'm'], 'ERR invalid longitude,latitude pair 200.000000,1.000000');
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: COMMAND INFO flags')('names the STORE keys of GEORADIUS to ACL, as Redis finds them by keyword', async () => {
    const info = (await t.command(['command', 'info', 'georadius'])).body.result[0];
    assert.deepEqual(info.slice(0, 6), ['georadius', -6, ['write', 'movablekeys'], 1, 1, 1]);
    await reply(['acl', 'setuser', 'geo', 'on', '>pw', '~geo:*', '+@geo', '+@read'], 'OK');
    const token = (await t.command(['acl', 'resttoken', 'geo', 'pw'])).body.result;
    await reply(['geoadd', 'geo:src', 15, 37, 'a'], 1);
    const NOPERM = 'NOPERM this user has no permissions to access one of the keys used as arguments';
    const as = (argv: (string | number)[]) => t.command(argv, { token });
    assert.deepEqual(await as(['georadius', 'geo:src', 15, 37, 1, 'km', 'STORE', 'geo:dst']), { status: 200, body: { result: 1 } });
    assert.deepEqual(await as(['georadius', 'geo:src', 15, 37, 1, 'km', 'STOREDIST', 'other']), { status: 400, body: { error: NOPERM } });
    assert.deepEqual(await as(['georadiusbymember', 'geo:src', 'a', 1, 'km', 'store', 'other']), { status: 400, body: { error: NOPERM } });
    assert.deepEqual(await as(['geosearchstore', 'other', 'geo:src', 'FROMMEMBER', 'a', 'BYRADIUS', 1, 'km']), { status: 400, body: { error: NOPERM } });
  });
});

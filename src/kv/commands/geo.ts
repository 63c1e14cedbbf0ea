// GEO commands (Redis geo.c): the family's declarations, as COMMAND INFO reports them on
// Redis 7.0. Points live in a sorted set scored by their geohash (engine/geo/geohash.ts).

import '../engine/zset/zset-value.js'; // registers the zset kind before any snapshot loads
import { geoaddCommand } from './geo/add.js';
import { geodistCommand, geohashCommand, geoposCommand } from './geo/read.js';
import {
  georadiusbymemberCommand,
  georadiusbymemberRoCommand,
  georadiusCommand,
  georadiusRoCommand,
  geosearchCommand,
  geosearchstoreCommand,
} from './geo/search.js';
import { family, ONE_KEY, type KeySpec } from './spec.js';

const TWO_KEYS: KeySpec = { first: 1, last: 2, step: 1 }; // GEOSEARCHSTORE dst src
const STORE = ['store', 'storedist'];
// GEORADIUS key lon lat radius unit [... STORE key]; GEORADIUSBYMEMBER key member radius unit [...]
const RADIUS_KEYS: KeySpec = { first: 1, last: 1, step: 1, keyword: { from: 6, names: STORE } };
const MEMBER_KEYS: KeySpec = { first: 1, last: 1, step: 1, keyword: { from: 5, names: STORE } };

export default family('geo', 'geo', [
  { name: 'geoadd', arity: -5, flags: ['write'], keys: ONE_KEY, run: geoaddCommand },
  { name: 'geopos', arity: -2, flags: ['readonly'], keys: ONE_KEY, run: geoposCommand },
  { name: 'geodist', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: geodistCommand },
  { name: 'geohash', arity: -2, flags: ['readonly'], keys: ONE_KEY, run: geohashCommand },
  { name: 'geosearch', arity: -7, flags: ['readonly'], keys: ONE_KEY, run: geosearchCommand },
  { name: 'geosearchstore', arity: -8, flags: ['write', 'readLookups'], keys: TWO_KEYS, run: geosearchstoreCommand },
  { name: 'georadius', arity: -6, flags: ['write', 'readLookups'], keys: RADIUS_KEYS, run: georadiusCommand },
  { name: 'georadius_ro', arity: -6, flags: ['readonly'], keys: ONE_KEY, run: georadiusRoCommand },
  { name: 'georadiusbymember', arity: -5, flags: ['write', 'readLookups'], keys: MEMBER_KEYS, run: georadiusbymemberCommand },
  { name: 'georadiusbymember_ro', arity: -5, flags: ['readonly'], keys: ONE_KEY, run: georadiusbymemberRoCommand },
]);

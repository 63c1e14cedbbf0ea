// Random commands of the GEO family (Redis geo.c): points clustered around a few places
// (Sicily, the antimeridian, near the poles) and some anywhere, so searches of every radius find some of them,
// every option of every command, sometimes wrongly combined, and bad coordinates, radii and
// units so the error replies compare too. Positions are drawn from a wide pool so two points
// rarely share a distance: Redis's partial sort (COUNT below the matches) orders ties its own way.

import { anyCase, KEYS } from './alphabet.js';
import { FINAL_READS, type CommandGen, type FinalRead, type Step } from './harness.js';
import type { Rng } from './prng.js';

const MEMBERS: readonly string[] = ['a', 'b', 'c', 'd', 'e', 'f', 'palermo', 'catania', '', '1', 'é'];
/** Members of bulk adds, which grow a set past Redis's 128-entry listpack into a skip list. */
const MANY: readonly string[] = Array.from({ length: 200 }, (_, i) => `m${i}`);
const CENTERS: readonly (readonly [number, number])[] = [
  [13.361389, 38.115556],
  [15.087269, 37.502669],
  [179.95, 0.5],
  [-179.95, -0.5],
  [0, 84.9],
  [-120, -80.5],
  [0, 0],
];
const EDGES: readonly (readonly [string, string])[] = [
  ['180', '0'], ['-180', '0'], ['0', '85.05112878'], ['0', '-85.05112878'], ['180', '85.05112878'], ['0', '0'],
];
const BAD_COORDS: readonly (readonly [string, string])[] = [
  ['200', '100'], ['0', '86'], ['-180.000001', '0'], ['x', '1'], ['1', 'nan'], ['inf', '0'], ['', '0'], ['0.0078125', '-90'],
];
const RADII: readonly string[] = ['0', '1', '50', '100', '200', '500', '1000', '5000', '20000', '0.5', '1e3', 'inf', '1e308', '-0'];
const BAD_RADII: readonly string[] = ['-1', 'x', '', 'nan'];
const UNITS: readonly string[] = ['m', 'km', 'ft', 'mi', 'KM', 'Mi'];
const BAD_UNITS: readonly string[] = ['parsec', '', 'kms'];

const key = (rng: Rng) => rng.pick(KEYS);
const member = (rng: Rng) => rng.pick(MEMBERS);
const unit = (rng: Rng) => (rng.chance(0.04) ? rng.pick(BAD_UNITS) : anyCase(rng, rng.pick(UNITS)));
const radius = (rng: Rng) => (rng.chance(0.04) ? rng.pick(BAD_RADII) : rng.pick(RADII));
const step = (...argv: string[]): Step => ({ argv });

/** A position near one of the centers, with up to 6 decimals. */
function lonLat(rng: Rng): [string, string] {
  if (rng.chance(0.03)) return [...rng.pick(BAD_COORDS)];
  if (rng.chance(0.05)) return [...rng.pick(EDGES)];
  if (rng.chance(0.1)) return [(rng.int(-180000000, 180000000) / 1e6).toFixed(6), (rng.int(-85000000, 85000000) / 1e6).toFixed(6)];
  const [x, y] = rng.pick(CENTERS);
  const spread = rng.pick([0.01, 0.5, 3]);
  const lon = Math.max(-180, Math.min(180, x + (rng.int(-1000000, 1000000) / 1000000) * spread));
  const lat = Math.max(-85, Math.min(85, y + (rng.int(-1000000, 1000000) / 1000000) * spread));
  return [lon.toFixed(6), lat.toFixed(6)];
}

// GEOADD key [NX | XX] [CH] longitude latitude member [longitude latitude member ...]
function geoadd(rng: Rng): Step {
  const opts: string[] = [];
  for (const o of ['NX', 'XX', 'CH']) if (rng.chance(rng.chance(0.5) ? 0.05 : 0.15)) opts.push(anyCase(rng, o));
  const args: string[] = [];
  for (let i = rng.int(1, 3); i > 0; i--) args.push(...lonLat(rng), member(rng));
  if (rng.chance(0.03)) args.pop(); // not a multiple of three: syntax error
  return step('GEOADD', key(rng), ...rng.shuffle(opts), ...args);
}

/** The options every search shares, shuffled; `store` adds STORE/STOREDIST for GEORADIUS. */
function options(rng: Rng, store: boolean): string[] {
  const groups: string[][] = [];
  for (const o of ['WITHCOORD', 'WITHDIST', 'WITHHASH']) if (rng.chance(0.3)) groups.push([anyCase(rng, o)]);
  if (rng.chance(0.3)) groups.push([anyCase(rng, rng.pick(['ASC', 'DESC']))]);
  if (rng.chance(0.35)) groups.push(['COUNT', rng.chance(0.05) ? rng.pick(['0', '-1', 'x']) : String(rng.int(1, 6))]);
  if (rng.chance(0.1)) groups.push(['ANY']);
  if (store && rng.chance(0.3)) groups.push([anyCase(rng, rng.pick(['STORE', 'STOREDIST'])), key(rng)]);
  return rng.shuffle(groups).flat();
}

function from(rng: Rng): string[] {
  return rng.chance(0.5) ? ['FROMMEMBER', member(rng)] : ['FROMLONLAT', ...lonLat(rng)];
}

function by(rng: Rng): string[] {
  return rng.chance(0.5) ? ['BYRADIUS', radius(rng), unit(rng)] : ['BYBOX', radius(rng), radius(rng), unit(rng)];
}

/** GEOSEARCH's required parts, sometimes missing or doubled. */
function searchArgs(rng: Rng): string[] {
  const parts = [from(rng), by(rng)];
  if (rng.chance(0.04)) parts.pop();
  if (rng.chance(0.04)) parts.push(rng.chance(0.5) ? from(rng) : by(rng));
  return rng.shuffle(parts).flat();
}

export const GEO_GENS: readonly CommandGen[] = [
  { name: 'geoadd', weight: 8, make: geoadd },
  {
    name: 'geoadd',
    weight: 0.3,
    make: (rng) => {
      const args: string[] = [];
      for (let i = rng.int(100, 150); i > 0; i--) args.push(...lonLat(rng), rng.pick(MANY));
      return step('GEOADD', key(rng), ...args);
    },
  },
  { name: 'geopos', weight: 2, make: (rng) => step('GEOPOS', key(rng), ...rng.some(MEMBERS, rng.int(0, 3))) },
  { name: 'geohash', weight: 2, make: (rng) => step('GEOHASH', key(rng), ...rng.some(MEMBERS, rng.int(0, 3))) },
  {
    name: 'geodist',
    weight: 3,
    make: (rng) => {
      const extra = rng.chance(0.7) ? [unit(rng)] : rng.chance(0.9) ? [] : ['m', 'x'];
      return step('GEODIST', key(rng), member(rng), member(rng), ...extra);
    },
  },
  {
    name: 'geosearch',
    weight: 6,
    make: (rng) => {
      const opts = options(rng, false);
      if (rng.chance(0.03)) opts.push('STOREDIST');
      return step('GEOSEARCH', key(rng), ...rng.shuffle([searchArgs(rng), opts]).flat());
    },
  },
  {
    name: 'geosearchstore',
    weight: 4,
    make: (rng) => {
      const opts = options(rng, false).filter((o) => !o.toLowerCase().startsWith('with') || rng.chance(0.1));
      if (rng.chance(0.4)) opts.push('STOREDIST');
      return step('GEOSEARCHSTORE', key(rng), key(rng), ...searchArgs(rng), ...opts);
    },
  },
  {
    name: 'georadius',
    weight: 3,
    make: (rng) => {
      const ro = rng.chance(0.3);
      return step(ro ? 'GEORADIUS_RO' : 'GEORADIUS', key(rng), ...lonLat(rng), radius(rng), unit(rng), ...options(rng, !ro || rng.chance(0.1)));
    },
  },
  {
    name: 'georadiusbymember',
    weight: 3,
    make: (rng) => {
      const ro = rng.chance(0.3);
      const name = ro ? 'GEORADIUSBYMEMBER_RO' : 'GEORADIUSBYMEMBER';
      return step(name, key(rng), member(rng), radius(rng), unit(rng), ...options(rng, !ro || rng.chance(0.1)));
    },
  },
  // Scores no GEOADD makes still decode (Redis casts them to a 64-bit hash).
  {
    name: 'zadd',
    weight: 0.5,
    make: (rng) => step('ZADD', key(rng), rng.pick(['0', '1', '-1', '1.5', '4503599627370495', '9007199254740992', '1e19', '-1e19', 'inf', '-inf']), member(rng)),
  },
  { name: 'zrem', weight: 1, make: (rng) => step('ZREM', key(rng), member(rng)) },
  { name: 'set', weight: 0.5, make: (rng) => step('SET', key(rng), 'v') },
  { name: 'del', weight: 1, make: (rng) => step('DEL', key(rng)) },
];

export const GEO_FINAL_READS: readonly FinalRead[] = [
  ...FINAL_READS,
  [['ZRANGE'], 'exact', ['0', '-1', 'WITHSCORES']],
  [['OBJECT', 'ENCODING'], 'exact'],
];

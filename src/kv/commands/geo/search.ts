// GEOSEARCH, GEOSEARCHSTORE and the older GEORADIUS family: one generic, as Redis's
// georadiusGeneric, down to its argument order, its error precedence and its visiting order
// (the center cell then its neighbours, each walked by score) and its sorts, so replies list
// the same members in the same order, equal distances included.

import { cellScores, decodeScore, distanceWithin, searchCells, type Cell, type Shape } from '../../engine/geo/geohash.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ZSET_KIND, ZSet } from '../../engine/zset/zset-value.js';
import {
  GEO_ANY_COUNT,
  GEO_COUNT,
  GEO_MEMBER,
  geoBy,
  geoFrom,
  geoStoreWith,
  isError,
  NOT_INTEGER,
  SYNTAX,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { dropDestination, storeResult } from '../store-result.js';
import { readTyped } from '../typed.js';
import { readBox, readLonLat, readRadius } from './coords.js';
import { distanceText, humanCoordinate } from './format.js';
import { pqsort } from './pqsort.js';

const COORDS = 1; //       GEORADIUS: center from longitude latitude
const MEMBER = 2; //       GEORADIUSBYMEMBER: center from a member
const NOSTORE = 4; //      the _RO variants: no STORE / STOREDIST
const SEARCH = 8; //       GEOSEARCH grammar
const SEARCHSTORE = 16; // GEOSEARCHSTORE: destination first, STOREDIST as a flag

// GEORADIUS key longitude latitude radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH]
//   [COUNT count [ANY]] [ASC|DESC] [STORE key | STOREDIST key]
export function georadiusCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 1, COORDS);
}

// GEORADIUS_RO key longitude latitude radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC]
export function georadiusRoCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 1, COORDS | NOSTORE);
}

// GEORADIUSBYMEMBER key member radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH]
//   [COUNT count [ANY]] [ASC|DESC] [STORE key | STOREDIST key]
export function georadiusbymemberCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 1, MEMBER);
}

// GEORADIUSBYMEMBER_RO key member radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC]
export function georadiusbymemberRoCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 1, MEMBER | NOSTORE);
}

// GEOSEARCH key FROMMEMBER member | FROMLONLAT longitude latitude
//   BYRADIUS radius M|KM|FT|MI | BYBOX width height M|KM|FT|MI
//   [ASC|DESC] [COUNT count [ANY]] [WITHCOORD] [WITHDIST] [WITHHASH]
export function geosearchCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 1, SEARCH);
}

// GEOSEARCHSTORE destination source FROMMEMBER member | FROMLONLAT longitude latitude
//   BYRADIUS radius M|KM|FT|MI | BYBOX width height M|KM|FT|MI [ASC|DESC] [COUNT count [ANY]] [STOREDIST]
export function geosearchstoreCommand(ctx: Ctx, argv: Args): Reply {
  return georadiusGeneric(ctx, argv, 2, SEARCH | SEARCHSTORE);
}

interface GeoPoint {
  longitude: number;
  latitude: number;
  dist: number;
  score: number;
  member: string;
}

function georadiusGeneric(ctx: Ctx, argv: Args, srcIndex: number, flags: number): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[srcIndex], ZSET_KIND);
  if (isError(z)) return z;
  let storekey: string | null = null;
  let storedist = false;
  let xy: [number, number] = [0, 0];
  let conversion = 1;
  let radius = 0;
  let box: [number, number] | null = null;
  let baseArgs: number;
  if (flags & COORDS) {
    baseArgs = 6;
    const c = readLonLat(argv, 2);
    if (isError(c)) return c;
    xy = c;
    const r = readRadius(argv, 4);
    if (isError(r)) return r;
    [radius, conversion] = r;
  } else if (flags & MEMBER) {
    baseArgs = 5;
    // Without a source key Redis reads only the options, to know which empty reply to send.
    if (z !== undefined) {
      const score = z.score(argv[2]);
      if (score === undefined) return GEO_MEMBER;
      xy = decodeScore(score);
      const r = readRadius(argv, 3);
      if (isError(r)) return r;
      [radius, conversion] = r;
    }
  } else {
    baseArgs = 2;
    if (flags & SEARCHSTORE) {
      baseArgs = 3;
      storekey = argv[1];
    }
  }

  let withdist = false;
  let withhash = false;
  let withcoords = false;
  let frommember = false;
  let fromloc = false;
  let byradius = false;
  let bybox = false;
  let sort = 0; // 0 none, 1 ascending, -1 descending
  let any = false;
  let count = 0;
  const remaining = argv.length - baseArgs;
  for (let i = 0; i < remaining; i++) {
    const at = baseArgs + i;
    const arg = argv[at].toLowerCase();
    if (arg === 'withdist') withdist = true;
    else if (arg === 'withhash') withhash = true;
    else if (arg === 'withcoord') withcoords = true;
    else if (arg === 'any') any = true;
    else if (arg === 'asc') sort = 1;
    else if (arg === 'desc') sort = -1;
    else if (arg === 'count' && i + 1 < remaining) {
      const n = parseInteger(argv[at + 1]);
      if (n === undefined) return NOT_INTEGER;
      if (n <= 0) return GEO_COUNT;
      count = n;
      i++;
    } else if ((arg === 'store' || arg === 'storedist') && i + 1 < remaining && !(flags & (NOSTORE | SEARCH))) {
      storekey = argv[at + 1];
      storedist = arg === 'storedist';
      i++;
    } else if (arg === 'storedist' && flags & SEARCHSTORE) {
      storedist = true;
    } else if (arg === 'frommember' && i + 1 < remaining && flags & SEARCH && !fromloc) {
      if (z !== undefined) {
        const score = z.score(argv[at + 1]);
        if (score === undefined) return GEO_MEMBER;
        xy = decodeScore(score);
      }
      frommember = true;
      i++;
    } else if (arg === 'fromlonlat' && i + 2 < remaining && flags & SEARCH && !frommember) {
      const c = readLonLat(argv, at + 1);
      if (isError(c)) return c;
      xy = c;
      fromloc = true;
      i += 2;
    } else if (arg === 'byradius' && i + 2 < remaining && flags & SEARCH && !bybox) {
      const r = readRadius(argv, at + 1);
      if (isError(r)) return r;
      [radius, conversion] = r;
      byradius = true;
      i += 2;
    } else if (arg === 'bybox' && i + 3 < remaining && flags & SEARCH && !byradius) {
      const b = readBox(argv, at + 1);
      if (isError(b)) return b;
      box = [b[0], b[1]];
      conversion = b[2];
      bybox = true;
      i += 3;
    } else {
      return SYNTAX;
    }
  }

  const cmd = argv[0];
  if (storekey !== null && (withdist || withhash || withcoords)) {
    return geoStoreWith(flags & SEARCHSTORE ? 'GEOSEARCHSTORE' : 'STORE option in GEORADIUS');
  }
  if (flags & SEARCH && !(frommember || fromloc)) return geoFrom(cmd);
  if (flags & SEARCH && !(byradius || bybox)) return geoBy(cmd);
  if (any && count === 0) return GEO_ANY_COUNT;

  if (z === undefined) return storekey === null ? unchanged(ctx, []) : dropDestination(ctx, storekey);
  if (count !== 0 && sort === 0 && !any) sort = 1;

  const shape: Shape =
    box === null
      ? { type: 'radius', xy, conversion, radius }
      : { type: 'box', xy, conversion, width: box[0], height: box[1] };
  const found = membersOfAllNeighbors(z, shape, any ? count : 0);
  if (found.length === 0 && storekey === null) return unchanged(ctx, []);
  const returned = count === 0 || found.length < count ? found.length : count;
  if (sort !== 0) {
    const cmp = (a: GeoPoint, b: GeoPoint) => (a.dist > b.dist ? sort : a.dist === b.dist ? 0 : -sort);
    // glibc's qsort (a stable merge sort) for everything, Redis's partial pqsort for the first few.
    if (returned === found.length) found.sort(cmp);
    else pqsort(found, cmp, 0, returned - 1);
  }

  if (storekey === null) {
    const options = (withdist ? 1 : 0) + (withcoords ? 1 : 0) + (withhash ? 1 : 0);
    const out: Reply[] = [];
    for (let i = 0; i < returned; i++) {
      const gp = found[i];
      if (options === 0) {
        out.push(gp.member);
        continue;
      }
      const item: Reply[] = [gp.member];
      if (withdist) item.push(distanceText(gp.dist / conversion));
      if (withhash) item.push(hashReply(gp.score));
      if (withcoords) item.push([humanCoordinate(gp.longitude), humanCoordinate(gp.latitude)]);
      out.push(item);
    }
    return unchanged(ctx, out);
  }
  const entries: [string, number][] = [];
  for (let i = 0; i < returned; i++) {
    const gp = found[i];
    entries.push([gp.member, storedist ? gp.dist / conversion : gp.score]);
  }
  const event = flags & SEARCH ? 'geosearchstore' : 'georadiusstore';
  return storeResult(ctx, storekey, ZSet.of(entries), returned, KeyEvent.zset, event);
}

/** membersOfAllNeighbors: the points inside the shape, cell by cell; stops at `limit` (ANY). */
function membersOfAllNeighbors(z: ZSet, shape: Shape, limit: number): GeoPoint[] {
  const cells = searchCells(shape);
  const out: GeoPoint[] = [];
  let last = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c.step === 0) continue;
    // Huge radii make neighbours coincide; Redis skips a cell equal to the last one walked
    // (never comparing with the center, index 0).
    const p = cells[last];
    if (last !== 0 && c.lat === p.lat && c.lon === p.lon && c.step === p.step) continue;
    if (out.length > 0 && limit !== 0 && out.length >= limit) break;
    pointsInCell(z, c, shape, out, limit);
    last = i;
  }
  return out;
}

/** geoGetPointsInRange: the members scored in [min, max) of one cell that lie in the shape. */
function pointsInCell(z: ZSet, cell: Cell, shape: Shape, out: GeoPoint[], limit: number): void {
  const [min, max] = cellScores(cell);
  for (let node = z.firstInScore({ min, max, minex: false, maxex: true }); node !== null; node = node.next()) {
    if (!(node.score < max)) break;
    const [x, y] = decodeScore(node.score);
    const d = distanceWithin(shape, x, y);
    if (d !== undefined) out.push({ longitude: x, latitude: y, dist: d, score: node.score, member: node.member });
    if (out.length > 0 && limit !== 0 && out.length >= limit) break;
  }
}

/** addReplyLongLong of the score cast to long long (x86-64: out of range gives INT64_MIN). */
function hashReply(score: number): number | bigint {
  const t = Math.trunc(score);
  if (Number.isSafeInteger(t)) return t;
  return t > -(2 ** 63) && t < 2 ** 63 ? BigInt(t) : -(2n ** 63n);
}

// The argument grammars GEO commands share (geo.c extractLongLatOrReply, extractUnitOrReply,
// extractDistanceOrReply, extractBoxOrReply), each answering a value or the ReplyError Redis sends.

import { GEO_LAT_MAX, GEO_LAT_MIN, GEO_LONG_MAX, GEO_LONG_MIN } from '../../engine/geo/geohash.js';
import {
  GEO_BOX_NEGATIVE,
  GEO_NEED_HEIGHT,
  GEO_NEED_RADIUS,
  GEO_NEED_WIDTH,
  GEO_RADIUS_NEGATIVE,
  GEO_UNIT,
  geoBadPair,
  NOT_FLOAT,
  ReplyError,
} from '../../errors.js';
import { parseFloatText } from '../args.js';
import { fixed } from './format.js';

/** A longitude,latitude pair at argv[at], within the WGS84 limits Redis indexes. */
export function readLonLat(argv: readonly string[], at: number): [number, number] | ReplyError {
  const x = parseFloatText(argv[at]);
  if (x === undefined) return NOT_FLOAT;
  const y = parseFloatText(argv[at + 1]);
  if (y === undefined) return NOT_FLOAT;
  if (x < GEO_LONG_MIN || x > GEO_LONG_MAX || y < GEO_LAT_MIN || y > GEO_LAT_MAX) return geoBadPair(fixed(x, 6), fixed(y, 6));
  return [x, y];
}

/** Meters per unit: m, km, ft, mi in any case. */
export function readUnit(u: string): number | ReplyError {
  switch (u.toLowerCase()) {
    case 'm':
      return 1;
    case 'km':
      return 1000;
    case 'ft':
      return 0.3048;
    case 'mi':
      return 1609.34;
    default:
      return GEO_UNIT;
  }
}

/** "<radius> <unit>" as [radius, conversion]. */
export function readRadius(argv: readonly string[], at: number): [number, number] | ReplyError {
  const r = parseFloatText(argv[at]);
  if (r === undefined) return GEO_NEED_RADIUS;
  if (r < 0) return GEO_RADIUS_NEGATIVE;
  const conversion = readUnit(argv[at + 1]);
  return conversion instanceof ReplyError ? conversion : [r, conversion];
}

/** "<width> <height> <unit>" as [width, height, conversion]. */
export function readBox(argv: readonly string[], at: number): [number, number, number] | ReplyError {
  const w = parseFloatText(argv[at]);
  if (w === undefined) return GEO_NEED_WIDTH;
  const h = parseFloatText(argv[at + 1]);
  if (h === undefined) return GEO_NEED_HEIGHT;
  if (h < 0 || w < 0) return GEO_BOX_NEGATIVE;
  const conversion = readUnit(argv[at + 2]);
  return conversion instanceof ReplyError ? conversion : [w, h, conversion];
}

// GEOPOS, GEODIST and GEOHASH: reads of members' positions, decoded from their scores.

import { decodeScore, distance, standardGeohash } from '../../engine/geo/geohash.js';
import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { isError, SYNTAX } from '../../errors.js';
import { NULL_ARRAY, type Reply } from '../../reply.js';
import type { Args, Ctx } from '../spec.js';
import { readTyped } from '../typed.js';
import { readUnit } from './coords.js';
import { distanceText, humanCoordinate } from './format.js';

// GEOPOS key [member [member ...]]
export function geoposCommand(ctx: Ctx, argv: Args): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const score = z?.score(argv[j]);
    if (score === undefined) {
      out.push(NULL_ARRAY); // Redis's null array, which RESP2 prints *-1
      continue;
    }
    const [x, y] = decodeScore(score);
    out.push([humanCoordinate(x), humanCoordinate(y)]);
  }
  return out;
}

// GEODIST key member1 member2 [M | KM | FT | MI]
export function geodistCommand(ctx: Ctx, argv: Args): Reply {
  let toMeter = 1;
  if (argv.length === 5) {
    const u = readUnit(argv[4]);
    if (isError(u)) return u;
    toMeter = u;
  } else if (argv.length > 5) {
    return SYNTAX;
  }
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (z === undefined || isError(z)) return z ?? null;
  const s1 = z.score(argv[2]);
  const s2 = z.score(argv[3]);
  if (s1 === undefined || s2 === undefined) return null;
  const [x1, y1] = decodeScore(s1);
  const [x2, y2] = decodeScore(s2);
  return distanceText(distance(x1, y1, x2, y2) / toMeter);
}

// GEOHASH key [member [member ...]]
export function geohashCommand(ctx: Ctx, argv: Args): Reply {
  const z = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(z)) return z;
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const score = z?.score(argv[j]);
    out.push(score === undefined ? null : standardGeohash(score));
  }
  return out;
}

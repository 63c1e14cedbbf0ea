// Redis's geohash (geohash.c, geohash_helper.c), ported arithmetic for arithmetic so scores,
// decoded positions, distances and search areas agree with Redis to the last printed digit.
// A point is a 52-bit hash: latitude and longitude each scaled to a 26-bit cell index over
// the WGS84 ranges Redis uses (latitude limited to the Web Mercator ±85.05112878), latitude
// bits at the even positions, longitude bits at the odd ones. A 52-bit integer is exact in a
// double, so the hash is the sorted-set score as is. Cells are kept as their two indexes and
// a step, which makes Redis's bit-twiddled neighbour moves plain additions modulo 2^step.
// Distances use Math.sin/cos/asin: under Bun (JavaScriptCore calls the C library, as Redis
// does) they agree to the bit; Node's V8 has its own fdlibm port, which now and then differs
// in the last bit (seen in a STOREDIST score; four-decimal replies almost never show it).

export const GEO_STEP_MAX = 26;
export const GEO_LAT_MIN = -85.05112878;
export const GEO_LAT_MAX = 85.05112878;
export const GEO_LONG_MIN = -180;
export const GEO_LONG_MAX = 180;
export const EARTH_RADIUS_IN_METERS = 6372797.560856;
const MERCATOR_MAX = 20037726.37;
const D_R = Math.PI / 180.0;

const deg_rad = (ang: number): number => ang * D_R;
const rad_deg = (ang: number): number => ang / D_R;

/** A geohash cell: latitude and longitude indexes at `step` bits each; step 0 means "none". */
export interface Cell {
  lat: number;
  lon: number;
  step: number;
}

export interface Range {
  min: number;
  max: number;
}

/** A decoded cell's extent. */
export interface Area {
  latitude: Range;
  longitude: Range;
}

const WGS84_LONG: Range = { min: GEO_LONG_MIN, max: GEO_LONG_MAX };
const WGS84_LAT: Range = { min: GEO_LAT_MIN, max: GEO_LAT_MAX };
/** The ranges of the standard geohash, which GEOHASH prints. */
const STANDARD_LAT: Range = { min: -90, max: 90 };

/** geohashEncode: the cell holding a point, or null outside the ranges (Redis returns 0). */
export function encode(longRange: Range, latRange: Range, longitude: number, latitude: number, step: number): Cell | null {
  if (longitude > GEO_LONG_MAX || longitude < GEO_LONG_MIN || latitude > GEO_LAT_MAX || latitude < GEO_LAT_MIN) return null;
  if (latitude < latRange.min || latitude > latRange.max || longitude < longRange.min || longitude > longRange.max) return null;
  const scale = 2 ** step;
  const latOffset = ((latitude - latRange.min) / (latRange.max - latRange.min)) * scale;
  const longOffset = ((longitude - longRange.min) / (longRange.max - longRange.min)) * scale;
  // interleave64 takes uint32_t: the C conversion truncates; the maximum itself gives index
  // 2^step, one bit above the cell bits, which Redis keeps (GEOADD 180 0 scores above 2^53).
  return { lat: Math.trunc(latOffset) >>> 0, lon: Math.trunc(longOffset) >>> 0, step };
}

/** The step-26 WGS84 cell of a point already checked to lie within the limits. */
export function encodeWGS84(longitude: number, latitude: number): Cell | null {
  return encode(WGS84_LONG, WGS84_LAT, longitude, latitude, GEO_STEP_MAX);
}

/** geohashAlign52Bits: the cell's bits shifted to 52, as a (exact) double. */
export function align52(c: Cell): number {
  return interleave(c.lat, c.lon) * 2 ** (52 - c.step * 2);
}

/** The 52-bit score of a valid point. */
export function scoreOf(longitude: number, latitude: number): number | null {
  const c = encodeWGS84(longitude, latitude);
  return c === null ? null : align52(c);
}

/** geohashDecode over the WGS84 ranges. */
export function decode(c: Cell, longRange: Range = WGS84_LONG, latRange: Range = WGS84_LAT): Area {
  const scale = 2 ** c.step;
  const latScale = latRange.max - latRange.min;
  const longScale = longRange.max - longRange.min;
  return {
    latitude: {
      min: latRange.min + (c.lat * 1.0 / scale) * latScale,
      max: latRange.min + ((c.lat + 1) * 1.0 / scale) * latScale,
    },
    longitude: {
      min: longRange.min + (c.lon * 1.0 / scale) * longScale,
      max: longRange.min + ((c.lon + 1) * 1.0 / scale) * longScale,
    },
  };
}

/** decodeGeohash: a score's cell center [longitude, latitude], clamped to the limits. */
export function decodeScore(score: number): [number, number] {
  const [hi, lo] = uint64Words(score);
  // deinterleave64 of the whole uint64 (a score that is no geohash still decodes, as in Redis).
  const lat = compact(lo) | (compact(hi) << 16);
  const lon = compact(lo >>> 1) | (compact(hi >>> 1) << 16);
  const area = decode({ lat: lat >>> 0, lon: lon >>> 0, step: GEO_STEP_MAX });
  let x = (area.longitude.min + area.longitude.max) / 2;
  if (x > GEO_LONG_MAX) x = GEO_LONG_MAX;
  if (x < GEO_LONG_MIN) x = GEO_LONG_MIN;
  let y = (area.latitude.min + area.latitude.max) / 2;
  if (y > GEO_LAT_MAX) y = GEO_LAT_MAX;
  if (y < GEO_LAT_MIN) y = GEO_LAT_MIN;
  return [x, y];
}

const GEOALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';

/** GEOHASH's 11 characters: the point re-encoded over the standard ±90 latitude range. */
export function standardGeohash(score: number): string {
  const [x, y] = decodeScore(score);
  const c = encode(WGS84_LONG, STANDARD_LAT, x, y, GEO_STEP_MAX);
  const bits = c === null ? 0 : interleave(c.lat, c.lon);
  let out = '';
  for (let i = 0; i < 10; i++) out += GEOALPHABET[Math.floor(bits / 2 ** (52 - (i + 1) * 5)) & 0x1f];
  return out + GEOALPHABET[0]; // 52 bits fill 10 characters; Redis pads the 11th with 0
}

/** geohashGetLatDistance. */
export function latDistance(lat1d: number, lat2d: number): number {
  return EARTH_RADIUS_IN_METERS * Math.abs(deg_rad(lat2d) - deg_rad(lat1d));
}

/** geohashGetDistance: haversine, skipping the trigonometry when the longitudes agree. */
export function distance(lon1d: number, lat1d: number, lon2d: number, lat2d: number): number {
  const lon1r = deg_rad(lon1d);
  const lon2r = deg_rad(lon2d);
  const v = Math.sin((lon2r - lon1r) / 2);
  if (v === 0.0) return latDistance(lat1d, lat2d);
  const lat1r = deg_rad(lat1d);
  const lat2r = deg_rad(lat2d);
  const u = Math.sin((lat2r - lat1r) / 2);
  const a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
  return 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
}

/** geohashEstimateStepsByRadius. */
export function estimateStepsByRadius(rangeMeters: number, lat: number): number {
  if (rangeMeters === 0) return 26;
  let step = 1;
  while (rangeMeters < MERCATOR_MAX) {
    rangeMeters *= 2;
    step++;
  }
  step -= 2;
  if (lat > 66 || lat < -66) {
    step--;
    if (lat > 80 || lat < -80) step--;
  }
  if (step < 1) step = 1;
  if (step > 26) step = 26;
  return step;
}

/** A search shape in its own unit: `conversion` meters per unit. */
export type Shape =
  | { type: 'radius'; xy: [number, number]; conversion: number; radius: number }
  | { type: 'box'; xy: [number, number]; conversion: number; width: number; height: number };

/** geohashBoundingBox: [min lon, min lat, max lon, max lat]. */
function boundingBox(shape: Shape): [number, number, number, number] {
  const [longitude, latitude] = shape.xy;
  const height = shape.conversion * (shape.type === 'radius' ? shape.radius : shape.height / 2);
  const width = shape.conversion * (shape.type === 'radius' ? shape.radius : shape.width / 2);
  const latDelta = rad_deg(height / EARTH_RADIUS_IN_METERS);
  const longDeltaTop = rad_deg(width / EARTH_RADIUS_IN_METERS / Math.cos(deg_rad(latitude + latDelta)));
  const longDeltaBottom = rad_deg(width / EARTH_RADIUS_IN_METERS / Math.cos(deg_rad(latitude - latDelta)));
  const southern = latitude < 0;
  return [
    southern ? longitude - longDeltaBottom : longitude - longDeltaTop,
    latitude - latDelta,
    southern ? longitude + longDeltaBottom : longitude + longDeltaTop,
    latitude + latDelta,
  ];
}

const NONE: Cell = { lat: 0, lon: 0, step: 0 };

/** geohash_move_x/_y: a neighbour, wrapping around; an axis not moved keeps its bits as they are. */
function moved(c: Cell, dlon: number, dlat: number): Cell {
  const mask = 2 ** c.step - 1;
  return {
    lat: dlat === 0 ? c.lat : (c.lat + dlat) & mask,
    lon: dlon === 0 ? c.lon : (c.lon + dlon) & mask,
    step: c.step,
  };
}

/**
 * geohashCalculateAreasByShapeWGS84: the center cell and its eight neighbours, in the order
 * membersOfAllNeighbors visits them (center, N, S, E, W, NE, NW, SE, SW); useless ones are NONE.
 */
export function searchCells(shape: Shape): Cell[] {
  const [minLon, minLat, maxLon, maxLat] = boundingBox(shape);
  const [longitude, latitude] = shape.xy;
  const radiusMeters =
    (shape.type === 'radius'
      ? shape.radius
      : Math.sqrt((shape.width / 2) * (shape.width / 2) + (shape.height / 2) * (shape.height / 2))) * shape.conversion;
  let steps = estimateStepsByRadius(radiusMeters, latitude);
  let hash = encode(WGS84_LONG, WGS84_LAT, longitude, latitude, steps) as Cell;
  const north = decode(moved(hash, 0, 1));
  const south = decode(moved(hash, 0, -1));
  const east = decode(moved(hash, 1, 0));
  const west = decode(moved(hash, -1, 0));
  const decrease =
    north.latitude.max < maxLat || south.latitude.min > minLat || east.longitude.max < maxLon || west.longitude.min > minLon;
  if (steps > 1 && decrease) {
    steps--;
    hash = encode(WGS84_LONG, WGS84_LAT, longitude, latitude, steps) as Cell;
  }
  const area = decode(hash);
  let n = moved(hash, 0, 1);
  let s = moved(hash, 0, -1);
  let e = moved(hash, 1, 0);
  let w = moved(hash, -1, 0);
  let ne = moved(hash, 1, 1);
  let nw = moved(hash, -1, 1);
  let se = moved(hash, 1, -1);
  let sw = moved(hash, -1, -1);
  if (steps >= 2) {
    if (area.latitude.min < minLat) s = sw = se = NONE;
    if (area.latitude.max > maxLat) n = ne = nw = NONE;
    if (area.longitude.min < minLon) w = sw = nw = NONE;
    if (area.longitude.max > maxLon) e = se = ne = NONE;
  }
  return [hash, n, s, e, w, ne, nw, se, sw];
}

/** geoWithinShape: the distance (meters) from the shape's center when the point is inside. */
export function distanceWithin(shape: Shape, x: number, y: number): number | undefined {
  const [x1, y1] = shape.xy;
  if (shape.type === 'radius') {
    const d = distance(x1, y1, x, y);
    return d > shape.radius * shape.conversion ? undefined : d;
  }
  const lonDistance = distance(x, y, x1, y);
  const latDist = distance(x, y, x, y1);
  if (lonDistance > (shape.width * shape.conversion) / 2 || latDist > (shape.height * shape.conversion) / 2) return undefined;
  return distance(x1, y1, x, y);
}

/** scoresOfGeoHashBox: the cell's score range [min, max). */
export function cellScores(c: Cell): [number, number] {
  const shift = 2 ** (52 - c.step * 2);
  const bits = interleave(c.lat, c.lon);
  return [bits * shift, (bits + 1) * shift];
}

/** Latitude bits at the even positions, longitude at the odd, for indexes of up to 26 bits. */
function interleave(lat: number, lon: number): number {
  const lo = spread(lat & 0x1fff) | (spread(lon & 0x1fff) << 1);
  const hi = spread(lat >>> 13) | (spread(lon >>> 13) << 1);
  return hi * 2 ** 26 + (lo >>> 0);
}

/** A 16-bit value's bits spread to the even positions of 32. */
function spread(v: number): number {
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v >>> 0;
}

/** The even-position bits of a 32-bit value, packed into 16. */
function compact(v: number): number {
  v &= 0x55555555;
  v = (v | (v >>> 1)) & 0x33333333;
  v = (v | (v >>> 2)) & 0x0f0f0f0f;
  v = (v | (v >>> 4)) & 0x00ff00ff;
  v = (v | (v >>> 8)) & 0x0000ffff;
  return v;
}

const TWO_32 = 2 ** 32;
const TWO_63 = 2 ** 63;
const TWO_64 = 2n ** 64n;

/** The (uint64_t) cast of a score as x86-64 gcc does it, as [high, low] 32-bit words. */
function uint64Words(score: number): [number, number] {
  if (score >= 0 && score < 2 ** 53) {
    const t = Math.trunc(score);
    return [Math.floor(t / TWO_32), t % TWO_32];
  }
  let n: bigint;
  if (score >= 0 && score < 2 ** 64) n = BigInt(Math.trunc(score));
  else if (score < 0 && score > -TWO_63) n = (BigInt(Math.trunc(score)) + TWO_64) % TWO_64;
  else if (score >= 2 ** 64) n = 0n; // cvttsd2si's "indefinite" with the top bit flipped back
  else n = 1n << 63n;
  return [Number(n >> 32n), Number(n & 0xffffffffn)];
}

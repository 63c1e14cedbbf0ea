// The 'draw' check: SRANDMEMBER and SPOP answer members drawn at random from the set at
// argv[1], so the two sides' replies cannot be equal byte for byte. They must have the same
// shape and size, every member Larder drew must belong to the set, and a positive count (and
// any SPOP) must draw distinct members.
//
// SPOP also changes the set differently on each side. Both remaining sets plus what each side
// popped must give the same set back; then each side puts back what it popped and both remove
// what Redis popped, so the rest of the run goes on from equal states. (Putting everything
// back first makes the encodings agree too: Redis rebuilds a set, possibly as an intset, when
// SPOP takes most of it, and re-adding the members gives both sides the same encoding again.)

import { larderCall } from './larder-resp2.js';
import { parseResp, type RespValue } from './resp-client.js';
import type { Sides } from './harness.js';

/** Why the draws differ; undefined when they agree. Resyncs the sides after an SPOP. */
export async function checkDraw(sides: Sides, argv: readonly string[], redisRaw: string, larderRaw: string): Promise<string | undefined> {
  const redis = parseResp(redisRaw);
  const larder = parseResp(larderRaw);
  const shape = shapeOf(redis);
  if (shape !== shapeOf(larder)) return `reply shapes differ (${shape} and ${shapeOf(larder)})`;
  if (shape === 'other') return redisRaw === larderRaw ? undefined : 'replies differ';
  if (shape === 'nil') return undefined;
  const fromRedis = drawn(redis);
  const fromLarder = drawn(larder);
  if (fromRedis.length !== fromLarder.length) return `drew ${fromLarder.length} members, Redis ${fromRedis.length}`;
  const name = argv[0].toLowerCase();
  const distinct = name === 'spop' || argv.length < 3 || !argv[2].startsWith('-');
  if (distinct && new Set(fromLarder).size !== fromLarder.length) return 'drew a member twice';
  const key = argv[1];
  if (name === 'srandmember') {
    // Nothing drawn, nothing to check: reading a missing set would publish a keymiss on Redis's side only.
    if (fromLarder.length === 0) return undefined;
    const members = new Set(await membersOn(sides, 'redis', key));
    return fromLarder.every((m) => members.has(m)) ? undefined : 'drew a member the set does not have';
  }
  return checkPop(sides, key, fromRedis, fromLarder);
}

type Shape = 'nil' | 'bulk' | 'array' | 'other';

function shapeOf(v: RespValue): Shape {
  if (v === null) return 'nil';
  if (typeof v === 'string') return 'bulk';
  return Array.isArray(v) ? 'array' : 'other';
}

function drawn(v: RespValue): string[] {
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

async function checkPop(sides: Sides, key: string, fromRedis: string[], fromLarder: string[]): Promise<string | undefined> {
  const restRedis = await membersOn(sides, 'redis', key);
  const restLarder = await membersOn(sides, 'larder', key);
  const before = (rest: string[], popped: string[]) => JSON.stringify([...new Set([...rest, ...popped])].sort());
  if (before(restRedis, fromRedis) !== before(restLarder, fromLarder)) return 'the set before SPOP differs';
  if (restLarder.some((m) => fromLarder.includes(m))) return 'popped a member the set still has';
  const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  if (restRedis.length === 0 || same(fromRedis, fromLarder)) return undefined;
  await sides.redis.call(['SADD', key, ...fromRedis]);
  await larderCall(sides.larder, ['SADD', key, ...fromLarder]);
  await sides.redis.call(['SREM', key, ...fromRedis]);
  await larderCall(sides.larder, ['SREM', key, ...fromRedis]);
  return undefined;
}

async function membersOn(sides: Sides, side: 'redis' | 'larder', key: string): Promise<string[]> {
  const raw = side === 'redis' ? await sides.redis.call(['SMEMBERS', key]) : (await larderCall(sides.larder, ['SMEMBERS', key])).raw;
  const v = parseResp(raw);
  return Array.isArray(v) ? v.map(String) : [];
}

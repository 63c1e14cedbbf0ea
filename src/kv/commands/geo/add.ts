// GEOADD: as in Redis, a ZADD whose scores are the members' 52-bit geohashes, published as
// ZADD's `zadd` event. Every pair is checked before the key is touched, so a bad pair creates
// nothing.

import { scoreOf } from '../../engine/geo/geohash.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { UPDATED, ZSET_KIND, ZSet } from '../../engine/zset/zset-value.js';
import { isError, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { ArgReader } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { readTyped } from '../typed.js';
import { readLonLat } from './coords.js';

// GEOADD key [NX | XX] [CH] longitude latitude member [longitude latitude member ...]
export function geoaddCommand(ctx: Ctx, argv: Args): Reply {
  const r = new ArgReader(argv, 2);
  const opts = r.flags('nx', 'xx', 'ch');
  const at = r.at;
  const nx = opts.has('nx');
  const xx = opts.has('xx');
  const ch = opts.has('ch');
  const rest = argv.length - at;
  if (rest === 0 || rest % 3 !== 0 || (nx && xx)) return SYNTAX;
  const scores: number[] = [];
  for (let i = at; i < argv.length; i += 3) {
    const xy = readLonLat(argv, i);
    if (isError(xy)) return xy;
    scores.push(scoreOf(xy[0], xy[1]) as number);
  }

  const found = readTyped<ZSet>(ctx.ks, argv[1], ZSET_KIND);
  if (isError(found)) return found;
  let z = found;
  if (z === undefined) {
    if (xx) return unchanged(ctx, 0);
    z = new ZSet();
    ctx.ks.insert(argv[1], z, 0);
  }
  let added = 0;
  let updated = 0;
  for (let j = 0; j < scores.length; j++) {
    const member = argv[at + 3 * j + 2];
    if (z.score(member) === undefined) {
      if (xx) continue;
      z.add(member, scores[j]);
      added++;
    } else if (!nx && z.add(member, scores[j]) === UPDATED) {
      updated++;
    }
  }
  const reply = ch ? added + updated : added;
  if (added + updated === 0) return unchanged(ctx, reply);
  ctx.events.notify(KeyEvent.zset, 'zadd', argv[1]);
  return reply;
}

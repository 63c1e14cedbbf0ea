// Keyspace commands that work on keys of any type (Redis db.c, expire.c).

import type { Reply } from '../reply.js';
import { ALL_KEYS, family, type Args, type Ctx } from './spec.js';

export default family('generic', 'keyspace', [
  { name: 'del', arity: -2, flags: ['write'], keys: ALL_KEYS, run: delCommand },
]);

// DEL key [key ...]
function delCommand(ctx: Ctx, argv: Args): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) if (ctx.ks.delete(argv[i])) n++;
  return n;
}

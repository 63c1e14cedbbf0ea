// Server commands (Redis server.c, db.c).

import { OK, type Reply } from '../reply.js';
import { family, NO_KEYS, type Args, type Ctx } from './spec.js';

export default family('server', null, [
  { name: 'dbsize', arity: 1, flags: ['readonly', 'fast'], keys: NO_KEYS, acl: ['keyspace'], run: dbsizeCommand },
  { name: 'flushdb', arity: -1, flags: ['write', 'dangerous'], keys: NO_KEYS, acl: ['keyspace'], run: flushCommand },
  { name: 'flushall', arity: -1, flags: ['write', 'dangerous'], keys: NO_KEYS, acl: ['keyspace'], run: flushCommand },
]);

// DBSIZE
function dbsizeCommand(ctx: Ctx): Reply {
  return ctx.ks.size;
}

// FLUSHDB [ASYNC | SYNC], FLUSHALL [ASYNC | SYNC]
function flushCommand(ctx: Ctx, _argv: Args): Reply {
  ctx.ks.clear();
  return OK;
}

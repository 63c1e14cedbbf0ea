// String commands (Redis t_string.c).

import { WRONGTYPE } from '../errors.js';
import { OK, type Reply } from '../reply.js';
import { family, ONE_KEY, type Args, type Ctx } from './spec.js';

export default family('string', 'string', [
  { name: 'get', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: getCommand },
  { name: 'set', arity: -3, flags: ['write'], keys: ONE_KEY, run: setCommand },
]);

/** The string at `key`: its bytes, null when absent, WRONGTYPE for other types. */
export function getString(ctx: Ctx, key: string) {
  const v = ctx.ks.get(key);
  return v === undefined ? null : typeof v === 'string' ? v : WRONGTYPE;
}

// GET key
function getCommand(ctx: Ctx, argv: Args): Reply {
  return getString(ctx, argv[1]);
}

// SET key value
function setCommand(ctx: Ctx, argv: Args): Reply {
  ctx.ks.set(argv[1], argv[2]);
  return OK;
}

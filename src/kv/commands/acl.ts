// ACL commands (Redis acl.c), plus Upstash's ACL RESTTOKEN.

import type { Reply } from '../reply.js';
import { family, NO_KEYS, type Ctx } from './spec.js';

export default family('acl', null, [
  { name: 'acl', arity: -2, flags: [], keys: NO_KEYS, run: aclCommand },
]);

// ACL WHOAMI
function aclCommand(ctx: Ctx): Reply {
  return ctx.caller.user;
}

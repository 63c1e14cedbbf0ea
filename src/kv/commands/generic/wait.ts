// WAIT and WAITAOF. An embedded database has no replicas, so no count of them grows by waiting:
// both answer 0 replicas at once, where a standalone Redis waits out the timeout for the same
// answer. WAITAOF's local count is the database's log: 1 once an fdatasync covers every write
// so far, of every caller (Upstash's reading, broader than Redis's writes of one connection).

import { NOT_INTEGER, NOT_POSITIVE, ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger, parseTimeoutMs } from '../args.js';
import type { Args, Ctx } from '../spec.js';

const NUMLOCAL_RANGE = new ReplyError('ERR value is out of range, value must between 0 and 1');

// WAIT numreplicas timeout
export function waitCommand(_ctx: Ctx, argv: Args): Reply {
  if (parseInteger(argv[1]) === undefined) return NOT_INTEGER;
  const timeout = parseTimeoutMs(argv[2]);
  return timeout instanceof ReplyError ? timeout : 0;
}

// WAITAOF numlocal numreplicas timeout
export function waitaofCommand(ctx: Ctx, argv: Args): Reply {
  const numlocal = parseInteger(argv[1]);
  if (numlocal === undefined) return NOT_INTEGER;
  if (numlocal < 0 || numlocal > 1) return NUMLOCAL_RANGE;
  const numreplicas = parseInteger(argv[2]);
  if (numreplicas === undefined) return NOT_INTEGER;
  if (numreplicas < 0) return NOT_POSITIVE;
  const timeoutMs = parseTimeoutMs(argv[3]);
  if (timeoutMs instanceof ReplyError) return timeoutMs;
  const answer = (synced: boolean): Reply => [synced ? 1 : 0, 0];
  const synced = ctx.writesSynced();
  // In a transaction, a pipeline or a script nothing waits: the count is what holds now.
  if (numlocal === 0 || synced || ctx.awaitDisk === undefined) return answer(synced);
  ctx.awaitDisk({ timeoutMs, answer });
  return answer(false);
}

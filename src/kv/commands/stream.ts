// Stream commands (Redis t_stream.c, with Redis 8.2's XDELEX and XACKDEL): the family's
// declarations. Handlers live in stream/; the value, and its registration as a container
// kind, in engine/stream/. XREAD and XREADGROUP BLOCK wait through Ctx.block, bounded by the
// database's maxBlockMs (BLOCK 0 waits that long); inside a pipeline or transaction they do
// not wait, as Redis does not inside MULTI.

import '../engine/stream/stream-value.js';
import { container, family, NO_KEYS, ONE_KEY, type Flag, type KeySpec } from './spec.js';
import { xaddCommand, xtrimCommand } from './stream/add-trim.js';
import { xackdelCommand, xdelexCommand } from './stream/delete-refs.js';
import {
  XGROUP_HELP,
  xackCommand,
  xgroupCreateCommand,
  xgroupCreateconsumerCommand,
  xgroupDelconsumerCommand,
  xgroupDestroyCommand,
  xgroupSetidCommand,
} from './stream/group.js';
import { XINFO_HELP, xinfoConsumersCommand, xinfoGroupsCommand, xinfoStreamCommand } from './stream/info.js';
import { xautoclaimCommand, xclaimCommand, xpendingCommand } from './stream/pending.js';
import { xdelCommand, xlenCommand, xrangeGeneric, xsetidCommand } from './stream/range.js';
import { xreadCommand, xreadgroupCommand } from './stream/read.js';

const WRITE_FAST: readonly Flag[] = ['write', 'fast'];
/** XACK, XCLAIM and XAUTOCLAIM look their stream up as a read (Redis's lookupKeyRead). */
const READING_WRITE_FAST: readonly Flag[] = [...WRITE_FAST, 'readLookups'];
const EXACT_TRIM = 'MAXLEN ~ and MINID ~ trim exactly to the threshold (Upstash), where Redis removes whole nodes of entries only';
/** A container subcommand's key: XGROUP CREATE key ... */
const SUB_KEY: KeySpec = { first: 2, last: 2, step: 1 };

export default family('stream', 'stream', [
  { name: 'xadd', arity: -5, flags: WRITE_FAST, keys: ONE_KEY, deviates: EXACT_TRIM, run: xaddCommand },
  { name: 'xrange', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: (ctx, argv) => xrangeGeneric(ctx, argv, false) },
  { name: 'xrevrange', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: (ctx, argv) => xrangeGeneric(ctx, argv, true) },
  { name: 'xlen', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: xlenCommand },
  { name: 'xdel', arity: -3, flags: WRITE_FAST, keys: ONE_KEY, run: xdelCommand },
  { name: 'xtrim', arity: -4, flags: ['write'], keys: ONE_KEY, deviates: EXACT_TRIM, run: xtrimCommand },
  { name: 'xsetid', arity: -3, flags: WRITE_FAST, keys: ONE_KEY, run: xsetidCommand },
  {
    name: 'xread',
    arity: -4,
    flags: ['readonly'],
    keys: { halfAfter: 'streams', from: 1 },
    acl: ['blocking'],
    run: xreadCommand,
  },
  {
    name: 'xreadgroup',
    arity: -7,
    flags: ['write', 'readLookups'],
    keys: { halfAfter: 'streams', from: 4 },
    acl: ['blocking'],
    run: xreadgroupCommand,
  },
  container('xgroup', [
    { name: 'create', arity: -5, flags: ['write'], keys: SUB_KEY, run: xgroupCreateCommand },
    { name: 'setid', arity: -5, flags: ['write'], keys: SUB_KEY, run: xgroupSetidCommand },
    { name: 'destroy', arity: 4, flags: ['write'], keys: SUB_KEY, run: xgroupDestroyCommand },
    { name: 'createconsumer', arity: 5, flags: ['write'], keys: SUB_KEY, run: xgroupCreateconsumerCommand },
    { name: 'delconsumer', arity: 5, flags: ['write'], keys: SUB_KEY, run: xgroupDelconsumerCommand },
    { name: 'help', arity: 2, flags: [], keys: NO_KEYS, run: () => XGROUP_HELP },
  ]),
  { name: 'xack', arity: -4, flags: READING_WRITE_FAST, keys: ONE_KEY, run: xackCommand },
  { name: 'xpending', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: xpendingCommand },
  { name: 'xclaim', arity: -6, flags: READING_WRITE_FAST, keys: ONE_KEY, run: xclaimCommand },
  { name: 'xautoclaim', arity: -6, flags: READING_WRITE_FAST, keys: ONE_KEY, run: xautoclaimCommand },
  container('xinfo', [
    { name: 'stream', arity: -3, flags: ['readonly'], keys: SUB_KEY, run: xinfoStreamCommand },
    { name: 'groups', arity: 3, flags: ['readonly'], keys: SUB_KEY, run: xinfoGroupsCommand },
    { name: 'consumers', arity: 4, flags: ['readonly'], keys: SUB_KEY, run: xinfoConsumersCommand },
    { name: 'help', arity: 2, flags: [], keys: NO_KEYS, run: () => XINFO_HELP },
  ]),
  // Redis 8.2.
  { name: 'xdelex', arity: -5, flags: WRITE_FAST, keys: ONE_KEY, run: xdelexCommand },
  { name: 'xackdel', arity: -6, flags: WRITE_FAST, keys: ONE_KEY, run: xackdelCommand },
]);

// Sorted-set commands (Redis t_zset.c): the family's declarations, as COMMAND INFO reports
// them on Redis 7.0. Handlers live in zset/; the value in engine/zset/.

import '../engine/zset/zset-value.js'; // registers the zset kind before any snapshot loads
import { admitsPicks, MAX_RANDOM_PICKS } from './random-picks.js';
import { family, ONE_KEY, refused, type KeySpec } from './spec.js';
import { zaddCommand, zincrbyCommand } from './zset/add.js';
import {
  zdiffCommand,
  zdiffstoreCommand,
  zintercardCommand,
  zinterCommand,
  zinterstoreCommand,
  zunionCommand,
  zunionstoreCommand,
} from './zset/combine.js';
import { zmpopCommand, zpopmaxCommand, zpopminCommand } from './zset/pop.js';
import { zrandmemberCommand } from './zset/random.js';
import {
  zrangebylexCommand,
  zrangebyscoreCommand,
  zrangeCommand,
  zrangestoreCommand,
  zrevrangebylexCommand,
  zrevrangebyscoreCommand,
  zrevrangeCommand,
} from './zset/range.js';
import {
  zcardCommand,
  zcountCommand,
  zlexcountCommand,
  zmscoreCommand,
  zrankCommand,
  zrevrankCommand,
  zscoreCommand,
} from './zset/read.js';
import { zremCommand, zremrangebylexCommand, zremrangebyrankCommand, zremrangebyscoreCommand } from './zset/remove.js';
import { zscanCommand } from './zset/scan.js';

const TWO_KEYS: KeySpec = { first: 1, last: 2, step: 1 }; //              ZRANGESTORE dst src
const COUNTED: KeySpec = { countAt: 1 }; //                                 ZUNION numkeys key ...
const STORE_COUNTED: KeySpec = { countAt: 2, dest: 1 }; //                 ZUNIONSTORE dst numkeys key ...
const ALL_BUT_TIMEOUT: KeySpec = { first: 1, last: -2, step: 1 }; //       BZPOPMIN key ... timeout

const LIMIT_WITH_INDEX_RANGE =
  'LIMIT is accepted with an index range and pages it (the SDK sends zrange offset/count without byScore); Redis refuses it';
const RANK_WITHSCORE = 'takes WITHSCORE (Redis 7.2), which Redis 7.0 refuses by arity';

export default family('zset', 'sortedset', [
  { name: 'zadd', arity: -4, flags: ['write', 'fast'], keys: ONE_KEY, run: zaddCommand },
  { name: 'zincrby', arity: 4, flags: ['write', 'fast'], keys: ONE_KEY, run: zincrbyCommand },
  { name: 'zrem', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: zremCommand },
  { name: 'zcard', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: zcardCommand },
  { name: 'zcount', arity: 4, flags: ['readonly', 'fast'], keys: ONE_KEY, run: zcountCommand },
  { name: 'zlexcount', arity: 4, flags: ['readonly', 'fast'], keys: ONE_KEY, run: zlexcountCommand },
  { name: 'zscore', arity: 3, flags: ['readonly', 'fast'], keys: ONE_KEY, run: zscoreCommand },
  { name: 'zmscore', arity: -3, flags: ['readonly', 'fast'], keys: ONE_KEY, run: zmscoreCommand },
  { name: 'zrank', arity: -3, flags: ['readonly', 'fast'], keys: ONE_KEY, deviates: RANK_WITHSCORE, run: zrankCommand },
  { name: 'zrevrank', arity: -3, flags: ['readonly', 'fast'], keys: ONE_KEY, deviates: RANK_WITHSCORE, run: zrevrankCommand },
  { name: 'zrange', arity: -4, flags: ['readonly'], keys: ONE_KEY, deviates: LIMIT_WITH_INDEX_RANGE, run: zrangeCommand },
  {
    name: 'zrangestore',
    arity: -5,
    flags: ['write', 'readLookups'],
    keys: TWO_KEYS,
    deviates: LIMIT_WITH_INDEX_RANGE,
    run: zrangestoreCommand,
  },
  { name: 'zrangebyscore', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: zrangebyscoreCommand },
  { name: 'zrevrangebyscore', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: zrevrangebyscoreCommand },
  { name: 'zrangebylex', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: zrangebylexCommand },
  { name: 'zrevrangebylex', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: zrevrangebylexCommand },
  { name: 'zrevrange', arity: -4, flags: ['readonly'], keys: ONE_KEY, run: zrevrangeCommand },
  { name: 'zunion', arity: -3, flags: ['readonly'], keys: COUNTED, run: zunionCommand },
  { name: 'zinter', arity: -3, flags: ['readonly'], keys: COUNTED, run: zinterCommand },
  { name: 'zdiff', arity: -3, flags: ['readonly'], keys: COUNTED, run: zdiffCommand },
  { name: 'zunionstore', arity: -4, flags: ['write', 'readLookups'], keys: STORE_COUNTED, run: zunionstoreCommand },
  { name: 'zinterstore', arity: -4, flags: ['write', 'readLookups'], keys: STORE_COUNTED, run: zinterstoreCommand },
  { name: 'zdiffstore', arity: -4, flags: ['write', 'readLookups'], keys: STORE_COUNTED, run: zdiffstoreCommand },
  { name: 'zintercard', arity: -3, flags: ['readonly'], keys: COUNTED, run: zintercardCommand },
  {
    name: 'zrandmember',
    arity: -2,
    flags: ['readonly'],
    keys: ONE_KEY,
    deviates: `a negative count beyond ${MAX_RANDOM_PICKS} is refused before the key is read, where Redis builds a reply of any size`,
    admits: admitsPicks,
    run: zrandmemberCommand,
  },
  { name: 'zmpop', arity: -4, flags: ['write'], keys: COUNTED, run: zmpopCommand },
  { name: 'zpopmin', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: zpopminCommand },
  { name: 'zpopmax', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: zpopmaxCommand },
  { name: 'zremrangebyrank', arity: 4, flags: ['write'], keys: ONE_KEY, run: zremrangebyrankCommand },
  { name: 'zremrangebyscore', arity: 4, flags: ['write'], keys: ONE_KEY, run: zremrangebyscoreCommand },
  { name: 'zremrangebylex', arity: 4, flags: ['write'], keys: ONE_KEY, run: zremrangebylexCommand },
  { name: 'zscan', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: zscanCommand },
  // Blocking: refused by name, as everywhere in Larder.
  { name: 'bzpopmin', arity: -3, flags: ['write', 'fast', 'unsupported'], keys: ALL_BUT_TIMEOUT, acl: ['blocking'], run: refused },
  { name: 'bzpopmax', arity: -3, flags: ['write', 'fast', 'unsupported'], keys: ALL_BUT_TIMEOUT, acl: ['blocking'], run: refused },
  { name: 'bzmpop', arity: -5, flags: ['write', 'unsupported'], keys: { countAt: 2 }, acl: ['blocking'], run: refused },
]);

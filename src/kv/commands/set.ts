// Set commands (Redis t_set.c): the family's declarations. Handlers live in set/, the value
// in engine/set/ (imported through them, which registers the set kind).

import { admitsPicks, MAX_RANDOM_PICKS } from './random-picks.js';
import { ALL_KEYS, family, ONE_KEY, type KeySpec } from './spec.js';
import {
  sdiffCommand,
  sdiffstoreCommand,
  sintercardCommand,
  sinterCommand,
  sinterstoreCommand,
  sunionCommand,
  sunionstoreCommand,
} from './set/algebra.js';
import {
  saddCommand,
  scardCommand,
  sismemberCommand,
  smembersCommand,
  smismemberCommand,
  smoveCommand,
  sremCommand,
} from './set/members.js';
import { spopCommand, srandmemberCommand } from './set/random.js';
import { sscanCommand } from './set/sscan.js';

const TWO_KEYS: KeySpec = { first: 1, last: 2, step: 1 };

export default family('set', 'set', [
  { name: 'sadd', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: saddCommand },
  { name: 'srem', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: sremCommand },
  { name: 'smove', arity: 4, flags: ['write', 'fast'], keys: TWO_KEYS, run: smoveCommand },
  { name: 'sismember', arity: 3, flags: ['readonly', 'fast'], keys: ONE_KEY, run: sismemberCommand },
  { name: 'smismember', arity: -3, flags: ['readonly', 'fast'], keys: ONE_KEY, run: smismemberCommand },
  { name: 'scard', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: scardCommand },
  { name: 'smembers', arity: 2, flags: ['readonly'], keys: ONE_KEY, run: smembersCommand },
  { name: 'spop', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: spopCommand },
  {
    name: 'srandmember',
    arity: -2,
    flags: ['readonly'],
    keys: ONE_KEY,
    deviates: `a negative count beyond ${MAX_RANDOM_PICKS} is refused before the key is read, where Redis builds a reply of any size`,
    admits: admitsPicks,
    run: srandmemberCommand,
  },
  { name: 'sinter', arity: -2, flags: ['readonly'], keys: ALL_KEYS, run: sinterCommand },
  { name: 'sintercard', arity: -3, flags: ['readonly'], keys: { countAt: 1 }, run: sintercardCommand },
  { name: 'sinterstore', arity: -3, flags: ['write', 'readLookups'], keys: ALL_KEYS, run: sinterstoreCommand },
  { name: 'sunion', arity: -2, flags: ['readonly'], keys: ALL_KEYS, run: sunionCommand },
  { name: 'sunionstore', arity: -3, flags: ['write', 'readLookups'], keys: ALL_KEYS, run: sunionstoreCommand },
  { name: 'sdiff', arity: -2, flags: ['readonly'], keys: ALL_KEYS, run: sdiffCommand },
  { name: 'sdiffstore', arity: -3, flags: ['write', 'readLookups'], keys: ALL_KEYS, run: sdiffstoreCommand },
  { name: 'sscan', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: sscanCommand },
]);

// List commands (Redis t_list.c): the family's declarations. Handlers live in list/. The
// blocking forms are declared so they are known and refused (the REST API cannot block).

import {
  lmoveCommand,
  lmpopCommand,
  lpopCommand,
  lpushCommand,
  lpushxCommand,
  rpopCommand,
  rpoplpushCommand,
  rpushCommand,
  rpushxCommand,
} from './list/ends.js';
import { lindexCommand, llenCommand, lrangeCommand, lsetCommand, ltrimCommand } from './list/positions.js';
import { linsertCommand, lposCommand, lremCommand } from './list/search.js';
import { family, ONE_KEY, refused, type KeySpec } from './spec.js';

const TWO_KEYS: KeySpec = { first: 1, last: 2, step: 1 };
const KEYS_BEFORE_TIMEOUT: KeySpec = { first: 1, last: -2, step: 1 }; // BLPOP key [key ...] timeout

export default family('list', 'list', [
  { name: 'lpush', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: lpushCommand },
  { name: 'rpush', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: rpushCommand },
  { name: 'lpushx', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: lpushxCommand },
  { name: 'rpushx', arity: -3, flags: ['write', 'fast'], keys: ONE_KEY, run: rpushxCommand },
  { name: 'lpop', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: lpopCommand },
  { name: 'rpop', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: rpopCommand },
  { name: 'llen', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: llenCommand },
  { name: 'lrange', arity: 4, flags: ['readonly'], keys: ONE_KEY, run: lrangeCommand },
  { name: 'lindex', arity: 3, flags: ['readonly'], keys: ONE_KEY, run: lindexCommand },
  { name: 'lset', arity: 4, flags: ['write'], keys: ONE_KEY, run: lsetCommand },
  { name: 'lrem', arity: 4, flags: ['write'], keys: ONE_KEY, run: lremCommand },
  { name: 'ltrim', arity: 4, flags: ['write'], keys: ONE_KEY, run: ltrimCommand },
  { name: 'linsert', arity: 5, flags: ['write'], keys: ONE_KEY, run: linsertCommand },
  { name: 'lpos', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: lposCommand },
  { name: 'lmove', arity: 5, flags: ['write'], keys: TWO_KEYS, run: lmoveCommand },
  { name: 'rpoplpush', arity: 3, flags: ['write'], keys: TWO_KEYS, run: rpoplpushCommand },
  { name: 'lmpop', arity: -4, flags: ['write'], keys: { countAt: 1 }, run: lmpopCommand },
  { name: 'blpop', arity: -3, flags: ['write', 'unsupported'], keys: KEYS_BEFORE_TIMEOUT, acl: ['blocking'], run: refused },
  { name: 'brpop', arity: -3, flags: ['write', 'unsupported'], keys: KEYS_BEFORE_TIMEOUT, acl: ['blocking'], run: refused },
  { name: 'brpoplpush', arity: 4, flags: ['write', 'unsupported'], keys: TWO_KEYS, acl: ['blocking'], run: refused },
  { name: 'blmove', arity: 6, flags: ['write', 'unsupported'], keys: TWO_KEYS, acl: ['blocking'], run: refused },
  { name: 'blmpop', arity: -5, flags: ['write', 'unsupported'], keys: { countAt: 2 }, acl: ['blocking'], run: refused },
]);

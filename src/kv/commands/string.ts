// String commands (Redis t_string.c): the family's declarations. Handlers live in string/.

import { ALL_KEYS, family, ONE_KEY, type KeySpec } from './spec.js';
import { decrbyCommand, decrCommand, incrbyCommand, incrbyfloatCommand, incrCommand } from './string/counter.js';
import {
  getCommand,
  getdelCommand,
  getexCommand,
  getsetCommand,
  mgetCommand,
  msetCommand,
  msetexCommand,
  msetnxCommand,
  psetexCommand,
  setCommand,
  setexCommand,
  setnxCommand,
} from './string/get-set.js';
import { delexCommand, digestCommand } from './string/compare.js';
import { lcsCommand } from './string/lcs.js';
import { appendCommand, getrangeCommand, setrangeCommand, strlenCommand } from './string/range.js';

const EVERY_OTHER_KEY: KeySpec = { first: 1, last: -1, step: 2 }; // key value key value ...
const TWO_KEYS: KeySpec = { first: 1, last: 2, step: 1 };
const COUNTED_PAIRS: KeySpec = { countAt: 1, step: 2 }; // numkeys key value key value ...

export default family('string', 'string', [
  { name: 'get', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: getCommand },
  { name: 'set', arity: -3, flags: ['write'], keys: ONE_KEY, run: setCommand },
  { name: 'setnx', arity: 3, flags: ['write', 'fast'], keys: ONE_KEY, run: setnxCommand },
  { name: 'setex', arity: 4, flags: ['write'], keys: ONE_KEY, run: setexCommand },
  { name: 'psetex', arity: 4, flags: ['write'], keys: ONE_KEY, run: psetexCommand },
  { name: 'getset', arity: 3, flags: ['write', 'fast', 'readLookups'], keys: ONE_KEY, run: getsetCommand },
  { name: 'getdel', arity: 2, flags: ['write', 'fast', 'readLookups'], keys: ONE_KEY, run: getdelCommand },
  { name: 'getex', arity: -2, flags: ['write', 'fast', 'readLookups'], keys: ONE_KEY, run: getexCommand },
  { name: 'mget', arity: -2, flags: ['readonly', 'fast'], keys: ALL_KEYS, run: mgetCommand },
  { name: 'mset', arity: -3, flags: ['write'], keys: EVERY_OTHER_KEY, run: msetCommand },
  { name: 'msetnx', arity: -3, flags: ['write'], keys: EVERY_OTHER_KEY, run: msetnxCommand },
  { name: 'msetex', arity: -4, flags: ['write'], keys: COUNTED_PAIRS, run: msetexCommand },
  { name: 'delex', arity: -2, flags: ['write', 'fast'], keys: ONE_KEY, run: delexCommand },
  { name: 'digest', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: digestCommand },
  { name: 'incr', arity: 2, flags: ['write', 'fast'], keys: ONE_KEY, run: incrCommand },
  { name: 'decr', arity: 2, flags: ['write', 'fast'], keys: ONE_KEY, run: decrCommand },
  { name: 'incrby', arity: 3, flags: ['write', 'fast'], keys: ONE_KEY, run: incrbyCommand },
  { name: 'decrby', arity: 3, flags: ['write', 'fast'], keys: ONE_KEY, run: decrbyCommand },
  { name: 'incrbyfloat', arity: 3, flags: ['write', 'fast'], keys: ONE_KEY, run: incrbyfloatCommand },
  { name: 'append', arity: 3, flags: ['write', 'fast'], keys: ONE_KEY, run: appendCommand },
  { name: 'strlen', arity: 2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: strlenCommand },
  { name: 'getrange', arity: 4, flags: ['readonly'], keys: ONE_KEY, run: getrangeCommand },
  { name: 'substr', arity: 4, flags: ['readonly'], keys: ONE_KEY, run: getrangeCommand },
  { name: 'setrange', arity: 4, flags: ['write'], keys: ONE_KEY, run: setrangeCommand },
  { name: 'lcs', arity: -3, flags: ['readonly'], keys: TWO_KEYS, run: lcsCommand },
]);

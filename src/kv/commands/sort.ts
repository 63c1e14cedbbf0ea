// SORT and SORT_RO (Redis sort.c, command group "generic"). Their ACL categories are not
// @keyspace but those of the types they sort, so they form their own mixed family.
// Key specs: the sorted key, and the destination found after the STORE keyword (Redis finds it
// with sortGetKeys); the BY/GET keys come from the data, as in Redis.

import { family, ONE_KEY, type KeySpec } from './spec.js';
import { sortCommand, sortRemoteArgs, sortRoCommand } from './sort/sort-command.js';

const TYPES = ['set', 'sortedset', 'list'];
const SORT_KEYS: KeySpec = { first: 1, last: 1, step: 1, keyword: { from: 2, names: ['store'] } };

export default family('sort', null, [
  { name: 'sort', arity: -2, flags: ['write', 'dangerous', 'readLookups'], keys: SORT_KEYS, acl: TYPES, remoteArgs: sortRemoteArgs, run: sortCommand },
  { name: 'sort_ro', arity: -2, flags: ['readonly', 'dangerous'], keys: ONE_KEY, acl: TYPES, remoteArgs: sortRemoteArgs, run: sortRoCommand },
]);

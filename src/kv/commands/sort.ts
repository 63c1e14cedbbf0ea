// SORT and SORT_RO (Redis sort.c, command group "generic"). Their ACL categories are not
// @keyspace but those of the types they sort, so they form their own mixed family.
// Key specs: only the sorted key. The STORE destination sits after a keyword anywhere in argv,
// which KeySpec cannot express (Redis marks it "unknown" and finds it with sortGetKeys), and
// the BY/GET keys come from the data, as in Redis.

import { family, ONE_KEY } from './spec.js';
import { sortCommand, sortRoCommand } from './sort/sort-command.js';

const TYPES = ['set', 'sortedset', 'list'];

export default family('sort', null, [
  { name: 'sort', arity: -2, flags: ['write', 'dangerous'], keys: ONE_KEY, acl: TYPES, run: sortCommand },
  { name: 'sort_ro', arity: -2, flags: ['readonly', 'dangerous'], keys: ONE_KEY, acl: TYPES, run: sortRoCommand },
]);

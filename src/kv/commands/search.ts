// Upstash Redis Search (SEARCH.*): the family's declarations. Handlers live in search/; the
// indexes themselves in ../search/. Every command is 'embedded': the remote backend refuses
// them, as plain Redis has no SEARCH.* (the index names are not keys, so none declares keys).
// Read-only tokens may describe, list, query and count; creating and dropping are writes.

import { createCommand, describeCommand, dropCommand, listindexesCommand } from './search/index-admin.js';
import { countCommand, queryCommand } from './search/query.js';
import { family, NO_KEYS } from './spec.js';

export default family('search', null, [
  { name: 'search.create', arity: -7, flags: ['write', 'embedded'], keys: NO_KEYS, run: createCommand },
  { name: 'search.drop', arity: 2, flags: ['write', 'embedded'], keys: NO_KEYS, run: dropCommand },
  { name: 'search.describe', arity: 2, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: describeCommand },
  { name: 'search.listindexes', arity: -1, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: listindexesCommand },
  { name: 'search.query', arity: -3, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: queryCommand },
  { name: 'search.count', arity: 3, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: countCommand },
]);

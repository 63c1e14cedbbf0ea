// Upstash Redis Search (SEARCH.*): the family's declarations. Handlers live in search/; the
// indexes themselves in ../search/. Every command is 'embedded': the remote backend refuses
// them, as plain Redis has no SEARCH.* (the index names are not keys, so none declares keys).
// Read-only tokens may describe, list, wait, query, count and aggregate; creating, dropping,
// reindexing and aliasing are writes. Every command but DROP takes an alias where it takes an index name.

import { aggregateCommand } from './search/aggregate.js';
import { aliasaddCommand, aliasdelCommand, listaliasesCommand } from './search/aliases.js';
import { createCommand, describeCommand, dropCommand, listindexesCommand, reindexCommand, waitindexingCommand } from './search/index-admin.js';
import { countCommand, queryCommand } from './search/query.js';
import { family, NO_KEYS } from './spec.js';

export default family('search', null, [
  { name: 'search.create', arity: -7, flags: ['write', 'embedded'], keys: NO_KEYS, run: createCommand },
  { name: 'search.drop', arity: 2, flags: ['write', 'embedded'], keys: NO_KEYS, run: dropCommand },
  { name: 'search.reindex', arity: 2, flags: ['write', 'embedded'], keys: NO_KEYS, run: reindexCommand },
  { name: 'search.describe', arity: 2, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: describeCommand },
  { name: 'search.listindexes', arity: -1, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: listindexesCommand },
  { name: 'search.waitindexing', arity: 2, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: waitindexingCommand },
  { name: 'search.aliasadd', arity: 3, flags: ['write', 'embedded'], keys: NO_KEYS, run: aliasaddCommand },
  { name: 'search.aliasdel', arity: 2, flags: ['write', 'embedded'], keys: NO_KEYS, run: aliasdelCommand },
  { name: 'search.listaliases', arity: 1, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: listaliasesCommand },
  { name: 'search.query', arity: -3, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: queryCommand },
  { name: 'search.count', arity: 3, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: countCommand },
  { name: 'search.aggregate', arity: 4, flags: ['readonly', 'embedded'], keys: NO_KEYS, run: aggregateCommand },
]);

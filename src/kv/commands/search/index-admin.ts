// SEARCH.CREATE, SEARCH.DROP, SEARCH.REINDEX, SEARCH.DESCRIBE, SEARCH.WAITINDEXING, SEARCH.LISTINDEXES: index definitions.

import { globMatch } from '../../../text/glob.js';
import { isError, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { LIMIT_RANGE, OFFSET_RANGE } from '../../search/errors.js';
import { describeReply } from '../../search/schema.js';
import { ArgReader } from '../args.js';
import { parseCreate } from './create-args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';

// SEARCH.CREATE name [SKIPINITIALSCAN] [EXISTSOK] ON JSON|HASH|STRING PREFIX n prefix... [LANGUAGE l] SCHEMA field type [FAST] [NOSTEM] [NOTOKENIZE] [FROM source]...
export function createCommand(ctx: Ctx, argv: Args): Reply {
  const req = parseCreate(argv);
  if (isError(req)) return req;
  const created = ctx.search.create(req);
  // An identical index met with EXISTSOK changes nothing, so nothing is logged.
  return created === 0 ? unchanged(ctx, 0) : created;
}

// SEARCH.DROP name   (a name, never an alias: the reference's rule for replacing indexes)
export function dropCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.search.drop(argv[1]) ? 1 : unchanged(ctx, 0);
}

// SEARCH.REINDEX name   (or an alias)
// Rebuilds the index from the current keys, those SKIPINITIALSCAN left out included.
export function reindexCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.search.reindex(argv[1]) ? 1 : unchanged(ctx, 0);
}

// SEARCH.DESCRIBE name
export function describeCommand(ctx: Ctx, argv: Args): Reply {
  const index = ctx.search.get(argv[1]);
  return index === undefined ? null : describeReply(index.def);
}

// SEARCH.WAITINDEXING name
// Writes reach the indexes before they are answered, so there is never anything to wait for.
export function waitindexingCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.search.get(argv[1]) === undefined ? 0 : 1;
}

// SEARCH.LISTINDEXES [MATCH pattern] [LIMIT count] [OFFSET offset]
// One entry per index, sorted by name: a map of its name and type, as RESP2 pairs.
export function listindexesCommand(ctx: Ctx, argv: Args): Reply {
  const r = new ArgReader(argv);
  let pattern: string | null = null;
  let limit = 0;
  let offset = 0;
  for (let w = r.word('match', 'limit', 'offset'); w !== undefined; w = r.word('match', 'limit', 'offset')) {
    if (w === 'match') pattern = r.next();
    else if (w === 'limit') limit = r.int();
    else offset = r.int();
  }
  if (!r.done) r.fail(SYNTAX);
  if (limit < 0) r.fail(LIMIT_RANGE);
  if (offset < 0) r.fail(OFFSET_RANGE);
  if (r.error !== null) return r.error;
  const named = ctx.search.list().filter((index) => pattern === null || globMatch(pattern, index.def.name));
  const page = named.slice(offset, limit === 0 ? undefined : offset + limit);
  return page.map((index) => ['name', index.def.name, 'type', index.def.dataType]);
}

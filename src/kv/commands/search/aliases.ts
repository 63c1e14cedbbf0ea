// SEARCH.ALIASADD, SEARCH.ALIASDEL, SEARCH.LISTALIASES: stable names for indexes, so an index
// can be rebuilt under a new name and the alias moved to it in one step.

import type { Reply } from '../../reply.js';
import { unchanged, type Args, type Ctx } from '../spec.js';

// SEARCH.ALIASADD alias index   (the index need not exist yet)
export function aliasaddCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.search.addAlias(argv[1], argv[2]);
}

// SEARCH.ALIASDEL alias
export function aliasdelCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.search.deleteAlias(argv[1]) ? 1 : unchanged(ctx, 0);
}

// SEARCH.LISTALIASES
export function listaliasesCommand(ctx: Ctx): Reply {
  return ctx.search.listAliases();
}

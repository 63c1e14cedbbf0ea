// FUNCTION LOAD, LIST, DELETE, FLUSH, STATS, DUMP, RESTORE (Redis functions.c). LOAD, DELETE,
// FLUSH and RESTORE are writes, so the log replays them; snapshots keep every library.

import {
  FUNCTION_BAD_PAYLOAD,
  FUNCTION_FLUSH_OPTION,
  FUNCTION_RESTORE_POLICY,
  functionUnknownArgument,
  functionUnknownOption,
  LIBRARY_NAME_MISSING,
  LIBRARY_NOT_FOUND,
  subcommandSyntax,
} from '../../errors.js';
import { FunctionRegistry } from '../../engine/scripting/functions.js';
import { globMatch } from '../../../text/glob.js';
import { OK, Status, type Reply } from '../../reply.js';
import type { Args, Ctx } from '../spec.js';

// FUNCTION LOAD [REPLACE] function-code
export function functionLoadCommand(ctx: Ctx, argv: Args): Reply {
  let replace = false;
  for (let i = 2; i < argv.length - 1; i++) {
    if (argv[i].toLowerCase() !== 'replace') return functionUnknownOption(argv[i]);
    replace = true;
  }
  return ctx.scripting.functions.load(argv[argv.length - 1], replace);
}

// FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE]
export function functionListCommand(ctx: Ctx, argv: Args): Reply {
  let withCode = false;
  let pattern: string | null = null;
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i].toLowerCase();
    if (word === 'withcode' && !withCode) {
      withCode = true;
    } else if (word === 'libraryname' && pattern === null) {
      if (i + 1 >= argv.length) return LIBRARY_NAME_MISSING;
      pattern = argv[++i];
    } else {
      return functionUnknownArgument(argv[i]);
    }
  }
  return ctx.scripting.functions
    .all()
    .filter((lib) => pattern === null || globMatch(pattern, lib.name, false))
    .map((lib) => {
      const functions = lib.functions.map((f) => [
        'name', f.name, 'description', f.description, 'flags', f.flags.map((flag) => new Status(flag)),
      ]);
      const out: Reply[] = ['library_name', lib.name, 'engine', 'LUA', 'functions', functions];
      if (withCode) out.push('library_code', lib.code);
      return out;
    });
}

// FUNCTION DELETE library-name
export function functionDeleteCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.scripting.functions.delete(argv[2]) ? OK : LIBRARY_NOT_FOUND;
}

// FUNCTION FLUSH [ASYNC | SYNC]
export function functionFlushCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3 || (argv.length === 3 && !['async', 'sync'].includes(argv[2].toLowerCase()))) return FUNCTION_FLUSH_OPTION;
  ctx.scripting.functions.flush();
  return OK;
}

// FUNCTION STATS: no function is ever running when a command is read (see SCRIPT KILL).
export function functionStatsCommand(ctx: Ctx): Reply {
  const functions = ctx.scripting.functions;
  return [
    'running_script', null,
    'engines', ['LUA', ['libraries_count', functions.all().length, 'functions_count', functions.functionCount]],
  ];
}

// FUNCTION DUMP: Larder's own payload (every library's code), not Redis's RDB encoding.
export function functionDumpCommand(ctx: Ctx): Reply {
  return ctx.scripting.functions.dump();
}

// FUNCTION RESTORE serialized-value [FLUSH | APPEND | REPLACE]
export function functionRestoreCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 4) return subcommandSyntax('restore', 'function');
  const policy = argv.length === 4 ? argv[3].toLowerCase() : 'append';
  if (policy !== 'flush' && policy !== 'append' && policy !== 'replace') return FUNCTION_RESTORE_POLICY;
  const codes = FunctionRegistry.undump(argv[2]);
  if (codes === null) return FUNCTION_BAD_PAYLOAD;
  return ctx.scripting.functions.restore(codes, policy) ?? OK;
}

// COMMAND: the command table, as Redis describes its own (server.c commandCommand and
// friends). Read from ctx.commands, never imported: the table imports this family.

import { SYNTAX, unknownSubcommand, wrongArity } from '../../errors.js';
import { globMatch } from '../../../text/glob.js';
import { Status, type Reply } from '../../reply.js';
import { FAST, NOSCRIPT, READONLY, WRITE, type Args, type Command, type Ctx } from '../spec.js';

/** Redis's ACL category order (acl.c ACLCommandCategories), in which COMMAND INFO lists them. */
const CATEGORY_ORDER = [
  'keyspace', 'read', 'write', 'set', 'sortedset', 'list', 'hash', 'string', 'bitmap', 'hyperloglog', 'geo',
  'stream', 'pubsub', 'admin', 'fast', 'slow', 'blocking', 'dangerous', 'connection', 'transaction', 'scripting',
];

// COMMAND | COMMAND COUNT | COMMAND INFO [name ...] | COMMAND LIST [FILTERBY MODULE m | ACLCAT c | PATTERN p]
export function commandCommand(ctx: Ctx, argv: Args): Reply {
  const all = ctx.commands;
  if (argv.length === 1) return [...all.values()].map(commandInfo);
  switch (argv[1].toLowerCase()) {
    case 'count':
      return argv.length === 2 ? all.size : wrongArity('command|count');
    case 'info':
      if (argv.length === 2) return [...all.values()].map(commandInfo);
      return argv.slice(2).map((name) => {
        const cmd = all.get(name.toLowerCase());
        return cmd === undefined ? null : commandInfo(cmd);
      });
    case 'list':
      return listCommand(all, argv);
    default:
      return unknownSubcommand(argv[1], 'command');
  }
}

function listCommand(all: ReadonlyMap<string, Command>, argv: Args): Reply {
  if (argv.length === 2) return [...all.keys()];
  if (argv.length !== 5 || argv[2].toLowerCase() !== 'filterby') return SYNTAX;
  const arg = argv[4];
  let keep: (cmd: Command) => boolean;
  switch (argv[3].toLowerCase()) {
    case 'module':
      return [];
    case 'aclcat': {
      const category = arg.toLowerCase();
      keep = (cmd) => category !== 'all' && cmd.categories.has(category);
      break;
    }
    case 'pattern':
      keep = (cmd) => globMatch(arg, cmd.name, true);
      break;
    default:
      return SYNTAX;
  }
  return [...all.values()].filter(keep).map((cmd) => cmd.name);
}

/** [name, arity, flags, first key, last key, key step, ACL categories, tips, key specs, subcommands] */
function commandInfo(cmd: Command): Reply {
  const flags: Status[] = [];
  if (cmd.bits & WRITE) flags.push(new Status('write'));
  if (cmd.bits & READONLY) flags.push(new Status('readonly'));
  if (cmd.flags.includes('admin')) flags.push(new Status('admin'));
  if (cmd.bits & NOSCRIPT) flags.push(new Status('noscript'));
  if (cmd.bits & FAST) flags.push(new Status('fast'));
  const keys = cmd.keys;
  // Redis's legacy key range leaves counted keys out, and keeps a destination (ZUNIONSTORE: 1 1 1).
  let range = [0, 0, 0];
  if (keys !== null && 'first' in keys) range = [keys.first, keys.last, keys.step];
  else if (keys !== null && 'countAt' in keys && keys.dest !== undefined) range = [keys.dest, keys.dest, 1];
  if (keys !== null && !('first' in keys && keys.keyword === undefined)) flags.push(new Status('movablekeys'));
  const categories = [...cmd.categories]
    .filter((c) => c !== 'all')
    .sort((a, b) => rank(a) - rank(b))
    .map((c) => new Status(`@${c}`));
  return [cmd.name, cmd.arity, flags, ...range, categories, [], [], []];
}

function rank(category: string): number {
  const i = CATEGORY_ORDER.indexOf(category);
  return i === -1 ? CATEGORY_ORDER.length : i;
}

// ACL commands (Redis acl.c), plus Upstash's ACL RESTTOKEN. ACL is a container: each subcommand
// declares its own arity and flags, as in Redis, so admission refuses ACL SETUSER to read-only
// tokens (admin) and `-acl|setuser` works as an ACL rule, while WHOAMI stays open. Users and
// tokens live in the database's AclRegistry (acl/registry.ts), which also persists them.

import { randomBytes } from 'node:crypto';
import { DENIED_COMMAND, DENIED_KEY, type Denial } from '../acl/selector.js';
import {
  ACL_GENPASS_BITS,
  aclNoSuchCommand,
  aclNoSuchUser,
  aclUnknownCategory,
  isError,
  NOT_INTEGER,
  subcommandSyntax,
} from '../errors.js';
import { OK, Status, type Reply } from '../reply.js';
import { resolve } from './admit.js';
import { parseInteger } from './args.js';
import { CATEGORIES, container, family, keysOf, NO_KEYS, type Args, type Ctx } from './spec.js';

// Flags as Redis declares them: administration is @admin @dangerous; WHOAMI, CAT, GENPASS and
// HELP are not. RESTTOKEN is like AUTH: it needs the user's password, so it is not admin either.
// All of them are 'gateway': the users and tokens are Larder's, so a remote backend runs them
// here rather than on its Redis.
export default family('acl', null, [
  container('acl', [
    { name: 'cat', arity: -2, flags: ['gateway'], keys: NO_KEYS, run: catCommand },
    { name: 'deluser', arity: -3, flags: ['admin', 'gateway'], keys: NO_KEYS, run: deluserCommand },
    { name: 'dryrun', arity: -4, flags: ['admin', 'gateway'], keys: NO_KEYS, run: dryrunCommand },
    { name: 'genpass', arity: -2, flags: ['gateway'], keys: NO_KEYS, run: genpassCommand },
    { name: 'gentoken', arity: -3, flags: ['gateway'], keys: NO_KEYS, run: gentokenCommand },
    { name: 'getuser', arity: 3, flags: ['admin', 'gateway'], keys: NO_KEYS, run: getuserCommand },
    { name: 'help', arity: 2, flags: ['gateway'], keys: NO_KEYS, run: helpCommand },
    { name: 'list', arity: 2, flags: ['admin', 'gateway'], keys: NO_KEYS, run: listCommand },
    // No ACL file: users are saved on every change, so there is nothing newer to load or save (OK, as on Upstash).
    { name: 'load', arity: 2, flags: ['admin', 'gateway'], keys: NO_KEYS, run: () => OK },
    { name: 'log', arity: -2, flags: ['admin', 'gateway'], keys: NO_KEYS, run: logCommand },
    { name: 'resttoken', arity: 4, flags: ['gateway', 'changesServer'], keys: NO_KEYS, run: resttokenCommand },
    { name: 'save', arity: 2, flags: ['admin', 'gateway'], keys: NO_KEYS, run: () => OK },
    { name: 'setuser', arity: -3, flags: ['admin', 'gateway'], keys: NO_KEYS, run: setuserCommand },
    { name: 'users', arity: 2, flags: ['admin', 'gateway'], keys: NO_KEYS, run: usersCommand },
    { name: 'whoami', arity: 2, flags: ['gateway'], keys: NO_KEYS, run: whoamiCommand },
  ]),
]);

// ACL CAT [category]
function catCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3) return subcommandSyntax(argv[1], 'acl');
  if (argv.length === 2) return [...CATEGORIES];
  const category = argv[2].toLowerCase();
  if (!CATEGORIES.has(category)) return aclUnknownCategory(argv[2]);
  return ctx.commands.every
    .filter((c) => c.categories.has(category))
    .map((c) => c.name);
}

// ACL DELUSER username [username ...]
function deluserCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.acl.deleteUsers(argv.slice(2));
}

// ACL DRYRUN username command [arg ...]
function dryrunCommand(ctx: Ctx, argv: Args): Reply {
  const user = ctx.acl.user(argv[2]);
  if (user === undefined) return aclNoSuchUser(argv[2]);
  const args = argv.slice(3);
  const found = ctx.commands.lookup(args[0]);
  if (found === undefined) return aclNoSuchCommand(args[0]);
  const cmd = resolve(found, args);
  if (isError(cmd)) return cmd;
  const denial = user.deny(cmd, args, keysOf(cmd, args));
  return denial === null ? OK : dryrunText(denial);
}

/** DRYRUN answers a refusal as a bulk string in Redis's verbose wording, not as an error. */
function dryrunText(d: Pick<Denial, 'rank' | 'object'>): string {
  if (d.rank === DENIED_COMMAND) return `This user has no permissions to run the '${d.object}' command`;
  return `This user has no permissions to access the '${d.object}' ${d.rank === DENIED_KEY ? 'key' : 'channel'}`;
}

// ACL GENPASS [bits]
function genpassCommand(_ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3) return subcommandSyntax(argv[1], 'acl');
  let bits = 256;
  if (argv.length === 3) {
    const n = parseInteger(argv[2]);
    if (n === undefined) return NOT_INTEGER;
    if (n <= 0 || n > 4096) return ACL_GENPASS_BITS;
    bits = n;
  }
  const chars = Math.floor((bits + 3) / 4);
  return randomBytes(Math.ceil(chars / 2))
    .toString('hex')
    .slice(0, chars);
}

// ACL GENTOKEN username [password] (Upstash's): a token to set as the user's password and to use as its REST token.
function gentokenCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 4) return subcommandSyntax(argv[1], 'acl');
  return ctx.acl.genToken(argv[2], argv[3]);
}

// ACL GETUSER username
function getuserCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.acl.user(argv[2])?.fields() ?? null;
}

const HELP: readonly Status[] = [
  'ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CAT [<category>]',
  '    List all commands that belong to <category>, or all command categories',
  '    when no category is specified.',
  'DELUSER <username> [<username> ...]',
  '    Delete a list of users.',
  'DRYRUN <username> <command> [<arg> ...]',
  '    Returns whether the user can execute the given command without executing the command.',
  'GETUSER <username>',
  "    Get the user's details.",
  'GENPASS [<bits>]',
  '    Generate a secure 256-bit user password. The optional `bits` argument can',
  '    be used to specify a different size.',
  'GENTOKEN <username> [<password>]',
  '    Return a token wrapping <password> (or a generated one): set it with >token, use it as a REST token.',
  'LIST',
  '    Show users details in config file format.',
  'LOG [<count> | RESET]',
  '    Show the ACL log entries.',
  'RESTTOKEN <username> <password>',
  '    Return a REST token that runs commands as <username>, with its permissions.',
  'SETUSER <username> <attribute> [<attribute> ...]',
  '    Create or modify a user with the specified attributes.',
  'USERS',
  '    List all the registered usernames.',
  'WHOAMI',
  '    Return the current connection username.',
  'HELP',
  '    Prints this help.',
].map((line) => new Status(line));

// ACL HELP
function helpCommand(): Reply {
  return HELP;
}

// ACL LIST
function listCommand(ctx: Ctx): Reply {
  return ctx.acl.list().map((u) => ['user', u.name, ...u.describe()].join(' '));
}

// ACL LOG [count | RESET]
// Refusals are answered, not recorded, so the log is always empty.
function logCommand(_ctx: Ctx, argv: Args): Reply {
  if (argv.length > 3) return subcommandSyntax(argv[1], 'acl');
  if (argv.length === 3) {
    if (argv[2].toLowerCase() === 'reset') return OK;
    if (parseInteger(argv[2]) === undefined) return NOT_INTEGER;
  }
  return [];
}

// ACL RESTTOKEN username password
function resttokenCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.acl.restToken(argv[2], argv[3]);
}

// ACL SETUSER username [rule ...]
function setuserCommand(ctx: Ctx, argv: Args): Reply {
  return ctx.acl.setUser(argv[2], argv.slice(3)) ?? OK;
}

// ACL USERS
function usersCommand(ctx: Ctx): Reply {
  return ctx.acl.list().map((u) => u.name);
}

// ACL WHOAMI
function whoamiCommand(ctx: Ctx): Reply {
  return ctx.caller.user;
}

// Connection commands. Over REST there is no connection, so only PING and ECHO make sense;
// the rest are declared so they are refused by name.

import { wrongArity } from '../errors.js';
import { PONG, type Reply } from '../reply.js';
import { family, NO_KEYS, refused, type Args, type Ctx } from './spec.js';

export default family('connection', 'connection', [
  { name: 'ping', arity: -1, flags: ['fast'], keys: NO_KEYS, run: pingCommand },
  { name: 'echo', arity: 2, flags: ['fast'], keys: NO_KEYS, run: echoCommand },
  ...['auth', 'hello', 'select', 'client', 'quit', 'reset'].map((name) => ({
    name,
    arity: -1,
    flags: ['unsupported' as const],
    keys: NO_KEYS,
    run: refused,
  })),
]);

// PING [message]
function pingCommand(_ctx: Ctx, argv: Args): Reply {
  if (argv.length > 2) return wrongArity('ping');
  return argv.length === 2 ? argv[1] : PONG;
}

// ECHO message
function echoCommand(_ctx: Ctx, argv: Args): Reply {
  return argv[1];
}

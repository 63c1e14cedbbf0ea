// Connection commands. Over REST there is no connection, so only PING, ECHO and CLIENT SETINFO
// (the SDK's clientSetinfo, answered OK as Upstash does: there is no client list to show it in)
// make sense; the rest are declared so they are refused by name.

import { clientAttrInvalid, clientUnknownAttr, wrongArity } from '../errors.js';
import { OK, PONG, type Reply } from '../reply.js';
import { container, family, NO_KEYS, refused, type Args, type Ctx } from './spec.js';

const unsupported = (name: string) => ({ name, arity: -1, flags: ['unsupported' as const], keys: NO_KEYS, run: refused });

/** Redis 7.2's CLIENT subcommands but SETINFO: each is about a connection REST does not have. */
const CONNECTION_STATE = [
  'caching', 'getname', 'getredir', 'help', 'id', 'info', 'kill', 'list', 'no-evict', 'no-touch', 'pause',
  'reply', 'setname', 'tracking', 'trackinginfo', 'unblock', 'unpause',
];

export default family('connection', 'connection', [
  { name: 'ping', arity: -1, flags: ['fast'], keys: NO_KEYS, run: pingCommand },
  { name: 'echo', arity: 2, flags: ['fast'], keys: NO_KEYS, run: echoCommand },
  // Larder's own (gateway): a remote backend must not rename its shared connection.
  container('client', [
    { name: 'setinfo', arity: 4, flags: ['noscript', 'gateway'], keys: NO_KEYS, run: clientSetinfoCommand },
    ...CONNECTION_STATE.map(unsupported),
  ]),
  ...['auth', 'hello', 'select', 'quit', 'reset'].map(unsupported),
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

// CLIENT SETINFO <LIB-NAME | LIB-VER> value: checked as Redis 7.2 does, then nothing to keep.
function clientSetinfoCommand(_ctx: Ctx, argv: Args): Reply {
  const attr = argv[2];
  if (!['lib-name', 'lib-ver'].includes(attr.toLowerCase())) return clientUnknownAttr(attr);
  // Printable ASCII without spaces, as Redis's validateClientAttr.
  if (!/^[!-~]*$/.test(argv[3])) return clientAttrInvalid(attr);
  return OK;
}

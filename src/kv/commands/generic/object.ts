// OBJECT: what Redis would say about a key's internals (Redis object.c objectCommand). Larder
// stores values its own way, so ENCODING and REFCOUNT answer what Redis 7 would answer for
// the same value; IDLETIME is real.

import { LFU_NOT_SELECTED, unknownSubcommand, wrongArity } from '../../errors.js';
import { stringEncoding } from '../../engine/redis-memory.js';
import type { Value } from '../../engine/value.js';
import { Status, type Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import type { Args, Ctx } from '../spec.js';

/** Redis shares the integer objects 0..9999 (OBJ_SHARED_INTEGERS); they report this refcount. */
const SHARED_INTEGERS = 10000;
const SHARED_REFCOUNT = 2147483647;

const HELP: readonly Reply[] = [
  'OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'ENCODING <key>',
  '    Return the kind of internal representation used in order to store the value',
  '    associated with a <key>.',
  'FREQ <key>',
  '    Return the access frequency index of the <key>. The returned integer is',
  '    proportional to the logarithm of the recent access frequency of the key.',
  'IDLETIME <key>',
  '    Return the idle time of the <key>, that is the approximated number of',
  '    seconds elapsed since the last access to the key.',
  'REFCOUNT <key>',
  '    Return the number of references of the value associated with the specified',
  '    <key>.',
  'HELP',
  '    Prints this help.',
].map((line) => new Status(line));

// OBJECT ENCODING|FREQ|IDLETIME|REFCOUNT key, OBJECT HELP
export function objectCommand(ctx: Ctx, argv: Args): Reply {
  const sub = argv[1].toLowerCase();
  const known = sub === 'encoding' || sub === 'freq' || sub === 'idletime' || sub === 'refcount';
  if (!known && sub !== 'help') return unknownSubcommand(argv[1], 'object');
  if (argv.length !== (known ? 3 : 2)) return wrongArity(`object|${sub}`);
  if (!known) return HELP;
  // Redis looks the key up without a keymiss event (objectCommandLookup: LOOKUP_NONOTIFY).
  const s = ctx.ks.find(argv[2]);
  if (s === undefined) return null;
  const value = ctx.ks.valueAt(s);
  switch (sub) {
    case 'encoding':
      return encodingOf(value);
    case 'freq':
      return LFU_NOT_SELECTED;
    case 'idletime':
      return ctx.ks.idleSecondsAt(s);
    default:
      return typeof value === 'string' && isSharedInteger(value) ? SHARED_REFCOUNT : 1;
  }
}

/** Redis's encoding for a fresh value (see stringEncoding for strings). */
function encodingOf(v: Value): string {
  return typeof v === 'string' ? stringEncoding(v) : (v.kind.encoding?.(v) ?? v.kind.type);
}

function isSharedInteger(s: string): boolean {
  const n = s.length <= 4 ? parseInt64(s) : undefined;
  return n !== undefined && n >= 0n && n < BigInt(SHARED_INTEGERS);
}

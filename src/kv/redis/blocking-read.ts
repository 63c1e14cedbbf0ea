// XREAD and XREADGROUP with BLOCK on a remote server. Blocked, a read holds its connection
// until it is answered, so it never goes on the shared one (every request behind it would
// wait): a single command runs on a connection of its own, and waits at most the database's
// maxBlockMs (BLOCK 0 too), as on the embedded engine. In a pipeline or transaction it does
// not wait, as on the embedded engine: BLOCK is dropped (a read without it answers at once).

import { parseInteger } from '../commands/args.js';
import type { Args } from '../commands/spec.js';

/** Where the timeout of a read's BLOCK option is in argv, or -1. Options come before STREAMS. */
export function blockTimeoutAt(argv: Args): number {
  for (let i = 1; i < argv.length - 1; ) {
    const word = argv[i].toLowerCase();
    if (word === 'streams') return -1;
    if (word === 'block') return i + 1;
    i += word === 'group' ? 3 : word === 'count' ? 2 : 1; // GROUP <group> <consumer>, COUNT <n>
  }
  return -1;
}

/** The read with its timeout bounded by `maxMs`; a timeout that is not one is the server's to refuse. */
export function boundedBlock(argv: Args, at: number, maxMs: number): Args {
  const ms = parseInteger(argv[at]);
  if (ms === undefined || ms < 0 || (ms > 0 && ms <= maxMs)) return argv;
  const out = [...argv];
  out[at] = String(maxMs);
  return out;
}

/** The read without its BLOCK option. */
export const withoutBlock = (argv: Args, at: number): Args => [...argv.slice(0, at - 1), ...argv.slice(at + 1)];

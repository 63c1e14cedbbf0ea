// MEMORY USAGE: what a redis-server 7.0 holding the same key would report (engine/redis-memory.ts).

import { DEFAULT_SAMPLES, memoryUsage } from '../../engine/redis-memory.js';
import { NOT_INTEGER, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import type { Args, Ctx } from '../spec.js';

// MEMORY USAGE key [SAMPLES count]   (count 0: every element; nil for a missing key)
export function memoryUsageCommand(ctx: Ctx, argv: Args): Reply {
  let samples = DEFAULT_SAMPLES;
  // Options are checked before the key is looked up, as Redis does.
  for (let i = 3; i < argv.length; i++) {
    if (argv[i].toLowerCase() !== 'samples' || i + 1 === argv.length) return SYNTAX;
    const n = parseInt64(argv[++i]);
    if (n === undefined) return NOT_INTEGER;
    if (n < 0n) return SYNTAX;
    samples = Number(n);
  }
  // As OBJECT, without a keymiss event (Redis's objectCommandLookup).
  const s = ctx.ks.find(argv[2]);
  return s === undefined ? null : memoryUsage(argv[2], ctx.ks.valueAt(s), samples);
}

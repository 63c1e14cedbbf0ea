// BITOP (Redis bitops.c bitopCommand): AND, OR, XOR, NOT of Redis 7.0, and DIFF, DIFF1, ANDOR
// and ONE of Redis 8.2. Sources shorter than the longest read as zero bytes past their end.

import { toBuffer } from '../../bytes.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { BITOP_NOT_ONE_KEY, bitopTwoKeys, isError, SYNTAX } from '../../errors.js';
import type { Reply } from '../../reply.js';
import type { Args, Ctx } from '../spec.js';
import { storeResult } from '../store-result.js';
import { getString } from '../string/lookup.js';

type BitOp = 'and' | 'or' | 'xor' | 'not' | 'diff' | 'diff1' | 'andor' | 'one';
const OPS: ReadonlySet<string> = new Set<BitOp>(['and', 'or', 'xor', 'not', 'diff', 'diff1', 'andor', 'one']);
// These combine the first source with the union of the others, so they need two sources.
const FIRST_AGAINST_REST: ReadonlySet<BitOp> = new Set<BitOp>(['diff', 'diff1', 'andor']);

// BITOP <AND | OR | XOR | NOT | DIFF | DIFF1 | ANDOR | ONE> destkey key [key ...]
export function bitopCommand(ctx: Ctx, argv: Args): Reply {
  const op = argv[1].toLowerCase() as BitOp;
  if (!OPS.has(op)) return SYNTAX;
  if (op === 'not' && argv.length !== 4) return BITOP_NOT_ONE_KEY;
  if (FIRST_AGAINST_REST.has(op) && argv.length < 5) return bitopTwoKeys(argv[1]);
  const sources: Buffer[] = [];
  let length = 0;
  for (let i = 3; i < argv.length; i++) {
    const v = getString(ctx.ks, argv[i]);
    if (isError(v)) return v;
    const bytes = toBuffer(v ?? '');
    sources.push(bytes);
    length = Math.max(length, bytes.length);
  }
  // Every source empty or missing: nothing to store, so the destination goes, as in Redis.
  return storeResult(ctx, argv[2], combine(op, sources, length).toString('latin1'), length, KeyEvent.string, 'set');
}

/** The operation over `sources`, each zero-padded to `length` bytes. */
function combine(op: BitOp, sources: readonly Buffer[], length: number): Buffer {
  const out = Buffer.alloc(length);
  const [first, ...rest] = sources;
  if (op === 'not') {
    for (let j = 0; j < length; j++) out[j] = ~(first[j] ?? 0);
    return out;
  }
  if (FIRST_AGAINST_REST.has(op)) {
    // The union of all sources but the first, then that combined with the first.
    for (const s of rest) for (let j = 0; j < s.length; j++) out[j] |= s[j];
    for (let j = 0; j < length; j++) {
      const x = first[j] ?? 0;
      out[j] = op === 'diff' ? x & ~out[j] : op === 'diff1' ? ~x & out[j] : x & out[j];
    }
    return out;
  }
  first.copy(out);
  if (op === 'one') {
    // A bit set in two sources or more is set in `twice`, and cleared from the result.
    const twice = Buffer.alloc(length);
    for (const s of rest) {
      for (let j = 0; j < s.length; j++) {
        twice[j] |= out[j] & s[j];
        out[j] ^= s[j];
      }
    }
    for (let j = 0; j < length; j++) out[j] &= ~twice[j];
    return out;
  }
  for (const s of rest) {
    if (op === 'and') for (let j = 0; j < length; j++) out[j] &= s[j] ?? 0;
    else if (op === 'or') for (let j = 0; j < s.length; j++) out[j] |= s[j];
    else for (let j = 0; j < s.length; j++) out[j] ^= s[j];
  }
  return out;
}

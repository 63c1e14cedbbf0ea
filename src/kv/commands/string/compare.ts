// Compare-and-write on strings (Redis 8.4, documented by Upstash): DIGEST, DELEX, and the
// conditions SET takes. A digest is XXH3's 64 bits of the stored bytes as 16 lower-case hex
// digits (hash-wasm's XXH3, set up once when this module loads).

import { createXXHash3 } from 'hash-wasm';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { ReplyError, SYNTAX, isError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { ArgReader } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { getString, stringAt, stringSlot } from './lookup.js';

const xxh3 = await createXXHash3();

/** Larder's words: the reference says a digest has 16 characters, not how a malformed one is answered. */
export const BAD_DIGEST = new ReplyError('ERR digest must be 16 hexadecimal characters, as DIGEST gives it');

export type Condition =
  | { readonly word: 'nx' | 'xx' }
  | { readonly word: 'ifeq' | 'ifne' | 'ifdeq' | 'ifdne'; readonly operand: string };

const COMPARE_WORDS = ['ifeq', 'ifne', 'ifdeq', 'ifdne'] as const;

/** The 16 hex digits of `bytes`' XXH3 64-bit hash. */
export function digestOf(bytes: string): string {
  xxh3.init();
  xxh3.update(Buffer.from(bytes, 'latin1'));
  return xxh3.digest('hex');
}

/** A comparing condition (IFEQ v, IFNE v, IFDEQ d, IFDNE d) at the reader, if one is there. */
export function readComparison(r: ArgReader): Condition | undefined {
  const word = r.word(...COMPARE_WORDS);
  if (word === undefined) return undefined;
  const operand = r.next();
  if (word === 'ifeq' || word === 'ifne') return { word, operand };
  if (!/^[0-9a-f]{16}$/i.test(operand)) r.fail(BAD_DIGEST);
  return { word, operand: operand.toLowerCase() };
}

/** Whether a comparing condition needs the old value as a string (WRONGTYPE for another type). */
export const compares = (cond: Condition | undefined): boolean => cond !== undefined && cond.word !== 'nx' && cond.word !== 'xx';

/**
 * Whether `cond` lets the write go ahead: NX and XX look at whether the key `exists`; the
 * comparisons at its string `old` (IFEQ and IFDEQ need one, IFNE and IFDNE also write without).
 */
export function conditionHolds(cond: Condition, exists: boolean, old: string | undefined): boolean {
  switch (cond.word) {
    case 'nx':
      return !exists;
    case 'xx':
      return exists;
    case 'ifeq':
      return old === cond.operand;
    case 'ifne':
      return old !== cond.operand;
    case 'ifdeq':
      return old !== undefined && digestOf(old) === cond.operand;
    case 'ifdne':
      return old === undefined || digestOf(old) !== cond.operand;
  }
}

// DIGEST key: null for a missing key, WRONGTYPE for another type.
export function digestCommand(ctx: Ctx, argv: Args): Reply {
  const value = getString(ctx.ks, argv[1]);
  return typeof value === 'string' ? digestOf(value) : value;
}

// DELEX key [IFEQ value | IFNE value | IFDEQ digest | IFDNE digest]: 1 when deleted, else 0.
// Without a condition any type goes, as DEL; with one the key must hold a string.
export function delexCommand(ctx: Ctx, argv: Args): Reply {
  const ks = ctx.ks;
  const key = argv[1];
  if (argv.length === 2) return ks.delete(key) ? deleted(ctx, key) : unchanged(ctx, 0);
  if (argv.length !== 4) return SYNTAX;
  const r = new ArgReader(argv, 2);
  const cond = readComparison(r);
  if (r.error !== null) return r.error;
  if (cond === undefined) return SYNTAX;
  const s = stringSlot(ks, key);
  if (isError(s)) return s;
  if (s === undefined || !conditionHolds(cond, true, stringAt(ks, s))) return unchanged(ctx, 0);
  ks.delete(key);
  ctx.rewrite([['del', key]]);
  return deleted(ctx, key);
}

/** DELEX's answer for a key it deleted, after its `del` event. */
function deleted(ctx: Ctx, key: string): 1 {
  ctx.events.notify(KeyEvent.generic, 'del', key);
  return 1;
}

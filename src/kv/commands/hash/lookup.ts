// How the hash commands find their hash: through readTyped/writeTyped, so a missing key, a
// key of another type and a new hash are handled one way. Fields past their TTL are already
// gone by then (the keyspace deletes them on access, see keyspace.ts).

import { HASH_KIND, HashValue } from '../../engine/hash/hash-value.js';
import type { ReplyError } from '../../errors.js';
import type { Ctx } from '../spec.js';
import { readTyped, writeTyped } from '../typed.js';

/** The hash at `key`: undefined when absent, WRONGTYPE for another type. */
export function readHash(ctx: Ctx, key: string): HashValue | undefined | ReplyError {
  return readTyped<HashValue>(ctx.ks, key, HASH_KIND);
}

/** The hash at `key`, created empty when absent: call it only once every argument is checked. */
export function writeHash(ctx: Ctx, key: string): HashValue | ReplyError {
  return writeTyped(ctx.ks, key, HASH_KIND, () => new HashValue());
}

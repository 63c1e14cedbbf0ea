import type { ReplyError } from './errors.js';

/** A RESP simple string ("+OK"), as opposed to a bulk string (a byte string). */
export class Status {
  constructor(readonly text: string) {}
}

/**
 * What a command answers. Bulk strings are byte strings (see bytes.ts); integers are numbers,
 * or bigints beyond 2^53; floats are bulk strings, as in RESP2.
 */
export type Reply = null | number | bigint | string | Status | ReplyError | readonly Reply[];

export const OK = new Status('OK');
export const PONG = new Status('PONG');
export const QUEUED = new Status('QUEUED');

/**
 * RESP's null array ("*-1", where a null bulk is "$-1"): ZMPOP and LMPOP answer it when there
 * is nothing to pop. Recognised by identity; JSON shows it as null.
 */
export const NIL_ARRAY: readonly Reply[] = Object.freeze([]);

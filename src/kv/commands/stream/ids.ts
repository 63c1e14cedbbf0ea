// Stream id arguments as Redis's streamGenericParseIDOrReply reads them: "-", "+", "<ms>",
// "<ms>-<seq>", XADD's "<ms>-*", and "(" for an exclusive range bound.

import { makeId, MAX_ID, MIN_ID, parseU64, U64_MAX, type StreamId } from '../../engine/stream/stream-id.js';
import { INVALID_END_ID, INVALID_START_ID, INVALID_STREAM_ID, ReplyError } from '../../errors.js';

/** An XADD id: `seqGiven` false for "<ms>-*" (the sequence is picked). */
export interface AddId {
  readonly id: StreamId;
  readonly seqGiven: boolean;
}

/**
 * Parses an id. `missingSeq` fills in "<ms>" alone (0 for a start, U64_MAX for an end);
 * `strict` refuses "-" and "+"; `partial` accepts "<ms>-*" (XADD).
 */
export function parseIdArg(text: string, missingSeq: bigint, strict: boolean, partial = false): AddId | ReplyError {
  if (text.length > 127) return INVALID_STREAM_ID;
  const s = cString(text);
  if (s === '-' || s === '+') return strict ? INVALID_STREAM_ID : { id: s === '-' ? MIN_ID : MAX_ID, seqGiven: true };
  const dash = s.indexOf('-');
  const ms = parseU64(dash === -1 ? s : s.slice(0, dash));
  if (ms === undefined) return INVALID_STREAM_ID;
  if (dash === -1) return { id: makeId(ms, missingSeq), seqGiven: true };
  const seqText = s.slice(dash + 1);
  if (partial && seqText === '*') return { id: makeId(ms, 0n), seqGiven: false };
  const seq = parseU64(seqText);
  return seq === undefined ? INVALID_STREAM_ID : { id: makeId(ms, seq), seqGiven: true };
}

/** An id where "-" and "+" are allowed: a start (missing sequence 0) or an end (U64_MAX). */
export function parseId(text: string, end = false): StreamId | ReplyError {
  const r = parseIdArg(text, end ? U64_MAX : 0n, false);
  return r instanceof ReplyError ? r : r.id;
}

/** An id where "-" and "+" are not ids (XDEL, XACK, XCLAIM, XSETID, ...). */
export function parseStrictId(text: string): StreamId | ReplyError {
  const r = parseIdArg(text, 0n, true);
  return r instanceof ReplyError ? r : r.id;
}

/** A range bound: "(" makes it exclusive, which moves it one id inwards (XRANGE, XPENDING). */
export function parseBound(text: string, end: boolean): StreamId | ReplyError {
  const exclusive = text.length > 1 && text[0] === '(';
  const r = parseIdArg(exclusive ? text.slice(1) : text, end ? U64_MAX : 0n, exclusive);
  if (r instanceof ReplyError) return r;
  if (!exclusive) return r.id;
  if (end) return r.id === MIN_ID ? INVALID_END_ID : r.id - 1n;
  return r.id === MAX_ID ? INVALID_START_ID : r.id + 1n;
}

/** What the C string functions see: the bytes before the first NUL. */
function cString(s: string): string {
  const nul = s.indexOf('\x00');
  return nul === -1 ? s : s.slice(0, nul);
}

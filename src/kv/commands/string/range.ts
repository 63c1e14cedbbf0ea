// Byte ranges of a string: APPEND, STRLEN, GETRANGE (SUBSTR), SETRANGE. Offsets and lengths are
// byte counts (see kv/bytes.ts).

import { constants } from 'node:buffer';
import { isError, NOT_INTEGER, OFFSET_OUT_OF_RANGE, STRING_TOO_LONG, type ReplyError } from '../../errors.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { EDIT_IN_PLACE_MIN, editableAt, heldAt, storeEdited, stringSlot, type StringSlot } from './lookup.js';

// Redis caps a string at proto-max-bulk-len, 512MB. A JS string cannot be built quite that long
// on every runtime (V8 stops 24 bytes short), so the cap is whichever is smaller.
export const MAX_STRING_BYTES = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);

// APPEND key value
// A short result is concatenated (a rope, in JS); a long one is appended in place.
export function appendCommand(ctx: Ctx, argv: Args): Reply {
  const s = stringSlot(ctx.ks, argv[1]);
  if (isError(s)) return s;
  const length = s === undefined ? argv[2].length : appendTo(ctx, argv[1], s, argv[2]);
  if (isError(length)) return length;
  if (s === undefined) ctx.ks.insert(argv[1], argv[2], 0);
  ctx.events.notify(KeyEvent.string, 'append', argv[1]);
  return length;
}

/** Appends `tail` to the string in live slot `s`; its new length. */
function appendTo(ctx: Ctx, key: string, s: StringSlot, tail: string): number | ReplyError {
  const held = heldAt(ctx.ks, s);
  const end = held.length;
  const length = end + tail.length;
  if (length > MAX_STRING_BYTES) return STRING_TOO_LONG;
  if (typeof held === 'string' && length < EDIT_IN_PLACE_MIN) {
    ctx.ks.setValueAt(s, held + tail);
    return length;
  }
  const e = editableAt(ctx.ks, s, length);
  e.write(end, tail);
  storeEdited(ctx.ks, key, s, e);
  return length;
}

// STRLEN key
export function strlenCommand(ctx: Ctx, argv: Args): Reply {
  const s = stringSlot(ctx.ks, argv[1]);
  return s === undefined ? 0 : isError(s) ? s : heldAt(ctx.ks, s).length;
}

// GETRANGE key start end   (SUBSTR key start end, its old name)
export function getrangeCommand(ctx: Ctx, argv: Args): Reply {
  let start = parseInteger(argv[2]);
  let end = parseInteger(argv[3]);
  if (start === undefined || end === undefined) return NOT_INTEGER;
  const s = stringSlot(ctx.ks, argv[1]);
  if (s === undefined) return '';
  if (isError(s)) return s;
  const v = heldAt(ctx.ks, s);
  // Redis 7.0's arithmetic, quirk included: an end before the string's start clamps to 0,
  // so GETRANGE s 0 -100 still answers the first byte.
  if (start < 0 && end < 0 && start > end) return '';
  const length = v.length;
  if (start < 0) start = Math.max(length + start, 0);
  if (end < 0) end = Math.max(length + end, 0);
  if (end >= length) end = length - 1;
  return start > end || length === 0 ? '' : v.slice(start, end + 1);
}

// SETRANGE key offset value
export function setrangeCommand(ctx: Ctx, argv: Args): Reply {
  const offset = parseInteger(argv[2]);
  if (offset === undefined) return NOT_INTEGER;
  if (offset < 0) return OFFSET_OUT_OF_RANGE;
  const s = stringSlot(ctx.ks, argv[1]);
  if (isError(s)) return s;
  const patch = argv[3];
  // Nothing to write: the length as it is, and no key created.
  if (patch.length === 0) return unchanged(ctx, s === undefined ? 0 : heldAt(ctx.ks, s).length);
  if (offset + patch.length > MAX_STRING_BYTES) return STRING_TOO_LONG;
  const e = editableAt(ctx.ks, s, offset + patch.length);
  e.write(offset, patch);
  storeEdited(ctx.ks, argv[1], s, e);
  ctx.events.notify(KeyEvent.string, 'setrange', argv[1]);
  return e.length;
}

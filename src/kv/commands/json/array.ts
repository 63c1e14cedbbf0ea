// The JSON commands that change arrays: JSON.ARRAPPEND, ARRINSERT, ARRPOP and ARRTRIM, with
// RedisJSON's index rules (ARRPOP clamps its index into the array, ARRINSERT refuses one
// beyond it, ARRTRIM keeps [start, stop] after clamping both) and its events: published once
// an array matched, even by an ARRTRIM that keeps it whole, except that a $-path's ARRPOP
// publishes only when it popped something (a legacy path's, on an empty array, still does).

import { formatJson } from '../../engine/json/json-format.js';
import { utf8Bytes } from '../../bytes.js';
import { cloneJson, depthOf, MAX_DOCUMENT_DEPTH, type JsonValue } from '../../engine/json/json-value.js';
import { touch, touchPlacing } from '../../engine/json/json-work.js';
import { isError, JSON_INDEX_OUT_OF_BOUNDS, JSON_NO_KEY, JSON_TOO_DEEP, NOT_INTEGER, type ReplyError } from '../../errors.js';
import type { Match } from '../../engine/json/json-path-eval.js';
import type { Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { jsonArg, matches, notifyJson, pathArg, perMatch, readDoc } from './doc.js';

const isArray = (v: JsonValue): v is JsonValue[] => Array.isArray(v);

/** The JSON values in argv from `from` on, or the first parse error. */
function values(argv: Args, from: number): JsonValue[] | ReplyError {
  const out: JsonValue[] = [];
  for (let i = from; i < argv.length; i++) {
    const v = jsonArg(argv[i]);
    if (isError(v)) return v;
    out.push(v);
  }
  return out;
}

interface ArrayWrite {
  event: string;
  /** Whether the command changes this array (ARRPOP: not when it is empty); every array by default. */
  changes?: (arr: JsonValue[]) => boolean;
  /** A legacy path's error quotes the path as given, not normalized (ARRAPPEND's). */
  quoteOriginal?: boolean;
  /**
   * Whether the command moves the elements of each array it changes (ARRINSERT, ARRPOP,
   * ARRTRIM splice): they are counted within its work before it changes any (json-work.ts).
   */
  moves?: boolean;
  /** The error refusing the write, asked of the matched arrays before any changes. */
  refuses?: (arrays: readonly Match[]) => ReplyError | undefined;
}

/** Runs `op` on every array `path` matches in the document at `key` (see perMatch). */
function onArrays(ctx: Ctx, key: string, pathText: string, w: ArrayWrite, op: (arr: JsonValue[]) => Reply): Reply {
  const doc = readDoc(ctx, key);
  if (isError(doc)) return doc;
  const path = pathArg(pathText);
  if (isError(path)) return path;
  if (doc === undefined) return JSON_NO_KEY;
  const found = matches(doc, path);
  const arrays = found.filter((m) => isArray(m.value));
  const refused = w.refuses?.(arrays);
  if (refused !== undefined) return refused;
  if (w.moves) for (const m of arrays) touch((m.value as JsonValue[]).length);
  let matched = false;
  let changed = false;
  const reply = perMatch(
    found,
    path,
    isArray,
    (m) => {
      const arr = m.value as JsonValue[];
      matched = true;
      changed ||= w.changes?.(arr) ?? true;
      return op(arr);
    },
    'not an array',
    w.quoteOriginal ? path.original : path.normal,
  );
  // RedisJSON's legacy paths publish once an array matched, its $-paths once one changed.
  if (path.legacy ? matched : changed) notifyJson(ctx, w.event, key);
  return changed || isError(reply) ? reply : unchanged(ctx, reply);
}

/**
 * Refuses adding `add` to arrays when it would nest the document too deep. It also counts the
 * copies within the command's work (json-work.ts).
 */
const tooDeep =
  (add: JsonValue[]) =>
  (arrays: readonly Match[]): ReplyError | undefined => {
    touchPlacing(arrays.length, add);
    const depth = add.reduce<number>((deepest, v) => Math.max(deepest, depthOf(v)), 0);
    return arrays.some((m) => m.at.length + 1 + depth > MAX_DOCUMENT_DEPTH) ? JSON_TOO_DEEP : undefined;
  };

// JSON.ARRAPPEND key path value [value ...]
export function jsonArrappendCommand(ctx: Ctx, argv: Args): Reply {
  const add = values(argv, 3);
  if (isError(add)) return add;
  const appending: ArrayWrite = { event: 'json.arrappend', quoteOriginal: true, refuses: tooDeep(add) };
  return onArrays(ctx, argv[1], argv[2], appending, (arr) => {
    for (const v of add) arr.push(cloneJson(v));
    return arr.length;
  });
}

// JSON.ARRINSERT key path index value [value ...]
export function jsonArrinsertCommand(ctx: Ctx, argv: Args): Reply {
  const index = parseInt64(argv[3]);
  if (index === undefined) return NOT_INTEGER;
  const add = values(argv, 4);
  if (isError(add)) return add;
  const at = Number(index);
  const position = (arr: JsonValue[]) => (at < 0 ? arr.length + at : at);
  // Every array's index is checked before any changes, so a refused one leaves the document as it was.
  const outOfBounds = (arrays: readonly Match[]) => {
    for (const m of arrays) {
      const i = position(m.value as JsonValue[]);
      if (i < 0 || i > (m.value as JsonValue[]).length) return JSON_INDEX_OUT_OF_BOUNDS;
    }
    return undefined;
  };
  const inserting: ArrayWrite = { event: 'json.arrinsert', moves: true, refuses: (arrays) => tooDeep(add)(arrays) ?? outOfBounds(arrays) };
  return onArrays(ctx, argv[1], argv[2], inserting, (arr) => {
    // Not splice(i, 0, ...add): a command may add more values than a call takes arguments.
    const tail = arr.splice(position(arr));
    for (const v of add) arr.push(cloneJson(v));
    for (const v of tail) arr.push(v);
    return arr.length;
  });
}

// JSON.ARRPOP key [path [index]]
export function jsonArrpopCommand(ctx: Ctx, argv: Args): Reply {
  // As in RedisJSON: without a path the last element goes; an index that is no integer means -1.
  const index = argv.length < 3 ? Infinity : Number(parseInt64(argv[3] ?? '') ?? -1n);
  const popping: ArrayWrite = { event: 'json.arrpop', changes: (arr) => arr.length > 0, moves: true };
  return onArrays(ctx, argv[1], argv[2] ?? '.', popping, (arr) => {
    if (arr.length === 0) return null;
    const i = index < 0 ? Math.max(0, arr.length + index) : Math.min(index, arr.length - 1);
    return utf8Bytes(formatJson(arr.splice(i, 1)[0]));
  });
}

// JSON.ARRTRIM key path start stop
export function jsonArrtrimCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseInt64(argv[3]);
  const stop = parseInt64(argv[4]);
  if (start === undefined || stop === undefined) return NOT_INTEGER;
  return onArrays(ctx, argv[1], argv[2], { event: 'json.arrtrim', moves: true }, (arr) => {
    const len = arr.length;
    const clamp = (i: number) => (i < 0 ? len - Math.min(len, -i) : Math.max(0, Math.min(len - 1, i)));
    const s = Number(start);
    const hi = clamp(Number(stop));
    const lo = s < 0 || s < len ? clamp(s) : hi + 1;
    if (lo > hi || len === 0) arr.length = 0;
    else {
      arr.splice(hi + 1);
      arr.splice(0, lo);
    }
    return arr.length;
  });
}

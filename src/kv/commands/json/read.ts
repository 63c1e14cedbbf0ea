// The JSON commands that only read: JSON.GET, MGET, RESP, TYPE, STRLEN, ARRLEN, ARRINDEX,
// OBJKEYS and OBJLEN, with RedisJSON 2.x's answers for $-paths and legacy paths.

import { utf8Bytes, utf8Text } from '../../bytes.js';
import type { JsonDoc } from '../../engine/json/json-doc.js';
import { formatReply, type Layout, type Printable } from '../../engine/json/json-format.js';
import type { JsonPath } from '../../engine/json/json-path.js';
import { touch } from '../../engine/json/json-work.js';
import { isObject, jsonEquals, jsonTypeName, utf8Length, type JsonValue } from '../../engine/json/json-value.js';
import {
  isError,
  JSON_NO_KEY,
  jsonExpected,
  jsonPathMissing,
  jsonPathMissingOr,
  NOT_INTEGER,
  wrongArity,
  type ReplyError,
} from '../../errors.js';
import { Status, type Reply } from '../../reply.js';
import { parseInt64 } from '../args.js';
import { replyDouble } from '../reply-double.js';
import type { Args, Ctx } from '../spec.js';
import { jsonArg, matches, pathArg, perMatch, readDoc } from './doc.js';

/** JSON.GET's keywords are at most this long, so a longer argument is a path (as RedisJSON decides). */
const KEYWORD_MAX = 'NOESCAPE'.length;

// JSON.GET key [INDENT s] [NEWLINE s] [SPACE s] [NOESCAPE] [path ...]
export function jsonGetCommand(ctx: Ctx, argv: Args): Reply {
  const layout: { indent?: string; newline?: string; space?: string } = {};
  const paths: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i];
    const word = arg.length > KEYWORD_MAX ? '' : arg.toLowerCase();
    if (word === 'indent' || word === 'newline' || word === 'space') {
      if (++i >= argv.length) return wrongArity('json.get');
      layout[word] = utf8Text(argv[i]);
    } else if (word !== 'noescape') paths.push(arg);
  }
  const doc = readDoc(ctx, argv[1]);
  if (doc === undefined || isError(doc)) return doc ?? null;
  if (paths.length <= 1) {
    const path = pathArg(paths[0] ?? '.');
    if (isError(path)) return path;
    const found = matches(doc, path).map((m) => m.value);
    const compact = layout.indent === undefined && layout.newline === undefined && layout.space === undefined;
    if (compact && isWhole(doc, found)) return path.legacy ? doc.printed() : `[${doc.printed()}]`;
    if (!path.legacy) return text(found, layout);
    return found.length === 0 ? jsonPathMissing(path.normal) : text(found[0], layout);
  }
  const parsed = paths.map(pathArg).filter((p): p is JsonPath => !isError(p));
  const legacy = parsed.every((p) => p.legacy);
  const out = new Map<string, Printable>();
  for (const p of parsed) {
    const found = matches(doc, p).map((m) => m.value);
    if (!legacy) out.set(utf8Text(p.original), found);
    else if (found.length === 0) return jsonPathMissing(p.original);
    else out.set(utf8Text(p.original), found[0]);
  }
  return text(out, layout);
}

function text(v: Printable, layout?: Layout): string {
  return utf8Bytes(formatReply(v, layout));
}

// JSON.MGET key [key ...] path
export function jsonMgetCommand(ctx: Ctx, argv: Args): Reply {
  const path = pathArg(argv[argv.length - 1]);
  return argv.slice(1, -1).map((key) => {
    const doc = readDoc(ctx, key);
    if (doc === undefined || isError(doc) || isError(path)) return null;
    const found = matches(doc, path).map((m) => m.value);
    if (isWhole(doc, found)) return path.legacy ? doc.printed() : `[${doc.printed()}]`;
    if (!path.legacy) return text(found);
    return found.length === 0 ? null : text(found[0]);
  });
}

/** Whether a path's matches are the document itself, whose printed text the document keeps. */
function isWhole(doc: JsonDoc, found: readonly JsonValue[]): boolean {
  return found.length === 1 && found[0] === doc.root;
}

/** A value as RedisJSON's JSON.RESP answers it: arrays lead with "[", objects with "{". */
function resp(v: JsonValue): Reply {
  touch(1);
  if (v === null) return null;
  if (typeof v === 'boolean') return new Status(v ? 'true' : 'false');
  if (typeof v === 'bigint') return v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v;
  if (typeof v === 'number') return replyDouble(v);
  if (typeof v === 'string') return utf8Bytes(v);
  if (Array.isArray(v)) return [new Status('['), ...v.map(resp)];
  const out: Reply[] = [new Status('{')];
  for (const [k, x] of v) out.push(utf8Bytes(k), resp(x));
  return out;
}

/** The document at argv[1] and the optional path at argv[2] (default '.'), or what to answer instead. */
function target(ctx: Ctx, argv: Args): { doc: JsonDoc | undefined; path: JsonPath } | ReplyError {
  const doc = readDoc(ctx, argv[1]);
  if (isError(doc)) return doc;
  const path = pathArg(argv[2] ?? '.');
  return isError(path) ? path : { doc, path };
}

// JSON.RESP key [path]
export function jsonRespCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t) || t.doc === undefined) return isError(t) ? t : null;
  const found = matches(t.doc, t.path);
  if (!t.path.legacy) return found.map((m) => resp(m.value));
  return found.length === 0 ? jsonPathMissing(t.path.normal) : resp(found[0].value);
}

// JSON.TYPE key [path]
export function jsonTypeCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t) || t.doc === undefined) return isError(t) ? t : null;
  const found = matches(t.doc, t.path);
  if (!t.path.legacy) return found.map((m) => jsonTypeName(m.value));
  return found.length === 0 ? null : jsonTypeName(found[0].value);
}

/**
 * The legacy-path form shared by STRLEN, ARRLEN, OBJLEN and OBJKEYS: the first match, measured when
 * of the right type; null for a missing key.
 */
function firstMeasured(
  t: { doc: JsonDoc | undefined; path: JsonPath },
  accepts: (v: JsonValue) => boolean,
  measure: (v: JsonValue) => Reply,
  onWrongType: (v: JsonValue) => ReplyError,
  onMissing: () => Reply,
): Reply {
  if (t.doc === undefined) return null;
  const found = matches(t.doc, t.path);
  if (found.length === 0) return onMissing();
  return accepts(found[0].value) ? measure(found[0].value) : onWrongType(found[0].value);
}

const isString = (v: JsonValue) => typeof v === 'string';
const stringLength = (v: JsonValue) => utf8Length(v as string);
const arrayLength = (v: JsonValue) => (v as JsonValue[]).length;
const objectSize = (v: JsonValue) => (v as Map<string, JsonValue>).size;

// JSON.STRLEN key [path]
export function jsonStrlenCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t)) return t;
  if (t.path.legacy) {
    const p = t.path;
    return firstMeasured(t, isString, stringLength, (v) => jsonExpected('string', jsonTypeName(v)), () => jsonPathMissing(p.normal));
  }
  if (t.doc === undefined) return JSON_NO_KEY;
  return perMatch(matches(t.doc, t.path), t.path, isString, (m) => stringLength(m.value), 'not a string');
}

// JSON.ARRLEN key [path]
export function jsonArrlenCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t)) return t;
  if (t.path.legacy) {
    const p = t.path;
    const notArray = () => jsonPathMissingOr(p.original, 'not an array');
    return firstMeasured(t, Array.isArray, arrayLength, notArray, () => jsonPathMissing(p.original));
  }
  if (t.doc === undefined) return JSON_NO_KEY;
  return perMatch(matches(t.doc, t.path), t.path, Array.isArray, (m) => arrayLength(m.value), 'not an array');
}

// JSON.OBJLEN key [path]
export function jsonObjlenCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t)) return t;
  if (t.path.legacy) return firstMeasured(t, isObject, objectSize, (v) => jsonExpected('object', jsonTypeName(v)), () => null);
  if (t.doc === undefined) return jsonPathMissingOr(t.path.normal, 'not an object');
  return perMatch(matches(t.doc, t.path), t.path, isObject, (m) => objectSize(m.value), 'not an object');
}

// JSON.OBJKEYS key [path]
export function jsonObjkeysCommand(ctx: Ctx, argv: Args): Reply {
  const t = target(ctx, argv);
  if (isError(t)) return t;
  const keys = (v: JsonValue) => {
    const members = v as Map<string, JsonValue>;
    touch(members.size); // each key answered counts within the command's work (json-work.ts)
    return [...members.keys()].map(utf8Bytes);
  };
  if (t.path.legacy) {
    const p = t.path;
    return firstMeasured(t, isObject, keys, () => jsonPathMissingOr(p.normal, 'not an object'), () => null);
  }
  if (t.doc === undefined) return JSON_NO_KEY;
  return perMatch(matches(t.doc, t.path), t.path, isObject, (m) => keys(m.value), 'not an object');
}

// JSON.ARRINDEX key path value [start [stop]]
export function jsonArrindexCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 6) return wrongArity('json.arrindex');
  const start = argv.length > 4 ? parseInt64(argv[4]) : 0n;
  const stop = argv.length > 5 ? parseInt64(argv[5]) : 0n;
  if (start === undefined || stop === undefined) return NOT_INTEGER;
  const value = jsonArg(argv[3], true);
  if (isError(value)) return value;
  const doc = readDoc(ctx, argv[1]);
  if (isError(doc)) return doc;
  const path = pathArg(argv[2]);
  if (isError(path)) return path;
  if (doc === undefined) return jsonPathMissing(path.original);
  const search = (v: JsonValue) => indexIn(v as JsonValue[], value, Number(start), Number(stop));
  if (!path.legacy) return matches(doc, path).map((m) => (Array.isArray(m.value) ? search(m.value) : null));
  const found = matches(doc, path);
  if (found.length === 0) return jsonPathMissing(path.normal);
  return Array.isArray(found[0].value) ? search(found[0].value) : jsonExpected('array', jsonTypeName(found[0].value));
}

/**
 * RedisJSON's search window: start clamps into the array, stop 0 means the end, negatives count
 * from the end. Each element compared counts within the command's work (json-work.ts).
 */
function indexIn(arr: JsonValue[], value: JsonValue, start: number, stop: number): number {
  const len = arr.length;
  if (len === 0) return -1;
  const from = start < 0 ? Math.max(0, len + start) : Math.min(start, len - 1);
  const to = stop === 0 ? len : stop < 0 ? Math.max(0, len + stop) : Math.min(stop, len);
  for (let i = from; i < to; i++) {
    if (jsonEquals(arr[i], value)) {
      touch(i - from + 1);
      return i;
    }
  }
  touch(Math.max(0, to - from));
  return -1;
}

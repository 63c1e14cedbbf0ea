// The JSON commands that change scalars in place: JSON.TOGGLE, NUMINCRBY, NUMMULTBY and
// STRAPPEND. Numbers keep RedisJSON's integer/float rule: an integer operated on by an
// integer stays an integer, anything else becomes a float (1 + 0.5 = 1.5, 2 * 1.5 = 3.0).
// Each publishes its event once it changed a value of its kind.

import { utf8Bytes } from '../../bytes.js';
import type { JsonDoc } from '../../engine/json/json-doc.js';
import { valueAt } from '../../engine/json/json-edit.js';
import type { Match } from '../../engine/json/json-path-eval.js';
import type { JsonPath } from '../../engine/json/json-path.js';
import { isNumber, utf8Length, type JsonValue, type PathKey } from '../../engine/json/json-value.js';
import {
  isError,
  JSON_BAD_NUMBER,
  JSON_NO_KEY,
  JSON_NOT_A_NUMBER,
  jsonExpected,
  jsonPathMissingOr,
  STRING_TOO_LONG,
  type ReplyError,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MAX, INT64_MIN } from '../args.js';
import { MAX_STRING_BYTES } from '../string/range.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { jsonArg, jsonReply, matches, notifyJson, pathArg, perMatch, putAt, readDoc } from './doc.js';

/** The document and path of a command that needs an existing document. */
function existing(ctx: Ctx, key: string, pathText: string): { doc: JsonDoc; path: JsonPath } | ReplyError {
  const doc = readDoc(ctx, key);
  if (isError(doc)) return doc;
  const path = pathArg(pathText);
  if (isError(path)) return path;
  return doc === undefined ? JSON_NO_KEY : { doc, path };
}

/** The value at a match now: an earlier change may have replaced it (a path can match one place twice). */
function current(doc: JsonDoc, m: Match): JsonValue {
  return valueAt(doc.root, m.at) ?? m.value;
}

/** The reply of a write that may have changed nothing; one that changed the document at `key` publishes `event`. */
function settle(ctx: Ctx, event: string, key: string, changed: boolean, reply: Reply): Reply {
  if (!changed) return isError(reply) ? reply : unchanged(ctx, reply);
  notifyJson(ctx, event, key);
  return reply;
}

// JSON.TOGGLE key path
export function jsonToggleCommand(ctx: Ctx, argv: Args): Reply {
  const t = existing(ctx, argv[1], argv[2]);
  if (isError(t)) return t;
  let changed = false;
  const reply = perMatch(
    matches(t.doc, t.path),
    t.path,
    (v) => typeof v === 'boolean',
    (m) => {
      const next = !(current(t.doc, m) as boolean);
      putAt(t.doc, m.at, next);
      changed = true;
      return t.path.legacy ? String(next) : next ? 1 : 0;
    },
    'not a bool',
  );
  return settle(ctx, 'json.toggle', argv[1], changed, reply);
}

type NumOp = (a: bigint, b: bigint) => bigint;
type FloatOp = (a: number, b: number) => number;

/** NUMINCRBY and NUMMULTBY (publishing `event`): `int` on two integers, `float` otherwise. */
function numOpGeneric(ctx: Ctx, argv: Args, event: string, int: NumOp, float: FloatOp): Reply {
  const t = existing(ctx, argv[1], argv[2]);
  if (isError(t)) return t;
  const found = matches(t.doc, t.path);
  const numbers = found.filter((m) => isNumber(m.value)).length;
  if (t.path.legacy && numbers === 0) return jsonPathMissingOr(t.path.normal, 'does not contains a number');
  // RedisJSON reads the operand only when there is a number to apply it to.
  let by: bigint | number = 0n;
  if (numbers > 0) {
    const v = jsonArg(argv[3], true);
    if (isError(v)) return v;
    if (!isNumber(v)) return JSON_BAD_NUMBER;
    by = v;
  }
  // Computed in order (a place matched twice is operated on twice) and stored only when all
  // succeed, so a failure leaves the document as it was.
  const pending = new Map<string, { m: Match; value: bigint | number }>();
  const results: (bigint | number | null)[] = [];
  for (const m of found) {
    if (!isNumber(m.value)) {
      results.push(null);
      continue;
    }
    const place = JSON.stringify(m.at);
    const r = compute(pending.get(place)?.value ?? m.value, by, int, float);
    if (isError(r)) return r;
    pending.set(place, { m, value: r });
    results.push(r);
  }
  if (numbers === 0) return unchanged(ctx, jsonReply(results));
  for (const { m, value } of pending.values()) putAt(t.doc, m.at, value);
  notifyJson(ctx, event, argv[1]);
  // Logged as the numbers it produced, each set at its place, so a replay does no arithmetic.
  ctx.rewrite([...pending.values()].map(({ m, value }) => ['json.set', argv[1], concretePath(m.at), jsonReply(value)]));
  return t.path.legacy ? jsonReply(results.filter((r) => r !== null).pop()!) : jsonReply(results);
}

/** A $-path naming exactly the place `at` (members in brackets, so any name reads back). */
function concretePath(at: readonly PathKey[]): string {
  const steps = at.map((k) => (typeof k === 'number' ? `[${k}]` : `["${k.replace(/["\\]/g, '\\$&')}"]`));
  return utf8Bytes('$' + steps.join(''));
}

function compute(a: bigint | number, b: bigint | number, int: NumOp, float: FloatOp): bigint | number | ReplyError {
  if (typeof a === 'bigint' && typeof b === 'bigint' && b <= INT64_MAX) {
    const r = int(a, b);
    if (r >= INT64_MIN && r <= INT64_MAX) return r;
  }
  const f = float(Number(a), Number(b));
  return Number.isFinite(f) ? f : JSON_NOT_A_NUMBER;
}

// JSON.NUMINCRBY key path number
export const jsonNumincrbyCommand = (ctx: Ctx, argv: Args) =>
  numOpGeneric(ctx, argv, 'json.numincrby', (a, b) => a + b, (a, b) => a + b);
// JSON.NUMMULTBY key path number
export const jsonNummultbyCommand = (ctx: Ctx, argv: Args) =>
  numOpGeneric(ctx, argv, 'json.nummultby', (a, b) => a * b, (a, b) => a * b);

// JSON.STRAPPEND key [path] value
export function jsonStrappendCommand(ctx: Ctx, argv: Args): Reply {
  const [pathText, valueText] = argv.length > 3 ? [argv[2], argv[3]] : ['.', argv[2]];
  const t = existing(ctx, argv[1], pathText);
  if (isError(t)) return t;
  const found = matches(t.doc, t.path);
  const strings = found.filter((m) => typeof m.value === 'string');
  let suffix = '';
  if (strings.length > 0) {
    const v = jsonArg(valueText, true);
    if (isError(v)) return v;
    if (typeof v !== 'string') return jsonExpected('string', valueText);
    suffix = v;
  }
  // A place matched again grows again. Each reply (the string's UTF-8 length after that append:
  // the last one's plus the suffix's) and each final length are found before anything changes,
  // and past 512 MB, counted in bytes as Redis does, nothing is appended (measuring a string
  // grown 600 times by 1 MB anew after each append held the thread for minutes).
  const suffixBytes = utf8Length(suffix);
  const lengths = new Map<string, number>();
  const replies: number[] = [];
  for (const m of strings) {
    const place = JSON.stringify(m.at);
    const length = (lengths.get(place) ?? utf8Length(m.value as string)) + suffixBytes;
    if (length > MAX_STRING_BYTES) return STRING_TOO_LONG;
    lengths.set(place, length);
    replies.push(length);
  }
  let appended = 0;
  const reply = perMatch(
    found,
    t.path,
    (v) => typeof v === 'string',
    // perMatch runs this on `strings`, in their order.
    (m) => {
      putAt(t.doc, m.at, (current(t.doc, m) as string) + suffix);
      return replies[appended++];
    },
    'not a string',
  );
  return settle(ctx, 'json.strappend', argv[1], appended > 0, reply);
}

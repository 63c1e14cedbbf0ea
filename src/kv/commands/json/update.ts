// The JSON commands that change scalars in place: JSON.TOGGLE, NUMINCRBY, NUMMULTBY and
// STRAPPEND. Numbers keep RedisJSON's integer/float rule: an integer operated on by an
// integer stays an integer, anything else becomes a float (1 + 0.5 = 1.5, 2 * 1.5 = 3.0).

import { utf8Bytes } from '../../bytes.js';
import type { JsonDoc } from '../../engine/json/json-doc.js';
import { isNumber, utf8Length } from '../../engine/json/json-value.js';
import { isError, JSON_BAD_NUMBER, JSON_NO_KEY, JSON_NOT_A_NUMBER, jsonExpected, jsonPathMissingOr, type ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { INT64_MAX, INT64_MIN } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { jsonArg, jsonReply, matches, pathArg, perMatch, putAt, readDoc } from './doc.js';
import type { JsonPath } from '../../engine/json/json-path.js';

/** The document and path of a command that needs an existing document. */
function existing(ctx: Ctx, key: string, pathText: string): { doc: JsonDoc; path: JsonPath } | ReplyError {
  const doc = readDoc(ctx, key);
  if (isError(doc)) return doc;
  const path = pathArg(pathText);
  if (isError(path)) return path;
  return doc === undefined ? JSON_NO_KEY : { doc, path };
}

/** The reply of a write that may have changed nothing. */
function settle(ctx: Ctx, changed: boolean, reply: Reply): Reply {
  return changed || isError(reply) ? reply : unchanged(ctx, reply);
}

// JSON.TOGGLE key path
export function jsonToggleCommand(ctx: Ctx, argv: Args): Reply {
  const t = existing(ctx, argv[1], argv[2]);
  if (isError(t)) return t;
  let changed = false;
  const reply = perMatch(
    t.doc,
    t.path,
    (v) => typeof v === 'boolean',
    (m) => {
      const next = !(m.value as boolean);
      putAt(t.doc, m.at, next);
      changed = true;
      return t.path.legacy ? String(next) : next ? 1 : 0;
    },
    'not a bool',
  );
  return settle(ctx, changed, reply);
}

type NumOp = (a: bigint, b: bigint) => bigint;
type FloatOp = (a: number, b: number) => number;

/** NUMINCRBY and NUMMULTBY: `int` on two integers, `float` otherwise. */
export function numOpGeneric(ctx: Ctx, argv: Args, int: NumOp, float: FloatOp): Reply {
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
  const results: (bigint | number | null)[] = [];
  for (const m of found) {
    const r = isNumber(m.value) ? compute(m.value, by, int, float) : null;
    if (isError(r)) return r;
    results.push(r);
  }
  if (numbers === 0) return unchanged(ctx, jsonReply(results));
  found.forEach((m, i) => results[i] !== null && putAt(t.doc, m.at, results[i]));
  // Logged as the document it produced, so a replay does no arithmetic.
  ctx.rewrite(['json.set', argv[1], '$', jsonReply(t.doc.root)]);
  return t.path.legacy ? jsonReply(results.filter((r) => r !== null).pop()!) : jsonReply(results);
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
export const jsonNumincrbyCommand = (ctx: Ctx, argv: Args) => numOpGeneric(ctx, argv, (a, b) => a + b, (a, b) => a + b);
// JSON.NUMMULTBY key path number
export const jsonNummultbyCommand = (ctx: Ctx, argv: Args) => numOpGeneric(ctx, argv, (a, b) => a * b, (a, b) => a * b);

// JSON.STRAPPEND key [path] value
export function jsonStrappendCommand(ctx: Ctx, argv: Args): Reply {
  const [pathText, valueText] = argv.length > 3 ? [argv[2], argv[3]] : ['.', argv[2]];
  const t = existing(ctx, argv[1], pathText);
  if (isError(t)) return t;
  const strings = matches(t.doc, t.path).filter((m) => typeof m.value === 'string');
  let suffix = '';
  if (strings.length > 0) {
    const v = jsonArg(valueText, true);
    if (isError(v)) return v;
    if (typeof v !== 'string') return jsonExpected('string', utf8Bytes(valueText));
    suffix = v;
  }
  let changed = false;
  const reply = perMatch(
    t.doc,
    t.path,
    (v) => typeof v === 'string',
    (m) => {
      const next = (m.value as string) + suffix;
      putAt(t.doc, m.at, next);
      changed = true;
      return utf8Length(next);
    },
    'not a string',
  );
  return settle(ctx, changed, reply);
}

// The JSON commands that write whole values: JSON.SET, MSET, MERGE, DEL (FORGET) and CLEAR.
// SET, MSET and MERGE share RedisJSON's placement rule: existing matches are replaced; when
// nothing matches, a static path ending in a member name adds that member to each parent
// that is an object; a static path ending in an index never extends an array. Each publishes
// its event only when it changed something (FORGET publishes json.del, as in RedisJSON).

import type { Keyspace } from '../../engine/keyspace.js';
import { JsonDoc } from '../../engine/json/json-doc.js';
import { mergePatch, removalOrder, removeAt, valueAt } from '../../engine/json/json-edit.js';
import { evaluate } from '../../engine/json/json-path-eval.js';
import type { JsonPath } from '../../engine/json/json-path.js';
import { touchPlacing } from '../../engine/json/json-work.js';
import { cloneJson, depthOf, MAX_DOCUMENT_DEPTH, type JsonValue, type PathKey } from '../../engine/json/json-value.js';
import {
  isError,
  JSON_INDEX_OUT_OF_RANGE,
  JSON_NEW_AT_ROOT,
  JSON_NO_KEY,
  JSON_NOT_STATIC_PATH,
  JSON_TOO_DEEP,
  SYNTAX,
  wrongArity,
  type ReplyError,
} from '../../errors.js';
import { OK, type Reply } from '../../reply.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { jsonArg, matches, notifyJson, pathArg, putAt, readDoc } from './doc.js';

type Placement = { readonly at: readonly PathKey[] } | { readonly parent: readonly PathKey[]; readonly key: string };
type Mode = 'nx' | 'xx' | 'any';

/** Where a value goes in an existing document (RedisJSON's find_paths); the root is the caller's case. */
function placements(doc: JsonDoc, path: JsonPath, mode: Mode): Placement[] | ReplyError {
  if (mode !== 'nx') {
    const found = matches(doc, path);
    if (found.length > 0) return found.map((m) => ({ at: m.at }));
    if (mode === 'xx') return [];
  }
  if (!path.isStatic) return JSON_NOT_STATIC_PATH;
  const steps = path.query.steps;
  const last = steps[steps.length - 1];
  if (last.k === 'name') {
    return evaluate({ from: '$', steps: steps.slice(0, -1) }, doc.root).map((m) => ({ parent: m.at, key: last.name }));
  }
  return matches(doc, path).length === 0 ? JSON_INDEX_OUT_OF_RANGE : [];
}

/**
 * Whether putting `value` at any of `where` would nest the document too deep. Asked before
 * anything changes, it also counts the copies within the command's work (json-work.ts).
 */
function tooDeep(where: readonly Placement[], value: JsonValue): boolean {
  touchPlacing(where.length, value);
  const depth = depthOf(value);
  return where.some((p) => ('at' in p ? p.at.length : p.parent.length + 1) + depth > MAX_DOCUMENT_DEPTH);
}

/** Puts `value` at each placement (merged into what is there when `merge`); whether anything changed. */
function place(doc: JsonDoc, where: readonly Placement[], value: JsonValue, merge: boolean): boolean {
  let changed = false;
  where.forEach((p, i) => {
    const v = i === where.length - 1 ? value : cloneJson(value);
    if ('at' in p) {
      const current = valueAt(doc.root, p.at);
      if (current === undefined) return;
      putAt(doc, p.at, merge ? mergePatch(current, v) : v);
      changed = true;
    } else {
      const parent = valueAt(doc.root, p.parent);
      if (!(parent instanceof Map) || parent.has(p.key)) return;
      parent.set(p.key, v);
      changed = true;
    }
  });
  return changed;
}

/** Stores `value` as the whole document at `key`, keeping the key's TTL when it exists. */
function setRoot(ks: Keyspace, key: string, doc: JsonDoc | undefined, value: JsonValue): void {
  if (doc === undefined) ks.insert(key, new JsonDoc(value), 0);
  else doc.root = value;
}

/** Removes every value `path` matches in `doc`, deepest first; how many it removed. */
function removeMatches(doc: JsonDoc, path: JsonPath): number {
  let removed = 0;
  for (const at of removalOrder(matches(doc, path).map((m) => m.at))) if (removeAt(doc.root, at)) removed++;
  return removed;
}

/** A write that changed the document at `key`: its event, and OK. */
function written(ctx: Ctx, event: string, key: string): Reply {
  notifyJson(ctx, event, key);
  return OK;
}

/** JSON.SET's and JSON.MERGE's `key path value`, checked in RedisJSON's order: key, value, path. */
function writeArgs(ctx: Ctx, argv: Args) {
  const doc = readDoc(ctx, argv[1]);
  if (isError(doc)) return doc;
  const value = jsonArg(argv[3]);
  if (isError(value)) return value;
  const path = pathArg(argv[2]);
  if (isError(path)) return path;
  return { doc, value, path };
}

// JSON.SET key path value [NX | XX]
export function jsonSetCommand(ctx: Ctx, argv: Args): Reply {
  let mode: Mode = 'any';
  for (let i = 4; i < argv.length; i++) {
    const word = argv[i].toLowerCase();
    if ((word === 'nx' || word === 'xx') && mode === 'any') mode = word;
    else return SYNTAX;
  }
  const args = writeArgs(ctx, argv);
  if (isError(args)) return args;
  const { doc, value, path } = args;
  if (doc === undefined) {
    if (mode === 'xx') return unchanged(ctx, null);
    if (!path.isRoot) return JSON_NEW_AT_ROOT;
    setRoot(ctx.ks, argv[1], doc, value);
    return written(ctx, 'json.set', argv[1]);
  }
  if (path.isRoot) {
    if (mode === 'nx') return unchanged(ctx, null);
    setRoot(ctx.ks, argv[1], doc, value);
    return written(ctx, 'json.set', argv[1]);
  }
  const where = placements(doc, path, mode);
  if (isError(where)) return where;
  if (tooDeep(where, value)) return JSON_TOO_DEEP;
  return place(doc, where, value, false) ? written(ctx, 'json.set', argv[1]) : unchanged(ctx, null);
}

// JSON.MSET key path value [key path value ...]
export function jsonMsetCommand(ctx: Ctx, argv: Args): Reply {
  if ((argv.length - 1) % 3 !== 0) return wrongArity('json.mset');
  // Every triple is checked before any is applied, so a bad one changes nothing.
  const plan: { key: string; doc: JsonDoc | undefined; where: Placement[] | null; value: JsonValue }[] = [];
  for (let i = 1; i < argv.length; i += 3) {
    const doc = readDoc(ctx, argv[i]);
    if (isError(doc)) return doc;
    const path = pathArg(argv[i + 1]);
    if (isError(path)) return path;
    let where: Placement[] | null = null;
    if (!path.isRoot) {
      if (doc === undefined) return JSON_NEW_AT_ROOT;
      const found = placements(doc, path, 'any');
      if (isError(found)) return found;
      where = found;
    }
    const value = jsonArg(argv[i + 2]);
    if (isError(value)) return value;
    if (where !== null && tooDeep(where, value)) return JSON_TOO_DEEP;
    plan.push({ key: argv[i], doc, where, value });
  }
  for (const p of plan) {
    if (p.where === null) setRoot(ctx.ks, p.key, readDoc(ctx, p.key) as JsonDoc | undefined, p.value);
    else if (!place(p.doc!, p.where, p.value, false)) continue;
    // Once per triplet that changed its key, a key named twice publishing twice, as in RedisJSON.
    notifyJson(ctx, 'json.mset', p.key);
  }
  return OK;
}

// JSON.MERGE key path value
export function jsonMergeCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length > 4) return SYNTAX;
  const args = writeArgs(ctx, argv);
  if (isError(args)) return args;
  const { doc, value, path } = args;
  if (doc === undefined) {
    if (!path.isRoot) return JSON_NEW_AT_ROOT;
    setRoot(ctx.ks, argv[1], doc, value);
    return written(ctx, 'json.merge', argv[1]);
  }
  if (path.isRoot) {
    doc.root = mergePatch(doc.root, value);
    return written(ctx, 'json.merge', argv[1]);
  }
  const where = placements(doc, path, 'any');
  if (isError(where)) return where;
  // A merge nests no deeper than the patch placed there, the document being within bounds already.
  if (tooDeep(where, value)) return JSON_TOO_DEEP;
  return place(doc, where, value, true) ? written(ctx, 'json.merge', argv[1]) : unchanged(ctx, null);
}

// JSON.DEL key [path]   (JSON.FORGET is the same command)
export function jsonDelCommand(ctx: Ctx, argv: Args): Reply {
  const doc = readDoc(ctx, argv[1]);
  if (isError(doc)) return doc;
  const path = pathArg(argv[2] ?? '.');
  if (isError(path)) return path;
  if (doc === undefined) return unchanged(ctx, 0);
  // The whole document goes with json.del alone: RedisJSON deletes the key through the module
  // API, which publishes no del.
  const removed = path.isRoot ? Number(ctx.ks.delete(argv[1])) : removeMatches(doc, path);
  if (removed === 0) return unchanged(ctx, 0);
  notifyJson(ctx, 'json.del', argv[1]);
  return removed;
}

// JSON.CLEAR key [path ...]   (only the first path counts, as in RedisJSON)
export function jsonClearCommand(ctx: Ctx, argv: Args): Reply {
  const doc = readDoc(ctx, argv[1]);
  if (isError(doc)) return doc;
  const path = pathArg(argv[2] ?? '$');
  if (isError(path)) return path;
  if (doc === undefined) return JSON_NO_KEY;
  let cleared = 0;
  for (const m of matches(doc, path)) {
    const v = m.value;
    if (Array.isArray(v) && v.length > 0) v.length = 0;
    else if (v instanceof Map && v.size > 0) v.clear();
    else if ((typeof v === 'bigint' && v !== 0n) || (typeof v === 'number' && v !== 0)) putAt(doc, m.at, 0n);
    else continue;
    cleared++;
  }
  if (cleared === 0) return unchanged(ctx, 0);
  notifyJson(ctx, 'json.clear', argv[1]);
  return cleared;
}

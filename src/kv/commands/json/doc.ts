// What every JSON command shares: finding the document at a key, reading path and JSON
// arguments (byte strings holding UTF-8 text), the two reply shapes of RedisJSON 2.x (a $-path
// answers one entry per match, null where the match is of another type; a legacy path answers
// one value or an error), and the keyspace event a write publishes.

import { utf8Bytes, utf8Text } from '../../bytes.js';
import { JSON_KIND, JsonDoc } from '../../engine/json/json-doc.js';
import { formatJson, type Printable } from '../../engine/json/json-format.js';
import { parseJson } from '../../engine/json/json-parse.js';
import { evaluate, type Match } from '../../engine/json/json-path-eval.js';
import { parsePath, type JsonPath } from '../../engine/json/json-path.js';
import { replaceAt } from '../../engine/json/json-edit.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { JsonValue, PathKey } from '../../engine/json/json-value.js';
import { jsonBadPath, jsonPathMissingOr, jsonSyntax, type ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import type { Ctx } from '../spec.js';
import { readTyped } from '../typed.js';

/** The document at `key`: undefined when absent, WRONGTYPE for another type. */
export function readDoc(ctx: Ctx, key: string): JsonDoc | undefined | ReplyError {
  return readTyped<JsonDoc>(ctx.ks, key, JSON_KIND);
}

/** Before a write to `key`: the document there, if any, forgets its printed text. */
export function forgetPrinted(ctx: Ctx, key: string): void {
  const doc = readDoc(ctx, key);
  if (doc instanceof JsonDoc) doc.changing();
}

/**
 * Publishes `event` for a write that changed the document at `key`, as RedisJSON's
 * notify_keyspace_event does (redis_json/src/commands.rs): a module event (class d) named for
 * the command. Redis publishes `new` itself for a key the write added.
 */
export function notifyJson(ctx: Ctx, event: string, key: string): void {
  ctx.events.notify(KeyEvent.module, event, key);
}

/** Parsed paths by their bytes: clients send the same few paths again and again. */
const parsedPaths = new Map<string, JsonPath | ReplyError>();
const PARSED_PATHS_MAX = 1024;

/** A path argument, or the error RedisJSON gives when it does not parse. */
export function pathArg(arg: string): JsonPath | ReplyError {
  let p = parsedPaths.get(arg);
  if (p === undefined) {
    const parsed = parsePath(arg);
    p = typeof parsed === 'string' ? jsonBadPath(parsed) : parsed;
    if (parsedPaths.size >= PARSED_PATHS_MAX) parsedPaths.clear();
    parsedPaths.set(arg, p);
  }
  return p;
}

/** A JSON argument; `prefixed` says whether RedisJSON puts ERR before serde's message here. */
export function jsonArg(arg: string, prefixed = false): JsonValue | ReplyError {
  const r = parseJson(utf8Text(arg));
  return r.ok ? r.value : jsonSyntax(r.error, prefixed);
}

export function matches(doc: JsonDoc, path: JsonPath): Match[] {
  return evaluate(path.query, doc.root);
}

/** JSON text as a bulk reply (UTF-8 bytes). */
export function jsonReply(v: Printable): string {
  return utf8Bytes(formatJson(v));
}

/** Replaces the value at `at`, the root included. */
export function putAt(doc: JsonDoc, at: readonly PathKey[], value: JsonValue): void {
  if (at.length === 0) doc.root = value;
  else replaceAt(doc.root, at, value);
}

/**
 * Runs `op` on the matches of `path` (`found`) that `accepts` takes. A $-path answers an array
 * with `op`'s reply per match and null for the others; a legacy path answers the last `op`
 * reply, or "Path '...' does not exist or <notWhat>" when no match qualifies (quoting `quoted`).
 */
export function perMatch(
  found: readonly Match[],
  path: JsonPath,
  accepts: (v: JsonValue) => boolean,
  op: (m: Match) => Reply,
  notWhat: string,
  quoted = path.normal,
): Reply {
  if (!path.legacy) return found.map((m) => (accepts(m.value) ? op(m) : null));
  let last: Reply | undefined;
  for (const m of found) if (accepts(m.value)) last = op(m);
  return last === undefined ? jsonPathMissingOr(quoted, notWhat) : last;
}

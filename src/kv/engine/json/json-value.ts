// The document model of a JSON value, as RedisJSON keeps it: integers and floats are told
// apart (an integer is a bigint in the i64/u64 range, a float a JS number), objects keep
// their keys in insertion order (a Map, so a key like "__proto__" is just a key), and strings
// are text (UTF-16), turned into UTF-8 bytes only when a reply leaves the engine.

export type JsonValue = null | boolean | bigint | number | string | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

/** One step of a concrete path: an object key or an array index. */
export type PathKey = string | number;

/** RedisJSON's names of the value types (JSON.TYPE, error texts). */
export type JsonTypeName = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export function jsonTypeName(v: JsonValue): JsonTypeName {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'integer';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
  }
  return Array.isArray(v) ? 'array' : 'object';
}

export const isObject = (v: JsonValue): v is JsonObject => v instanceof Map;
export const isNumber = (v: JsonValue): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';

/** A deep copy (COPY, values inserted at several places). */
export function cloneJson(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(cloneJson);
  if (v instanceof Map) {
    const out: JsonObject = new Map();
    for (const [k, x] of v) out.set(k, cloneJson(x));
    return out;
  }
  return v;
}

/**
 * RedisJSON's equality (ARRINDEX, filters' ==): same type and same content; an integer never
 * equals a float, so 1 and 1.0 differ. Object key order does not matter.
 */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) {
      const y = b.get(k);
      if (y === undefined || !jsonEquals(x, y)) return false;
    }
    return true;
  }
  return false;
}

/**
 * How deep a document may nest. RedisJSON bounds each value a command passes (128 levels,
 * json-parse.ts) but not a document built by writing into ever deeper paths; Larder bounds
 * that too, so that printing, copying and comparing, which recurse, stay far from the stack's
 * limit.
 */
export const MAX_DOCUMENT_DEPTH = 1024;

/** Levels of containers in `v`: 0 for a scalar, 1 for [] or {}. */
export function depthOf(v: JsonValue): number {
  let inner = 0;
  if (Array.isArray(v)) for (const x of v) inner = Math.max(inner, depthOf(x));
  else if (v instanceof Map) for (const x of v.values()) inner = Math.max(inner, depthOf(x));
  else return 0;
  return inner + 1;
}

/** Byte length of a string's UTF-8 encoding (STRLEN and STRAPPEND count bytes, as Rust does). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

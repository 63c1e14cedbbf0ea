// What an index reads from one document, a key or a stream entry: for each schema field, the
// values the document holds there, typed by the field's type. A JSON document (or a STRING key
// holding JSON text) is read by the field's dotted path, a hash or a stream entry by field name.
// Arrays give several values; a value of the wrong type for its field is left out, so the
// document is indexed without it.

import { utf8Bytes, utf8Text } from '../bytes.js';
import { HashValue } from '../engine/hash/hash-value.js';
import { textOf } from '../engine/editable-string.js';
import { JsonDoc } from '../engine/json/json-doc.js';
import { formatJson } from '../engine/json/json-format.js';
import { parseJson } from '../engine/json/json-parse.js';
import { isObject, type JsonValue } from '../engine/json/json-value.js';
import type { StreamEntry } from '../engine/stream/entry-store.js';
import type { Value } from '../engine/value.js';
import type { Marker } from './highlight.js';
import type { FieldDef, IndexDef } from './schema.js';

/** A field's value: text for TEXT, KEYWORD and FACET; a number for numbers and DATE (ms); a boolean for BOOL. */
export type FieldValue = string | number | boolean;

/** Field name to its values; fields the document lacks are absent. */
export type DocFields = Map<string, FieldValue[]>;

/** What a document is read from: a key's value, or for a STREAM index one entry of its stream. */
export type Stored = Value | StreamEntry;

/**
 * A document of flat fields, each a byte string: a hash's, or a stream entry's pairs. An entry's
 * value may be a JSON array, which gives its field several values, and an empty one gives none
 * (Upstash's "Searching Streams").
 */
class FlatDocument {
  constructor(
    readonly get: (name: string) => string | undefined,
    readonly pairs: () => Iterable<[string, string]>,
    readonly isEntry: boolean,
  ) {}
}

/** The types whose stream values may be JSON arrays (not BOOL or FACET, the page says). */
const ARRAY_TYPES = new Set(['TEXT', 'KEYWORD', 'U64', 'I64', 'F64', 'DATE']);

/** The indexed fields of `stored`, or null when it is no document of this index's type (a stream entry without one indexed field is none). */
export function readDocument(def: IndexDef, stored: Stored): DocFields | null {
  const root = documentRoot(def, stored);
  if (root === null) return null;
  const out: DocFields = new Map();
  for (const f of def.fields) {
    const values = sourceValues(root, f).map((v) => typed(f, v)).filter((v): v is FieldValue => v !== undefined);
    if (values.length > 0) out.set(f.name, values);
  }
  return out.size === 0 && def.dataType === 'STREAM' ? null : out;
}

/**
 * A query result's content: [name, value] for each document field `select` names (SELECT
 * takes the document's own names, not FROM aliases: a hash field, or a dotted JSON path) that
 * the document holds, the value as stored (a JSON string's text, other JSON values as compact
 * JSON, a hash field's bytes). Without `select`, the whole document: every field of a hash, or
 * ["$", JSON text] for a JSON or STRING document, which the SDK unwraps (its
 * deserializeQueryResponse reads "$"). With `highlight`, the values of its fields are shown as
 * it marks them (each element of an array); the stored document is not changed.
 */
export function documentContent(
  def: IndexDef,
  stored: Stored,
  select: readonly string[] | null,
  highlight: { readonly fields: readonly FieldDef[]; readonly mark: Marker } | null = null,
): [string, string][] {
  const doc = documentRoot(def, stored);
  if (doc === null) return [];
  if (doc instanceof FlatDocument) {
    const shown = (source: string, bytes: string): string => {
      const f = highlight?.fields.find((h) => (h.from ?? h.name) === source);
      return f === undefined ? bytes : utf8Bytes(highlight!.mark(f, utf8Text(bytes)));
    };
    if (select === null) return [...doc.pairs()].map(([name, value]): [string, string] => [name, shown(name, value)]);
    return select.flatMap((name): [string, string][] => {
      const value = doc.get(name);
      return value === undefined ? [] : [[name, shown(name, value)]];
    });
  }
  let root: JsonValue = doc;
  for (const f of highlight?.fields ?? []) root = replaceAt(root, sourcePath(f), (v) => markJson(v, (text) => highlight!.mark(f, text)));
  if (select === null) return [['$', utf8Bytes(formatJson(root))]];
  const out: [string, string][] = [];
  for (const name of select) {
    const at = valueAtPath(root, utf8Text(name).split('.'));
    if (at !== undefined) out.push([name, utf8Bytes(typeof at === 'string' ? at : formatJson(at))]);
  }
  return out;
}

/** A string marked, or an array's string elements marked; other values as they are. */
function markJson(v: JsonValue, mark: (text: string) => string): JsonValue {
  if (typeof v === 'string') return mark(v);
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? mark(x) : x)) : v;
}

/** A copy of `root` with the value at `path` replaced (copying only the objects on the path); `root` when there is none. */
function replaceAt(root: JsonValue, path: readonly string[], replace: (v: JsonValue) => JsonValue): JsonValue {
  if (path.length === 0) return replace(root);
  if (root === null || !isObject(root)) return root;
  const child = root.get(path[0]);
  if (child === undefined) return root;
  return new Map(root).set(path[0], replaceAt(child, path.slice(1), replace));
}

function sourcePath(f: FieldDef): string[] {
  return utf8Text(f.from ?? f.name).split('.');
}

function documentRoot(def: IndexDef, stored: Stored): JsonValue | FlatDocument | null {
  if (def.dataType === 'STREAM') return entryDocument(stored as StreamEntry);
  const value = stored as Value;
  // A hash whose last field just expired is told before the key goes: it is no document.
  if (def.dataType === 'HASH') return value instanceof HashValue && value.size > 0 ? hashDocument(value) : null;
  if (def.dataType === 'JSON') return value instanceof JsonDoc ? value.root : null;
  const text = textOf(value);
  if (text === undefined) return null;
  const parsed = parseJson(utf8Text(text));
  return parsed.ok ? parsed.value : null;
}

function hashDocument(hash: HashValue): FlatDocument {
  return new FlatDocument(
    (name) => hash.get(name)?.value,
    function* () {
      for (const f of hash.fields()) yield [f.name, f.value];
    },
    false,
  );
}

/** An entry's fields; a name given twice reads as its last value, as a hash made of the pairs would hold. */
function entryDocument(entry: StreamEntry): FlatDocument {
  const fields = entry.fields;
  return new FlatDocument(
    (name) => {
      for (let i = fields.length - 2; i >= 0; i -= 2) if (fields[i] === name) return fields[i + 1];
      return undefined;
    },
    function* () {
      for (let i = 0; i < fields.length; i += 2) yield [fields[i], fields[i + 1]];
    },
    true,
  );
}

function sourceValues(root: JsonValue | FlatDocument, f: FieldDef): JsonValue[] {
  if (root instanceof FlatDocument) {
    const bytes = root.get(f.from ?? f.name);
    if (bytes === undefined) return [];
    const text = utf8Text(bytes);
    if (!root.isEntry) return [text];
    if (text === '') return [];
    if (text.startsWith('[') && ARRAY_TYPES.has(f.type)) {
      const parsed = parseJson(text);
      if (parsed.ok && Array.isArray(parsed.value)) return parsed.value;
    }
    return [text];
  }
  const at = valueAt(root, f);
  return at === undefined ? [] : Array.isArray(at) ? at : [at];
}

/** The JSON value at a field's dotted path (schema names are bytes, JSON keys text). */
function valueAt(root: JsonValue, f: FieldDef): JsonValue | undefined {
  return valueAtPath(root, sourcePath(f));
}

function valueAtPath(root: JsonValue, path: readonly string[]): JsonValue | undefined {
  let at: JsonValue | undefined = root;
  for (const step of path) {
    if (at === undefined || at === null || !isObject(at)) return undefined;
    at = at.get(step);
  }
  return at;
}

/** `v` as field `f` holds it; hash fields arrive as text and are read as the type says. */
function typed(f: FieldDef, v: JsonValue): FieldValue | undefined {
  switch (f.type) {
    case 'TEXT':
    case 'KEYWORD':
    case 'FACET':
      return typeof v === 'string' ? v : undefined;
    case 'BOOL':
      if (typeof v === 'boolean') return v;
      return v === 'true' ? true : v === 'false' ? false : undefined;
    case 'DATE': {
      const ms = typeof v === 'string' ? Date.parse(v) : NaN;
      return Number.isNaN(ms) ? undefined : ms;
    }
    default:
      return numeric(f, v);
  }
}

function numeric(f: FieldDef, v: JsonValue): number | undefined {
  const n = typeof v === 'number' || typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (Number.isNaN(n)) return undefined;
  if (f.type === 'F64') return n;
  if (!Number.isInteger(n)) return undefined;
  return f.type === 'U64' && n < 0 ? undefined : n;
}

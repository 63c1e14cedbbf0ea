// The JSON filter language of SEARCH.QUERY and SEARCH.COUNT, parsed into a tree checked
// against the index's schema. Parsing never throws: the first problem is the reply.
//
//   filter   := { (field | $must | $should | $mustNot): ... }     several keys: all must hold
//   field    := scalar (smart match) | { $eq | $in | $gt | $gte | $lt | $lte | $smart: ... }
//   $must    := filter | [filter...]     every clause holds
//   $should  := filter | [filter...]     alone: one clause at least; beside $must: optional, adds score
//   $mustNot := filter | [filter...]     no clause holds
// Nested objects name nested fields: { author: { name: "x" } } is { "author.name": "x" }.

import { utf8Bytes } from '../bytes.js';
import { ReplyError } from '../errors.js';
import { analyze } from './analysis.js';
import type { FieldValue } from './document.js';
import * as E from './errors.js';
import type { FieldDef, IndexDef } from './schema.js';

export type Filter =
  | { readonly kind: 'bool'; readonly must: Filter[]; readonly should: Filter[]; readonly mustNot: Filter[] }
  /** A TEXT field holds every one of `terms`. */
  | { readonly kind: 'terms'; readonly field: FieldDef; readonly terms: readonly string[] }
  /** A non-TEXT field holds one of `values`. */
  | { readonly kind: 'equals'; readonly field: FieldDef; readonly values: readonly FieldValue[] }
  | { readonly kind: 'range'; readonly field: FieldDef; readonly bounds: Bounds }
  /** At least one of `any` holds ($in on a TEXT field). */
  | { readonly kind: 'any'; readonly any: readonly Filter[] };

export interface Bounds {
  readonly gt?: FieldValue;
  readonly gte?: FieldValue;
  readonly lt?: FieldValue;
  readonly lte?: FieldValue;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const RANGE_OPS = ['$gt', '$gte', '$lt', '$lte'] as const;
/** Operators of the reference that Larder does not evaluate yet. */
const LATER_OPS = new Set(['$fuzzy', '$phrase', '$regex', '$prefix', '$boost']);
/** Types the reference allows range operators on. */
const RANGE_TYPES = new Set(['U64', 'I64', 'F64', 'DATE', 'KEYWORD']);

export function parseFilter(text: string, def: IndexDef): Filter | ReplyError {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    return E.invalidFilter('not valid JSON');
  }
  if (!isPlainObject(json)) return E.invalidFilter('the filter must be a JSON object');
  return new FilterParser(def).object(json, '');
}

function isPlainObject(v: Json): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class FilterParser {
  constructor(private readonly def: IndexDef) {}

  /** An object's keys, all of which must hold; `prefix` names the nested object it sits in. */
  object(obj: { [k: string]: Json }, prefix: string): Filter | ReplyError {
    const must: Filter[] = [];
    const should: Filter[] = [];
    const mustNot: Filter[] = [];
    for (const [key, value] of Object.entries(obj)) {
      const into = key === '$must' ? must : key === '$should' ? should : key === '$mustNot' ? mustNot : null;
      const parsed = into !== null ? this.clauses(value) : key.startsWith('$') ? E.unknownOperator(key) : this.field(prefix + key, value);
      if (parsed instanceof ReplyError) return parsed;
      (into ?? must).push(...(Array.isArray(parsed) ? parsed : [parsed]));
    }
    return { kind: 'bool', must, should, mustNot };
  }

  /** The clauses of $must, $should or $mustNot: one object, each key a clause, or an array of objects. */
  private clauses(value: Json): Filter[] | ReplyError {
    const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.entries(value).map(([k, v]) => ({ [k]: v })) : null;
    if (items === null) return E.invalidFilter('a boolean operator takes an object or an array of objects');
    const out: Filter[] = [];
    for (const item of items) {
      if (!isPlainObject(item)) return E.invalidFilter('a boolean operator takes an object or an array of objects');
      const f = this.object(item, '');
      if (f instanceof ReplyError) return f;
      out.push(f);
    }
    return out;
  }

  /** `name` is text (from the parsed filter); schema names are its UTF-8 bytes. */
  private field(name: string, value: Json): Filter | ReplyError {
    const bytes = utf8Bytes(name);
    const field = this.def.fields.find((f) => f.name === bytes);
    if (field === undefined) {
      const nested = isPlainObject(value) && this.def.fields.some((f) => f.name.startsWith(bytes + '.'));
      return nested ? this.object(value as { [k: string]: Json }, name + '.') : E.unknownField(name);
    }
    if (!isPlainObject(value)) return this.equals(field, [value], '$eq');
    const must: Filter[] = [];
    const bounds: Record<string, FieldValue> = {};
    for (const [op, operand] of Object.entries(value)) {
      let f: Filter | ReplyError | null = null;
      if (op === '$eq' || op === '$smart') f = this.equals(field, [operand], op);
      else if (op === '$in') f = Array.isArray(operand) ? this.equals(field, operand, op) : E.invalidFilter('$in takes an array');
      else if ((RANGE_OPS as readonly string[]).includes(op)) {
        if (!RANGE_TYPES.has(field.type)) return E.operatorNotFor(op, name, field.type);
        const v = this.value(field, operand);
        if (v instanceof ReplyError) return v;
        bounds[op.slice(1)] = v;
      } else return LATER_OPS.has(op) ? E.notYet(`the ${op} operator`) : E.unknownOperator(op);
      if (f instanceof ReplyError) return f;
      if (f !== null) must.push(f);
    }
    if (Object.keys(bounds).length > 0) must.push({ kind: 'range', field, bounds });
    return must.length === 1 ? must[0] : { kind: 'bool', must, should: [], mustNot: [] };
  }

  /** The field equals one of `operands` ($eq: one; $in: any); on TEXT, holds all terms of one. */
  private equals(field: FieldDef, operands: readonly Json[], op: string): Filter | ReplyError {
    if (field.type === 'TEXT') {
      const any: Filter[] = [];
      for (const o of operands) {
        if (typeof o !== 'string') return E.invalidFilter(`${op} on TEXT field ${field.name} takes text`);
        any.push({ kind: 'terms', field, terms: analyze(field, o) });
      }
      return any.length === 1 ? any[0] : { kind: 'any', any };
    }
    const values: FieldValue[] = [];
    for (const o of operands) {
      const v = this.value(field, o);
      if (v instanceof ReplyError) return v;
      values.push(v);
    }
    return { kind: 'equals', field, values };
  }

  /** A query operand as the field's type holds values (document.ts). */
  private value(field: FieldDef, v: Json): FieldValue | ReplyError {
    const bad = E.invalidFilter(`${JSON.stringify(v)} is not a valid ${field.type} value for field ${field.name}`);
    switch (field.type) {
      case 'BOOL':
        return typeof v === 'boolean' ? v : bad;
      case 'DATE': {
        const ms = typeof v === 'string' ? Date.parse(v) : NaN;
        return Number.isNaN(ms) ? bad : ms;
      }
      case 'KEYWORD':
      case 'FACET':
      case 'TEXT':
        return typeof v === 'string' ? v : bad;
      default:
        return typeof v === 'number' ? v : bad;
    }
  }
}

// The JSON filter language of SEARCH.QUERY and SEARCH.COUNT, parsed into a tree checked
// against the index's schema. Parsing never throws: the first problem is the reply.
//
//   filter   := { (field | $must | $should | $mustNot | $and | $or | $boost): ... }   several keys: all must hold
//   field    := scalar (smart match) | { op: operand, ..., [$boost: n] }
//   op       := $eq | $in | $ne | $gt | $gte | $lt | $lte | $smart | $phrase | $fuzzy | $prefix | $contains | $regex
//   $must    := filter | [filter...]     every clause holds ($and is the same)
//   $should  := filter | [filter...]     alone: one clause at least; beside $must: optional, adds score
//   $or      := filter | [filter...]     one clause at least, wherever it stands
//   $mustNot := filter | [filter...]     no clause holds; alone (no $must/$should/field), nothing matches
//   $ne      := value                     like a $mustNot of the field's $eq, in the object it stands in
//   $boost   := number                   multiplies the score the object (or field clause) adds
// Nested objects name nested fields: { author: { name: "x" } } is { "author.name": "x" }.
// The TEXT operators are built in text-query.ts.

import { utf8Bytes, utf8Text } from '../bytes.js';
import { ReplyError } from '../errors.js';
import { Analyzer } from './analysis.js';
import type { FieldValue } from './document.js';
import * as E from './errors.js';
import type { FieldDef, IndexDef } from './schema.js';
import type { TermPattern } from './term-match.js';
import * as T from './text-query.js';
import type { Bounds } from './value-index.js';

export type { Bounds } from './value-index.js';

/** One place of a phrase: a term, or a pattern for the terms that may stand there. */
export type PhraseSlot = string | TermPattern;

export type Filter =
  /** `boost` multiplies the score the node adds. */
  | { readonly kind: 'bool'; readonly must: Filter[]; readonly should: Filter[]; readonly mustNot: Filter[]; readonly boost: number }
  /** A TEXT field holds `term`: scored by BM25. */
  | { readonly kind: 'term'; readonly field: FieldDef; readonly term: string }
  /** A TEXT field holds a term `pattern` matches (fuzzy, prefix, regex): a constant score, as Tantivy's automaton queries. */
  | { readonly kind: 'expand'; readonly field: FieldDef; readonly pattern: TermPattern }
  /** A TEXT field holds `slots` in order, with at most `slop` positions between them in all. */
  | { readonly kind: 'phrase'; readonly field: FieldDef; readonly slots: readonly PhraseSlot[]; readonly slop: number }
  /** A non-TEXT field holds one of `values`. */
  | { readonly kind: 'equals'; readonly field: FieldDef; readonly values: readonly FieldValue[] }
  | { readonly kind: 'range'; readonly field: FieldDef; readonly bounds: Bounds };

/** A parsed filter's values. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };
const RANGE_OPS = ['$gt', '$gte', '$lt', '$lte'] as const;
const BOOLEAN_OPS = new Set(['$must', '$and', '$should', '$or', '$mustNot']);
/** Operators only a TEXT field takes. */
const TEXT_OPS = new Set(['$smart', '$phrase', '$fuzzy', '$prefix', '$contains', '$regex']);
/** Types the reference allows range operators on. */
const RANGE_TYPES = new Set(['U64', 'I64', 'F64', 'DATE', 'KEYWORD']);
/**
 * How deep a filter's objects and clause arrays may nest: serde_json's recursion limit, which
 * bounds the JSON the Rust service reads. The parser and the evaluator recurse over that
 * nesting, so a deeper filter would overflow the stack (a 5,000-deep $and answered 500).
 */
const MAX_DEPTH = 128;
const TOO_DEEP = E.invalidFilter(`the filter nests deeper than ${MAX_DEPTH} levels`);
const BAD_CLAUSES = E.invalidFilter('a boolean operator takes an object or an array of objects');

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

function isPlainObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class FilterParser {
  private readonly analyzers = new Map<FieldDef, Analyzer>();
  /** Objects and clause arrays open where the parser stands. */
  private depth = 0;

  constructor(private readonly def: IndexDef) {}

  /** An object's keys, all of which must hold; `prefix` names the nested object it sits in. */
  object(obj: JsonObject, prefix: string): Filter | ReplyError {
    if (this.depth >= MAX_DEPTH) return TOO_DEEP;
    this.depth++;
    const f = this.objectClauses(obj, prefix);
    this.depth--;
    return f;
  }

  private objectClauses(obj: JsonObject, prefix: string): Filter | ReplyError {
    const must: Filter[] = [];
    const should: Filter[] = [];
    const mustNot: Filter[] = [];
    let boost = 1;
    for (const [key, value] of Object.entries(obj)) {
      if (key === '$boost') {
        if (typeof value !== 'number') return E.invalidFilter('$boost takes a number');
        boost = value;
        continue;
      }
      if (!key.startsWith('$')) {
        const f = this.field(prefix + key, value, mustNot);
        if (f instanceof ReplyError) return f;
        if (f !== null) must.push(f);
        continue;
      }
      if (!BOOLEAN_OPS.has(key)) return E.unknownOperator(key);
      const clauses = this.clauses(value);
      if (clauses instanceof ReplyError) return clauses;
      if (key === '$must' || key === '$and') must.push(...clauses);
      else if (key === '$should') should.push(...clauses);
      else if (key === '$mustNot') mustNot.push(...clauses);
      else must.push(T.any(clauses)); // $or: one clause at least, even beside $must
    }
    return { kind: 'bool', must, should, mustNot, boost };
  }

  /** The clauses of a boolean operator: one object, each key a clause (its $boost boosting each), or an array of objects. */
  private clauses(value: Json): Filter[] | ReplyError {
    if (!Array.isArray(value)) {
      if (!isPlainObject(value)) return BAD_CLAUSES;
      const { $boost, ...rest } = value;
      return this.items(Object.entries(rest).map(([k, v]) => ($boost === undefined ? { [k]: v } : { [k]: v, $boost })));
    }
    if (this.depth >= MAX_DEPTH) return TOO_DEEP;
    this.depth++; // the array is a level of the JSON
    const out = this.items(value);
    this.depth--;
    return out;
  }

  private items(items: readonly Json[]): Filter[] | ReplyError {
    const out: Filter[] = [];
    for (const item of items) {
      if (!isPlainObject(item)) return BAD_CLAUSES;
      const f = this.object(item, '');
      if (f instanceof ReplyError) return f;
      out.push(f);
    }
    return out;
  }

  /**
   * A field's clause; null when it only excludes: $ne adds to `mustNot`, the enclosing object's
   * exclusions, since it filters that object's matches. `name` is text (from the parsed
   * filter); schema names are its UTF-8 bytes.
   */
  private field(name: string, value: Json, mustNot: Filter[]): Filter | null | ReplyError {
    const bytes = utf8Bytes(name);
    const field = this.def.fields.find((f) => f.name === bytes);
    if (field === undefined) {
      const nested = isPlainObject(value) && this.def.fields.some((f) => f.name.startsWith(bytes + '.'));
      return nested ? this.object(value as JsonObject, name + '.') : E.unknownField(name);
    }
    if (!isPlainObject(value)) return this.operator(field, name, '$smart', value);
    const must: Filter[] = [];
    const bounds: Record<string, FieldValue> = {};
    let boost = 1;
    for (const [op, operand] of Object.entries(value)) {
      if (op === '$boost') {
        if (typeof operand !== 'number') return E.invalidFilter('$boost takes a number');
        boost = operand;
      } else if (op === '$ne') {
        if (field.type === 'FACET') return E.operatorNotFor(op, name, field.type);
        const f = this.equals(field, [operand], op);
        if (f instanceof ReplyError) return f;
        mustNot.push(f);
      } else if ((RANGE_OPS as readonly string[]).includes(op)) {
        if (!RANGE_TYPES.has(field.type)) return E.operatorNotFor(op, name, field.type);
        const v = this.value(field, operand);
        if (v instanceof ReplyError) return v;
        bounds[op.slice(1)] = v;
      } else {
        const f = this.operator(field, name, op, operand);
        if (f instanceof ReplyError) return f;
        must.push(f);
      }
    }
    if (Object.keys(bounds).length > 0) must.push({ kind: 'range', field, bounds });
    if (must.length === 0) return null;
    if (must.length === 1 && boost === 1) return must[0];
    return { kind: 'bool', must, should: [], mustNot: [], boost };
  }

  /** One operator on a field, other than the range operators. */
  private operator(field: FieldDef, name: string, op: string, operand: Json): Filter | ReplyError {
    if (op === '$in') return Array.isArray(operand) ? this.equals(field, operand, op) : E.invalidFilter('$in takes an array');
    if (op === '$eq') return this.equals(field, [operand], op);
    if (!TEXT_OPS.has(op)) return E.unknownOperator(op);
    if (field.type !== 'TEXT') return op === '$smart' ? this.equals(field, [operand], op) : E.operatorNotFor(op, name, field.type);
    const a = this.analyzer(field);
    if (op === '$phrase') return T.phraseText(a, operand);
    if (op === '$fuzzy') return T.fuzzyText(a, operand);
    if (typeof operand !== 'string') return E.invalidFilter(`${op} on TEXT field ${name} takes text`);
    if (op === '$smart') return T.smartText(a, operand);
    if (op === '$prefix') return T.prefixText(a, operand);
    if (op === '$contains') return T.containsText(a, operand);
    return T.regexText(a, operand);
  }

  /** The field equals one of `operands` ($eq: one; $in: any); on TEXT, as text-query.ts's eqText. */
  private equals(field: FieldDef, operands: readonly Json[], op: string): Filter | ReplyError {
    if (field.type === 'TEXT') {
      const any: Filter[] = [];
      for (const o of operands) {
        if (typeof o !== 'string') return E.invalidFilter(`${op} on TEXT field ${utf8Text(field.name)} takes text`);
        any.push(T.eqText(this.analyzer(field), o));
      }
      return any.length === 1 ? any[0] : T.any(any);
    }
    const values: FieldValue[] = [];
    for (const o of operands) {
      const v = this.value(field, o);
      if (v instanceof ReplyError) return v;
      values.push(v);
    }
    return { kind: 'equals', field, values };
  }

  private analyzer(field: FieldDef): Analyzer {
    let a = this.analyzers.get(field);
    if (a === undefined) this.analyzers.set(field, (a = new Analyzer(field, this.def.language)));
    return a;
  }

  /** A query operand as the field's type holds values (document.ts). */
  private value(field: FieldDef, v: Json): FieldValue | ReplyError {
    const bad = E.invalidFilter(`${JSON.stringify(v)} is not a valid ${field.type} value for field ${utf8Text(field.name)}`);
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

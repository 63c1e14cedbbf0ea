// Evaluates a parsed JSONPath (json-path.ts) against a document, returning each match with
// its concrete location (keys and indexes from the root), which the write commands use to
// change the document in place.
//
// Recursive descent ("..") visits a node's children, each with its whole subtree, before
// the node itself: `$..a` on {"a":1,"n":{"a":2}} answers [2,1]. RedisJSON answers [1,2];
// Upstash answers the deeper match first, and @upstash/redis's own tests expect that order.

import { RE2JS, RE2JSException } from 're2js';
import type { CmpOp, Expr, Operand, Query, Step } from './json-path.js';
import { isNumber, jsonEquals, type JsonValue, type PathKey } from './json-value.js';
import { touch } from './json-work.js';

/** A value a path reached, linked to the match it was reached from. */
export class Match {
  private keys: readonly PathKey[] | undefined;

  constructor(
    readonly value: JsonValue,
    private readonly from: Match | null,
    private readonly key: PathKey,
  ) {}

  /**
   * Its keys and indexes from the root, built when a write asks: a step costs the same at
   * any depth, where copying its parent's keys cost one per level.
   */
  get at(): readonly PathKey[] {
    if (this.keys === undefined) {
      const keys: PathKey[] = [];
      for (let m: Match | null = this; m.from !== null; m = m.from) keys.push(m.key);
      this.keys = keys.reverse();
    }
    return this.keys;
  }
}

export function evaluate(query: Query, root: JsonValue, current: JsonValue = root): Match[] {
  let matches: Match[] = [new Match(query.from === '$' ? root : current, null, '')];
  for (const step of query.steps) {
    const next: Match[] = [];
    for (const m of matches) apply(step, m, root, next);
    matches = next;
    if (matches.length === 0) break;
  }
  return matches;
}

/** A step reaching a value: one value touched (json-work.ts). */
function child(m: Match, key: PathKey, value: JsonValue): Match {
  touch(1);
  return new Match(value, m, key);
}

/** A filter testing a value: one value touched, whether it passes or not. */
function passes(e: Expr, v: JsonValue, root: JsonValue): boolean {
  touch(1);
  return test(e, v, root);
}

function apply(step: Step, m: Match, root: JsonValue, out: Match[]): void {
  const v = m.value;
  switch (step.k) {
    case 'name':
      if (v instanceof Map) {
        const x = v.get(step.name);
        if (x !== undefined) out.push(child(m, step.name, x));
      }
      return;
    case 'index':
      // As RedisJSON: an index before the first element means the first.
      if (Array.isArray(v)) {
        const i = step.index < 0 ? Math.max(0, v.length + step.index) : step.index;
        if (i < v.length) out.push(child(m, i, v[i]));
      }
      return;
    case 'wild':
      if (Array.isArray(v)) v.forEach((x, i) => out.push(child(m, i, x)));
      else if (v instanceof Map) for (const [k, x] of v) out.push(child(m, k, x));
      return;
    case 'union':
      for (const item of step.items) {
        apply(typeof item === 'string' ? { k: 'name', name: item } : { k: 'index', index: item }, m, root, out);
      }
      return;
    case 'slice': {
      if (!Array.isArray(v)) return;
      const len = v.length;
      const norm = (i: number | undefined, dflt: number) => (i === undefined ? dflt : i < 0 ? Math.max(0, len + i) : Math.min(len, i));
      const end = norm(step.end, len);
      for (let i = norm(step.start, 0); i < end; i += step.step) out.push(child(m, i, v[i]));
      return;
    }
    case 'filter':
      // A container's elements or members are tested; a scalar is tested itself.
      if (Array.isArray(v)) v.forEach((x, i) => passes(step.expr, x, root) && out.push(child(m, i, x)));
      else if (v instanceof Map) {
        for (const [k, x] of v) if (passes(step.expr, x, root)) out.push(child(m, k, x));
      } else if (passes(step.expr, v, root)) out.push(m);
      return;
    case 'descend':
      descend(m, (n) => apply(step.step, n, root, out));
      return;
  }
}

/** Visits `m`'s subtree: children (each with its subtree) first, then `m` itself. */
function descend(m: Match, visit: (n: Match) => void): void {
  const v = m.value;
  if (Array.isArray(v)) v.forEach((x, i) => descend(child(m, i, x), visit));
  else if (v instanceof Map) for (const [k, x] of v) descend(child(m, k, x), visit);
  visit(m);
}

/**
 * A filter term, as RedisJSON evaluates it: a literal, or the value a path selects when it
 * selects exactly one (otherwise the term is invalid: no comparison holds but !=).
 */
type Term = { readonly fromPath: boolean; readonly value: JsonValue } | undefined;

function test(e: Expr, current: JsonValue, root: JsonValue): boolean {
  switch (e.k) {
    case 'or':
      return test(e.a, current, root) || test(e.b, current, root);
    case 'and':
      return test(e.a, current, root) && test(e.b, current, root);
    case 'valid':
      return term(e.term, current, root) !== undefined;
    case 'cmp':
      return compare(e.op, term(e.left, current, root), term(e.right, current, root));
  }
}

function term(o: Operand, current: JsonValue, root: JsonValue): Term {
  if (o.k === 'lit') return { fromPath: false, value: o.value };
  const found = evaluate(o.path, root, current);
  return found.length === 1 ? { fromPath: true, value: found[0].value } : undefined;
}

const regexes = new Map<string, RE2JS | null>();

/**
 * `=~`'s pattern, or null when it does not compile (it then matches nothing). RE2, as Rust's
 * regex crate RedisJSON uses: a match takes time linear in the text whatever the pattern, where
 * a backtracking engine given (a+)+$ would stall the database's thread.
 */
function regex(pattern: string): RE2JS | null {
  let r = regexes.get(pattern);
  if (r === undefined) {
    try {
      r = RE2JS.compile(pattern);
    } catch (e) {
      if (!(e instanceof RE2JSException)) throw e;
      r = null;
    }
    if (regexes.size > 256) regexes.clear();
    regexes.set(pattern, r);
  }
  return r;
}

/** Numbers against numbers, strings against strings, booleans against booleans; else not comparable. */
function order(a: JsonValue, b: JsonValue): number | undefined {
  if (isNumber(a) && isNumber(b)) {
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  }
  const sameKind = (typeof a === 'string' && typeof b === 'string') || (typeof a === 'boolean' && typeof b === 'boolean');
  if (sameKind) return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function compare(op: CmpOp, l: Term, r: Term): boolean {
  if (op === '!=') return !compare('==', l, r);
  if (l === undefined || r === undefined) return false;
  if (op === '=~') {
    return l.fromPath && typeof l.value === 'string' && typeof r.value === 'string' && (regex(r.value)?.test(l.value) ?? false);
  }
  const o = order(l.value, r.value);
  switch (op) {
    case '==':
      return o === undefined ? l.fromPath && r.fromPath && jsonEquals(l.value, r.value) : o === 0;
    case '<':
      return o !== undefined && o < 0;
    case '<=':
      return o !== undefined && o <= 0;
    case '>':
      return o !== undefined && o > 0;
    case '>=':
      return o !== undefined && o >= 0;
  }
}

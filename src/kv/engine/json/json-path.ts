// JSONPath as RedisJSON 2.x reads it, parsed once into steps the evaluator walks:
//   $            the root (inside a filter, @ is the current element and $ the document root)
//   .name ['name'] ["name"]   a member          .* [*]   every member or element
//   [3] [-1]     an element, negative from the end (clamped to the first)   [0,2] ['a','b']   a union
//   [start:end:step]   a slice (Python's rules, step > 0)
//   ..x          x applied to every value at any depth
//   [?(expr)]    elements (or members) for which expr holds: comparisons ==, !=, <, <=, >, >=,
//                =~ (regex), && and ||, parentheses, and a term alone (a path that selects
//                exactly one value, or any literal) meaning "holds"
// A legacy path (anything not starting with '$') is the same language after RedisJSON's
// rewrite: "." is "$", ".a" is "$.a", "a[0]" is "$.a[0]"; commands answer a legacy path with a
// single value and an error when nothing matches.

import { utf8Bytes, utf8Text } from '../../bytes.js';
import { parseJson } from './json-parse.js';
import { utf8Length, type JsonValue } from './json-value.js';

export type Step =
  | { readonly k: 'name'; readonly name: string }
  | { readonly k: 'index'; readonly index: number }
  | { readonly k: 'wild' }
  | { readonly k: 'union'; readonly items: readonly (string | number)[] }
  | { readonly k: 'slice'; readonly start?: number; readonly end?: number; readonly step: number }
  | { readonly k: 'filter'; readonly expr: Expr }
  | { readonly k: 'descend'; readonly step: Step };

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '=~';

export type Expr =
  | { readonly k: 'or' | 'and'; readonly a: Expr; readonly b: Expr }
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly left: Operand; readonly right: Operand }
  | { readonly k: 'valid'; readonly term: Operand }; // a term alone: holds unless it is invalid

export type Operand = { readonly k: 'path'; readonly path: Query } | { readonly k: 'lit'; readonly value: JsonValue };

export interface Query {
  /** '$' starts at the document, '@' at the element a filter tests. */
  readonly from: '$' | '@';
  readonly steps: readonly Step[];
}

/** A path as a command was given it. */
export interface JsonPath {
  /** As the client sent it, a byte string (some error texts quote this one). */
  readonly original: string;
  /** The $-form (legacy paths rewritten), a byte string quoted by the other error texts. */
  readonly normal: string;
  readonly legacy: boolean;
  readonly query: Query;
  /** Only names and single indexes: the path names one place, which JSON.SET may create. */
  readonly isStatic: boolean;
  readonly isRoot: boolean;
}

/** Parses a path argument (a byte string holding UTF-8); a string is the error text, in bytes too. */
export function parsePath(original: string): JsonPath | string {
  const legacy = !original.startsWith('$');
  const normal = !legacy ? original : original === '.' ? '$' : original.startsWith('.') ? '$' + original : '$.' + original;
  const p = new PathParser(utf8Text(normal));
  const query = p.parseQuery();
  if (typeof query === 'string') return query;
  const isStatic = query.steps.every((s) => s.k === 'name' || s.k === 'index');
  return { original, normal, legacy, query, isStatic, isRoot: query.steps.length === 0 };
}

class PathFault extends Error {
  constructor(readonly at: number, what: string) {
    super(what);
  }
}

const CMP_OPS: readonly CmpOp[] = ['==', '!=', '<=', '>=', '=~', '<', '>'];

/**
 * How deep parentheses may nest in a path, those of filters ([?(...)]) included, so filters in
 * filters too. Parsing and evaluating recurse over that nesting, so a deeper path would overflow
 * the stack: 3,000 parentheses, or 1,000 filters each in the last, answered 500. Larder's own
 * bound (RedisJSON states none); a chain of && or || is no nesting and may be long.
 */
const MAX_NESTING = 128;

class PathParser {
  private at = 0;
  /** Parentheses open where the parser stands. */
  private depth = 0;
  constructor(private readonly s: string) {}

  parseQuery(): Query | string {
    try {
      const q = this.query();
      this.ws();
      if (this.at < this.s.length) throw new PathFault(this.at, "expected one of the following: '.', '..', '['");
      return q;
    } catch (e) {
      if (e instanceof PathFault) {
        // RedisJSON counts the position in bytes.
        const s = this.s;
        const framed = e.at >= s.length ? `${s} <<<<----` : `${s.slice(0, e.at)} ---->>>> ${s.slice(e.at)}`;
        return utf8Bytes(`Error occurred on position ${utf8Length(s.slice(0, e.at))}, "${framed}", ${e.message}.`);
      }
      throw e;
    }
  }

  private ws(): void {
    while (this.s[this.at] === ' ') this.at++;
  }

  private query(): Query {
    const from = this.s[this.at];
    if (from !== '$' && from !== '@') throw new PathFault(this.at, "expected one of the following: '$', '@'");
    this.at++;
    const steps: Step[] = [];
    // The first step may follow the root without a dot ($a, $*), as RedisJSON's grammar allows.
    if (this.at < this.s.length && (this.s[this.at] === '*' || isNameChar(this.s.charCodeAt(this.at)))) steps.push(this.member());
    for (;;) {
      const c = this.s[this.at];
      if (c === '.' && this.s[this.at + 1] === '.') {
        this.at += 2;
        steps.push({ k: 'descend', step: this.s[this.at] === '[' ? this.bracket() : this.member() });
      } else if (c === '.') {
        this.at++;
        steps.push(this.s[this.at] === '[' ? this.bracket() : this.member());
      } else if (c === '[') steps.push(this.bracket());
      else return { from, steps };
    }
  }

  /** A name or '*' after a dot. */
  private member(): Step {
    if (this.s[this.at] === '*') {
      this.at++;
      return { k: 'wild' };
    }
    const start = this.at;
    while (this.at < this.s.length && isNameChar(this.s.charCodeAt(this.at))) this.at++;
    if (this.at === start) throw new PathFault(this.at, "expected one of the following: <string>, '*', '['");
    return { k: 'name', name: this.s.slice(start, this.at) };
  }

  private bracket(): Step {
    this.at++; // '['
    this.ws();
    let step: Step;
    if (this.s[this.at] === '*') {
      this.at++;
      step = { k: 'wild' };
    } else if (this.s[this.at] === '?') {
      this.at++;
      step = { k: 'filter', expr: this.or() };
    } else step = this.unionOrSlice();
    this.ws();
    this.expect(']');
    return step;
  }

  private expect(c: string): void {
    if (this.s[this.at] !== c) throw new PathFault(this.at, `expected one of the following: '${c}'`);
    this.at++;
  }

  private unionOrSlice(): Step {
    const c = this.s[this.at];
    if (c === ':' || ((c === '-' || isDigit(c)) && this.sliceAhead())) return this.slice();
    const items: (string | number)[] = [];
    for (;;) {
      this.ws();
      const q = this.s[this.at];
      items.push(q === '"' || q === "'" ? this.quoted() : this.int());
      this.ws();
      if (this.s[this.at] !== ',') break;
      this.at++;
    }
    if (items.length > 1) return { k: 'union', items };
    return typeof items[0] === 'string' ? { k: 'name', name: items[0] } : { k: 'index', index: items[0] };
  }

  private sliceAhead(): boolean {
    let i = this.at;
    while (i < this.s.length && (this.s[i] === '-' || isDigit(this.s[i]) || this.s[i] === ' ')) i++;
    return this.s[i] === ':';
  }

  private slice(): Step {
    const bound = (): number | undefined => {
      this.ws();
      const c = this.s[this.at];
      return c === '-' || isDigit(c) ? this.int() : undefined;
    };
    const start = bound();
    this.ws();
    this.expect(':');
    const end = bound();
    this.ws();
    let step = 1;
    if (this.s[this.at] === ':') {
      this.at++;
      step = bound() ?? 1;
    }
    if (step <= 0) throw new PathFault(this.at, 'expected one of the following: <positive number>');
    return { k: 'slice', start, end, step };
  }

  private int(): number {
    const start = this.at;
    if (this.s[this.at] === '-') this.at++;
    while (isDigit(this.s[this.at])) this.at++;
    const n = Number(this.s.slice(start, this.at));
    if (this.at === start || !Number.isSafeInteger(n)) {
      throw new PathFault(start, "expected one of the following: '<number>', '<string>', '*', '[?(filter_expression)]'");
    }
    return n;
  }

  private quoted(): string {
    const q = this.s[this.at++];
    let out = '';
    while (this.at < this.s.length && this.s[this.at] !== q) {
      if (this.s[this.at] === '\\' && (this.s[this.at + 1] === q || this.s[this.at + 1] === '\\')) this.at++;
      out += this.s[this.at++];
    }
    this.expect(q);
    return out;
  }

  /** An expression in parentheses, the parser at the '('. */
  private parenthesized(): Expr {
    if (this.depth >= MAX_NESTING) throw new PathFault(this.at, `nesting deeper than ${MAX_NESTING} parentheses`);
    this.at++;
    this.depth++;
    const e = this.or();
    this.depth--;
    this.ws();
    this.expect(')');
    return e;
  }

  private or(): Expr {
    const terms = [this.and()];
    for (;;) {
      this.ws();
      if (!this.s.startsWith('||', this.at)) return balanced('or', terms);
      this.at += 2;
      terms.push(this.and());
    }
  }

  private and(): Expr {
    const terms = [this.term()];
    for (;;) {
      this.ws();
      if (!this.s.startsWith('&&', this.at)) return balanced('and', terms);
      this.at += 2;
      terms.push(this.term());
    }
  }

  private term(): Expr {
    this.ws();
    if (this.s[this.at] === '(') return this.parenthesized();
    const left = this.operand();
    this.ws();
    const op = CMP_OPS.find((o) => this.s.startsWith(o, this.at));
    if (op === undefined) return { k: 'valid', term: left };
    this.at += op.length;
    this.ws();
    return { k: 'cmp', op, left, right: this.operand() };
  }

  private operand(): Operand {
    const c = this.s[this.at];
    if (c === '@' || c === '$') return { k: 'path', path: this.query() };
    if (c === '"' || c === "'") return { k: 'lit', value: this.quoted() };
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(this.s.slice(this.at));
    if (m === null) throw new PathFault(this.at, 'expected one of the following: <term>');
    this.at += m[0].length;
    const parsed = parseJson(m[0]);
    if (!parsed.ok) throw new PathFault(this.at, 'expected one of the following: <term>');
    return { k: 'lit', value: parsed.value };
  }
}

/**
 * `terms` joined by `k`, as a tree of depth log2(terms.length), in their order: && and || are
 * associative and evaluated left to right, so the answer is a left-deep chain's, without its
 * recursion as deep as the chain is long (20,000 &&s overflowed the evaluator's stack).
 */
function balanced(k: 'and' | 'or', terms: readonly Expr[]): Expr {
  if (terms.length === 1) return terms[0];
  const mid = terms.length >> 1;
  return { k, a: balanced(k, terms.slice(0, mid)), b: balanced(k, terms.slice(mid)) };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** RedisJSON's unquoted member names: ASCII letters, digits and -_`~+#%$^/: (others need brackets). */
function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || NAME_SYMBOLS.includes(String.fromCharCode(c));
}

const NAME_SYMBOLS = '-_`~+#%$^/:';

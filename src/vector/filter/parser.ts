// Parser of the metadata filter language (Upstash Vector's SQL-like WHERE clauses):
//   expr    := and ('OR' and)*                 AND binds tighter than OR
//   and     := primary ('AND' primary)*
//   primary := '(' expr ')' | 'HAS' ['NOT'] 'FIELD' path | path condition
//   condition := ('=' | '!=' | '<' | '<=' | '>' | '>=') literal
//              | ['NOT'] 'GLOB' string | ['NOT'] 'IN' '(' literal (',' literal)* ')' | ['NOT'] 'CONTAINS' literal
//   path    := name ('.' name | '[' integer ']' | '[' '#' '-' integer ']')*
//   literal := 'single' | "double" quoted string | number | true | false
// Keywords are case-insensitive. A syntax error is a FilterSyntaxError carrying the 0-based
// position of the offending character; its message points at it as the service's does,
// `Invalid filter. At line <line>:<column> ...` (line from 1, column from 0).
// Evaluation recurses over the tree, so its depth is bounded: a chain of ANDs or ORs becomes a
// balanced tree (depth log2 of its length, evaluated left to right as written), and
// parentheses may nest at most `maxDepth` levels.

import type { Comparison, Filter, Literal, Path, Step } from './ast.js';

/** What the tokenizer expects where no token starts. */
const A_TOKEN = 'a token';

export class FilterSyntaxError {
  constructor(
    readonly position: number,
    readonly expected: string,
    /** The filter text; parseFilter sets it on the errors it returns. */
    readonly source = '',
  ) {}
  get message(): string {
    const before = this.source.slice(0, this.position);
    const line = before.split('\n').length;
    const column = this.position - (before.lastIndexOf('\n') + 1);
    // The service's lexer words an unknown character so; its users match on that text.
    const problem = this.expected === A_TOKEN ? `token recognition error at: '${this.source[this.position]}'` : `expected ${this.expected}`;
    return `Invalid filter. At line ${line}:${column} ${problem}`;
  }
}

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'string'; text: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'punct'; text: string; at: number }
  | { kind: 'end'; at: number };

const PUNCT = ['!=', '<=', '>=', '=', '<', '>', '(', ')', '[', ']', ',', '.', '#', '-'];

function isWordStart(c: string): boolean {
  return /[A-Za-z_$]/.test(c);
}

function isWordPart(c: string): boolean {
  return /[A-Za-z0-9_$]/.test(c);
}

function tokenize(src: string): Token[] | FilterSyntaxError {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === "'" || c === '"') {
      const at = i;
      let text = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) i++;
        text += src[i++];
      }
      if (i >= src.length) return new FilterSyntaxError(at, 'a closing quote');
      i++;
      out.push({ kind: 'string', text, at });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9.]/.test(src[i + 1] ?? '') && !endsValue(out))) {
      const m = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
      if (m === null) return new FilterSyntaxError(i, 'a number');
      out.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    } else if (isWordStart(c)) {
      const at = i;
      while (i < src.length && isWordPart(src[i])) i++;
      out.push({ kind: 'word', text: src.slice(at, i), at });
    } else {
      const p = PUNCT.find((t) => src.startsWith(t, i));
      if (p === undefined) return new FilterSyntaxError(i, A_TOKEN);
      out.push({ kind: 'punct', text: p, at: i });
      i += p.length;
    }
  }
  out.push({ kind: 'end', at: src.length });
  return out;
}

/** Whether the previous token ends a value, so a '-' after it is not a sign (`arr[#-1]`). */
function endsValue(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  return last !== undefined && last.kind === 'punct' && last.text === '#';
}

class Parser {
  private at = 0;
  /** Parentheses open at `at`. */
  private depth = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly maxDepth: number,
  ) {}

  private peek(): Token {
    return this.tokens[this.at];
  }

  private keyword(word: string, offset = 0): boolean {
    const t = this.tokens[this.at + offset];
    return t !== undefined && t.kind === 'word' && t.text.toUpperCase() === word;
  }

  private punct(text: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === text;
  }

  private expect(ok: boolean, what: string): void {
    if (!ok) throw new FilterSyntaxError(this.peek().at, what);
  }

  parse(): Filter {
    const f = this.or();
    this.expect(this.peek().kind === 'end', 'AND, OR or the end of the filter');
    return f;
  }

  private or(): Filter {
    const terms = [this.and()];
    while (this.keyword('OR')) {
      this.at++;
      terms.push(this.and());
    }
    return balanced('or', terms);
  }

  private and(): Filter {
    const terms = [this.primary()];
    while (this.keyword('AND')) {
      this.at++;
      terms.push(this.primary());
    }
    return balanced('and', terms);
  }

  private primary(): Filter {
    if (this.punct('(')) {
      this.expect(this.depth < this.maxDepth, `at most ${this.maxDepth} nested parentheses`);
      this.at++;
      this.depth++;
      const inner = this.or();
      this.expect(this.punct(')'), "')'");
      this.at++;
      this.depth--;
      return inner;
    }
    if (this.keyword('HAS') && (this.keyword('FIELD', 1) || (this.keyword('NOT', 1) && this.keyword('FIELD', 2)))) {
      this.at++;
      const negated = this.keyword('NOT');
      this.at += negated ? 2 : 1;
      return { kind: 'has', path: this.path(), negated };
    }
    const path = this.path();
    const t = this.peek();
    if (t.kind === 'punct' && ['=', '!=', '<', '<=', '>', '>='].includes(t.text)) {
      this.at++;
      return { kind: 'compare', path, op: t.text as Comparison, value: this.literal() };
    }
    const negated = this.keyword('NOT');
    if (negated) this.at++;
    if (this.keyword('GLOB')) {
      this.at++;
      const p = this.peek();
      this.expect(p.kind === 'string', 'a quoted pattern');
      this.at++;
      return { kind: 'glob', path, pattern: (p as { text: string }).text, negated };
    }
    if (this.keyword('IN')) {
      this.at++;
      this.expect(this.punct('('), "'('");
      this.at++;
      const values = [this.literal()];
      while (this.punct(',')) {
        this.at++;
        values.push(this.literal());
      }
      this.expect(this.punct(')'), "',' or ')'");
      this.at++;
      return { kind: 'in', path, values, negated };
    }
    if (this.keyword('CONTAINS')) {
      this.at++;
      return { kind: 'contains', path, value: this.literal(), negated };
    }
    throw new FilterSyntaxError(this.peek().at, negated ? 'GLOB, IN or CONTAINS' : 'an operator');
  }

  private path(): Path {
    const first = this.peek();
    this.expect(first.kind === 'word', 'a field name');
    this.at++;
    const steps: Step[] = [(first as { text: string }).text];
    for (;;) {
      if (this.punct('.')) {
        this.at++;
        const t = this.peek();
        this.expect(t.kind === 'word', 'a field name');
        this.at++;
        steps.push((t as { text: string }).text);
      } else if (this.punct('[')) {
        this.at++;
        let fromEnd = false;
        if (this.punct('#')) {
          this.at++;
          this.expect(this.punct('-'), "'-'");
          this.at++;
          fromEnd = true;
        }
        const t = this.peek();
        this.expect(t.kind === 'number' && Number.isInteger(t.value) && t.value >= 0, 'an array index');
        this.at++;
        const n = (t as { value: number }).value;
        steps.push(fromEnd ? { fromEnd: n } : n);
        this.expect(this.punct(']'), "']'");
        this.at++;
      } else return steps;
    }
  }

  private literal(): Literal {
    const t = this.peek();
    if (t.kind === 'string') {
      this.at++;
      return t.text;
    }
    if (t.kind === 'number') {
      this.at++;
      return t.value;
    }
    if (this.keyword('TRUE') || this.keyword('FALSE')) {
      this.at++;
      return (t as { text: string }).text.toUpperCase() === 'TRUE';
    }
    throw new FilterSyntaxError(t.at, 'a value');
  }
}

/** `terms` joined by `kind`, as a tree of depth log2(terms.length), in their order. */
function balanced(kind: 'and' | 'or', terms: readonly Filter[]): Filter {
  if (terms.length === 1) return terms[0];
  const mid = terms.length >> 1;
  return { kind, left: balanced(kind, terms.slice(0, mid)), right: balanced(kind, terms.slice(mid)) };
}

/** Parses a filter; a syntax error is returned, never thrown. */
export function parseFilter(src: string, maxDepth: number): Filter | FilterSyntaxError {
  const tokens = tokenize(src);
  if (tokens instanceof FilterSyntaxError) return new FilterSyntaxError(tokens.position, tokens.expected, src);
  try {
    return new Parser(tokens, maxDepth).parse();
  } catch (e) {
    if (e instanceof FilterSyntaxError) return new FilterSyntaxError(e.position, e.expected, src);
    throw e;
  }
}

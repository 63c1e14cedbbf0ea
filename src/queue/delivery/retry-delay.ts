// Upstash-Retry-Delay: an arithmetic expression over `retried` (retries made so far: 0 before
// the first retry) giving the wait before the next attempt in milliseconds, e.g.
// `pow(2, retried) * 1000`. A strict recursive-descent parser, run once at publish so a bad
// expression is refused with its position; the message keeps the text, and each retry parses
// and evaluates it again (it is short, and the text is what survives a restart). Never eval.
//
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary ('^' unary)?            right-associative: 2^3^2 = 2^9
//   primary := number | 'retried' | name '(' expr (',' expr)* ')' | '(' expr ')'

export type Expr =
  | { kind: 'num'; value: number }
  | { kind: 'retried' }
  | { kind: 'neg'; of: Expr }
  | { kind: 'bin'; op: '+' | '-' | '*' | '/' | '^'; left: Expr; right: Expr }
  | { kind: 'call'; fn: FunctionName; args: Expr[] };

export interface SyntaxProblem {
  /** 1-based character position. */
  at: number;
  what: string;
}

/** Each function with its argument count: [least, most]. */
const FUNCTIONS = {
  pow: [2, 2],
  sqrt: [1, 1],
  abs: [1, 1],
  exp: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  round: [1, 1],
  min: [1, Infinity],
  max: [1, Infinity],
} as const;
type FunctionName = keyof typeof FUNCTIONS;

const MAX_LENGTH = 512;
/** Nesting deeper than this is refused, so a hostile header cannot exhaust the stack. */
const MAX_DEPTH = 64;

export function parseRetryDelay(text: string): Expr | SyntaxProblem {
  if (text.length > MAX_LENGTH) return { at: MAX_LENGTH + 1, what: `longer than ${MAX_LENGTH} characters` };
  const p = new Parser(text);
  const e = p.expr(0);
  if (p.problem !== null) return p.problem;
  p.skipSpace();
  if (p.at < text.length) return { at: p.at + 1, what: `unexpected '${text[p.at]}'` };
  return e;
}

export const isProblem = (x: Expr | SyntaxProblem): x is SyntaxProblem => 'what' in x;

export function evaluate(e: Expr, retried: number): number {
  switch (e.kind) {
    case 'num':
      return e.value;
    case 'retried':
      return retried;
    case 'neg':
      return -evaluate(e.of, retried);
    case 'bin': {
      const a = evaluate(e.left, retried);
      const b = evaluate(e.right, retried);
      switch (e.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
        case '^':
          return a ** b;
      }
      break;
    }
    case 'call': {
      const v = e.args.map((a) => evaluate(a, retried));
      switch (e.fn) {
        case 'pow':
          return v[0] ** v[1];
        case 'min':
          return Math.min(...v);
        case 'max':
          return Math.max(...v);
        default:
          return Math[e.fn](v[0]);
      }
    }
  }
}

class Parser {
  at = 0;
  /** The first problem sticks; later reads return harmless values. */
  problem: SyntaxProblem | null = null;

  constructor(private readonly s: string) {}

  expr(depth: number): Expr {
    let left = this.term(depth);
    for (let op = this.op('+-'); op !== undefined && this.problem === null; op = this.op('+-')) {
      left = { kind: 'bin', op: op as '+' | '-', left, right: this.term(depth) };
    }
    return left;
  }

  private term(depth: number): Expr {
    let left = this.unary(depth);
    for (let op = this.op('*/'); op !== undefined && this.problem === null; op = this.op('*/')) {
      left = { kind: 'bin', op: op as '*' | '/', left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): Expr {
    if (depth > MAX_DEPTH) return this.fail(`nested more than ${MAX_DEPTH} deep`);
    const sign = this.op('-+');
    if (sign === '-') return { kind: 'neg', of: this.unary(depth + 1) };
    if (sign === '+') return this.unary(depth + 1);
    const base = this.primary(depth);
    return this.op('^') === undefined ? base : { kind: 'bin', op: '^', left: base, right: this.unary(depth + 1) };
  }

  private primary(depth: number): Expr {
    this.skipSpace();
    const s = this.s;
    const start = this.at;
    if (start >= s.length) return this.fail('the expression ends too early');
    const c = s[start];
    if (c === '(') {
      this.at++;
      const inner = this.expr(depth + 1);
      return this.expect(')') ? inner : this.fail(`expected ')'`);
    }
    const num = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(s.slice(start));
    if (num !== null) {
      this.at += num[0].length;
      return { kind: 'num', value: Number(num[0]) };
    }
    const word = /^[A-Za-z_]\w*/.exec(s.slice(start));
    if (word === null) return this.fail(`unexpected '${c}'`);
    this.at += word[0].length;
    const name = word[0];
    if (name === 'retried') return { kind: 'retried' };
    if (!Object.hasOwn(FUNCTIONS, name)) {
      this.at = start;
      return this.fail(`unknown name '${name}' (retried, ${Object.keys(FUNCTIONS).join(', ')})`);
    }
    const fn = name as FunctionName;
    if (!this.expect('(')) return this.fail(`expected '(' after ${fn}`);
    const args = [this.expr(depth + 1)];
    while (this.problem === null && this.expect(',')) args.push(this.expr(depth + 1));
    if (this.problem !== null) return args[0];
    if (!this.expect(')')) return this.fail(`expected ',' or ')'`);
    const [least, most] = FUNCTIONS[fn];
    if (args.length < least || args.length > most) {
      this.at = start;
      return this.fail(`${fn} takes ${least === most ? least : `at least ${least}`} argument${least === 1 && most === 1 ? '' : 's'}, not ${args.length}`);
    }
    return { kind: 'call', fn, args };
  }

  skipSpace(): void {
    while (this.at < this.s.length && (this.s[this.at] === ' ' || this.s[this.at] === '\t')) this.at++;
  }

  /** Consumes one of the characters `ops` if it comes next. */
  private op(ops: string): string | undefined {
    this.skipSpace();
    const c = this.s[this.at];
    if (c === undefined || !ops.includes(c)) return undefined;
    this.at++;
    return c;
  }

  private expect(c: string): boolean {
    return this.op(c) !== undefined;
  }

  private fail(what: string): Expr {
    this.problem ??= { at: this.at + 1, what };
    return { kind: 'num', value: 0 };
  }
}

/** Longest wait an expression may ask for, as for the service's own back-off: one day. */
const MAX_DELAY_MS = 86_400_000;

/**
 * The wait an expression (already accepted at publish) asks for after `retried` retries, in
 * ms, clamped to [0, one day]; undefined when it gives no number (sqrt(-1), 0/0), so the
 * service's back-off applies instead.
 */
export function retryDelayMs(text: string, retried: number): number | undefined {
  const e = parseRetryDelay(text);
  if (isProblem(e)) return undefined;
  const ms = evaluate(e, retried);
  if (Number.isNaN(ms)) return undefined;
  return Math.min(MAX_DELAY_MS, Math.max(0, ms));
}

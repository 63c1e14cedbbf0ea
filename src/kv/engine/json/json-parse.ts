// Parses JSON text into the document model (json-value.ts), as RedisJSON's serde_json does:
// an integer literal stays an integer (i64, or u64 when positive), anything with a fraction
// or an exponent is a float, and a literal beyond the f64 range is refused. Errors carry
// serde_json's wording ("expected value at line 1 column 1"), since RedisJSON answers those
// texts as they are. Nesting is bounded as serde_json bounds it (128 levels) for values
// commands pass; stored documents, which may be deeper (json-value.ts), are read with their
// own bound.

import { utf8Length, type JsonObject, type JsonValue } from './json-value.js';

/** serde_json's recursion limit, which RedisJSON keeps for the values commands pass. */
const VALUE_MAX_DEPTH = 128;
const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

export type ParseResult = { ok: true; value: JsonValue } | { ok: false; error: string };

export function parseJson(text: string, maxDepth = VALUE_MAX_DEPTH): ParseResult {
  const p = new Parser(text, maxDepth);
  try {
    p.skipWs();
    const value = p.value(0);
    p.skipWs();
    if (p.at < text.length) p.fail('trailing characters', p.at + 1);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof SyntaxFault) return { ok: false, error: e.message };
    throw e;
  }
}

class SyntaxFault extends Error {}

class Parser {
  at = 0;
  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  /**
   * Throws serde's message for an error found once `col` characters were read: serde gives the
   * line and the column in bytes of the last character read (column 0 right after a newline).
   */
  fail(what: string, col = this.at): never {
    let line = 1;
    let start = 0;
    const upto = Math.min(col, this.s.length);
    for (let i = 0; i < upto; i++) {
      if (this.s.charCodeAt(i) === 10) {
        line++;
        start = i + 1;
      }
    }
    throw new SyntaxFault(`${what} at line ${line} column ${utf8Length(this.s.slice(start, upto))}`);
  }

  skipWs(): void {
    const s = this.s;
    while (this.at < s.length) {
      const c = s.charCodeAt(this.at);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.at++;
    }
  }

  value(depth: number): JsonValue {
    const s = this.s;
    if (this.at >= s.length) this.fail('EOF while parsing a value');
    const c = s[this.at];
    switch (c) {
      case '{':
        return this.object(depth + 1);
      case '[':
        return this.array(depth + 1);
      case '"':
        this.at++;
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', null);
    }
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    this.fail('expected value', this.at + 1);
  }

  private word<T extends JsonValue>(w: string, v: T): T {
    for (let i = 0; i < w.length; i++) {
      if (this.at >= this.s.length) this.fail('EOF while parsing a value');
      if (this.s[this.at] !== w[i]) this.fail('expected ident', this.at + 1);
      this.at++;
    }
    return v;
  }

  private number(): JsonValue {
    const s = this.s;
    const start = this.at;
    if (s[this.at] === '-') this.at++;
    const digit = () => this.at < s.length && s.charCodeAt(this.at) >= 48 && s.charCodeAt(this.at) <= 57;
    if (!digit()) this.fail(this.at >= s.length ? 'EOF while parsing a value' : 'invalid number', this.at + 1);
    if (s[this.at] === '0') {
      this.at++;
      if (digit()) this.fail('invalid number', this.at + 1);
    } else while (digit()) this.at++;
    let float = false;
    if (s[this.at] === '.') {
      float = true;
      this.at++;
      if (!digit()) this.fail(this.at >= s.length ? 'EOF while parsing a value' : 'invalid number', this.at + 1);
      while (digit()) this.at++;
    }
    if (s[this.at] === 'e' || s[this.at] === 'E') {
      float = true;
      this.at++;
      if (s[this.at] === '+' || s[this.at] === '-') this.at++;
      if (!digit()) this.fail(this.at >= s.length ? 'EOF while parsing a value' : 'invalid number', this.at + 1);
      while (digit()) this.at++;
    }
    const text = s.slice(start, this.at);
    if (!float) {
      // Up to 15 digits a double holds the integer exactly, and BigInt(number) is cheaper than parsing.
      const n = text.length <= 15 ? BigInt(Number(text)) : BigInt(text);
      if (n >= I64_MIN && n <= U64_MAX) return n;
    }
    const f = Number(text);
    if (!Number.isFinite(f)) this.fail('number out of range');
    return f;
  }

  private string(): string {
    const s = this.s;
    let out = '';
    let from = this.at;
    for (;;) {
      // The plain run up to the next quote, backslash or control character, in a local index.
      let at = this.at;
      for (let c = s.charCodeAt(at); c !== 34 && c !== 92 && c >= 0x20; c = s.charCodeAt(++at));
      this.at = at;
      if (this.at >= s.length) this.fail('EOF while parsing a string', s.length);
      const c = s.charCodeAt(this.at);
      if (c === 34) {
        out += s.slice(from, this.at);
        this.at++;
        return out;
      }
      if (c < 0x20) this.fail('control character (\\u0000-\\u001F) found while parsing a string', this.at + 1);
      if (c !== 92) {
        this.at++;
        continue;
      }
      out += s.slice(from, this.at);
      this.at++;
      if (this.at >= s.length) this.fail('EOF while parsing a string', s.length);
      const e = s[this.at++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = s.slice(this.at, this.at + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.fail(this.at + 4 > s.length ? 'EOF while parsing a string' : 'invalid escape', this.at + 1);
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.at += 4;
          break;
        }
        default:
          this.fail('invalid escape', this.at);
      }
      from = this.at;
    }
  }

  private array(depth: number): JsonValue[] {
    if (depth > this.maxDepth) this.fail('recursion limit exceeded', this.at + 1);
    this.at++;
    const out: JsonValue[] = [];
    this.skipWs();
    if (this.at >= this.s.length) this.fail('EOF while parsing a list');
    if (this.s[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipWs();
      const c = this.s[this.at];
      if (c === ']') {
        this.at++;
        return out;
      }
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing a list' : 'expected `,` or `]`', this.at + 1);
      this.at++;
      this.afterComma(']');
    }
  }

  /** After a ',' in a list or an object: serde's words for what may not come next. */
  private afterComma(close: string): void {
    this.skipWs();
    if (this.at >= this.s.length) this.fail('EOF while parsing a value');
    if (this.s[this.at] === close) this.fail('trailing comma', this.at + 1);
  }

  private object(depth: number): JsonObject {
    if (depth > this.maxDepth) this.fail('recursion limit exceeded', this.at + 1);
    this.at++;
    const out: JsonObject = new Map();
    this.skipWs();
    if (this.at >= this.s.length) this.fail('EOF while parsing an object');
    if (this.s[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      if (this.s[this.at] !== '"') this.fail('key must be a string', this.at + 1);
      this.at++;
      const key = this.string();
      this.skipWs();
      if (this.at >= this.s.length) this.fail('EOF while parsing an object');
      if (this.s[this.at] !== ':') this.fail('expected `:`', this.at + 1);
      this.at++;
      this.skipWs();
      out.set(key, this.value(depth));
      this.skipWs();
      const c = this.s[this.at];
      if (c === '}') {
        this.at++;
        return out;
      }
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing an object' : 'expected `,` or `}`', this.at + 1);
      this.at++;
      this.afterComma('}');
    }
  }
}

// The only JSON the key-value API reads: a command (an array of strings and numbers) or a
// batch (an array of commands). It is parsed straight from the body bytes into byte strings
// (see kv/bytes.ts), so:
//   - a string's UTF-8 bytes are kept as sent: no decode and re-encode pass, and bytes that are
//     not valid UTF-8 survive (JSON.parse would turn them into U+FFFD);
//   - an integer keeps its exact digits, also beyond 2^53 where JSON.parse would round it;
//     other numbers are written as JavaScript writes them (1.50 -> "1.5", 1e3 -> "1000").
//   - a boolean is the string "true" or "false": @upstash/redis sends `set(k, true)` as a JSON
//     boolean, Upstash stores that text, and the SDK parses it back into the boolean.
// Nothing else (objects, null, deeper nesting) is an argument.

import { utf8Bytes } from '../bytes.js';
import type { Args } from '../commands/spec.js';
import { badArgument, badJson, NOT_A_BATCH, NOT_A_COMMAND, ReplyError } from '../errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b; //  [
const CLOSE = 0x5d; // ]
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;

/** Parses `["name", "arg", 1, ...]`. */
export function parseCommand(body: Uint8Array): Args | ReplyError {
  const p = new Parser(body);
  const argv = p.command();
  return argv instanceof ReplyError ? argv : p.end(argv);
}

/** Parses `[["name", ...], ...]`: one or more commands. */
export function parseBatch(body: Uint8Array): Args[] | ReplyError {
  const p = new Parser(body);
  if (!p.open()) return p.wrongShape(NOT_A_BATCH);
  if (p.close()) return NOT_A_BATCH;
  const batch: Args[] = [];
  for (;;) {
    const argv = p.command();
    if (argv instanceof ReplyError) return argv;
    batch.push(argv);
    if (p.close()) return p.end(batch);
    if (!p.comma()) return p.syntax();
  }
}

class Parser {
  private at = 0;
  private readonly buf: Buffer;

  constructor(body: Uint8Array) {
    this.buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  /** `[arg, ...]`, non-empty. */
  command(): string[] | ReplyError {
    if (!this.open()) return this.wrongShape(NOT_A_COMMAND);
    if (this.close()) return NOT_A_COMMAND;
    const argv: string[] = [];
    for (;;) {
      const arg = this.arg();
      if (arg instanceof ReplyError) return arg;
      argv.push(arg);
      if (this.close()) return argv;
      if (!this.comma()) return this.syntax();
    }
  }

  /** The parsed value, when only white space follows it. */
  end<T>(value: T): T | ReplyError {
    this.space();
    return this.at === this.buf.length ? value : this.syntax();
  }

  open(): boolean {
    return this.punct(OPEN);
  }

  close(): boolean {
    return this.punct(CLOSE);
  }

  comma(): boolean {
    return this.punct(COMMA);
  }

  syntax(): ReplyError {
    return badJson(this.at);
  }

  /** `shape` when a JSON value of another kind starts here, a syntax error otherwise. */
  wrongShape(shape: ReplyError): ReplyError {
    const c = this.buf[this.at];
    return c === QUOTE || c === 0x7b /* { */ || c === MINUS || isDigit(c) || c === 0x6e || c === 0x74 || c === 0x66
      ? shape
      : this.syntax();
  }

  private punct(c: number): boolean {
    this.space();
    if (this.buf[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private space(): void {
    const b = this.buf;
    let c = b[this.at];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.at];
  }

  private arg(): string | ReplyError {
    this.space();
    const c = this.buf[this.at];
    if (c === QUOTE) return this.string();
    if (c === MINUS || isDigit(c)) return this.number();
    switch (c) {
      case OPEN:
        return badArgument('an array');
      case 0x7b: // {
        return badArgument('an object');
      case 0x6e: // n
        return badArgument('null');
      case 0x74: // t
        return this.literal('true');
      case 0x66: // f
        return this.literal('false');
      default:
        return this.syntax();
    }
  }

  /** `word` spelled out at `at`, as that text. */
  private literal(word: string): string | ReplyError {
    if (this.buf.toString('latin1', this.at, this.at + word.length) !== word) return this.syntax();
    this.at += word.length;
    return word;
  }

  private string(): string | ReplyError {
    const b = this.buf;
    const start = this.at + 1;
    for (let i = start; ; i++) {
      const c = b[i];
      if (c === QUOTE) {
        this.at = i + 1;
        return b.toString('latin1', start, i);
      }
      if (c === BACKSLASH) return this.escapedString(start, i);
      if (c === undefined || c < 0x20) return this.syntaxAt(i);
    }
  }

  /**
   * The rest of a string that starts at `start` and holds a backslash at `i`, unescaped into
   * one buffer (an SDK's JSON value has an escaped quote every few bytes: joining the pieces
   * as strings cost ten times the parse of a string without). Unescaped, no escape is longer
   * than it was, so the bytes up to the closing quote bound the buffer.
   */
  private escapedString(start: number, i: number): string | ReplyError {
    const b = this.buf;
    let end = i;
    while (end < b.length && b[end] !== QUOTE) end += b[end] === BACKSLASH ? 2 : 1;
    const out = Buffer.allocUnsafe(end - start);
    let n = b.copy(out, 0, start, i);
    for (;;) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        const byte = ESCAPED_BYTE[b[i + 1]];
        if (byte !== undefined && byte >= 0) {
          out[n++] = byte;
          i += 2;
          continue;
        }
        this.at = i;
        const unescaped = this.unicodeEscape();
        if (unescaped instanceof ReplyError) return unescaped;
        n += out.write(unescaped, n, 'latin1');
        i = this.at;
      } else if (c === undefined || c < 0x20) {
        return this.syntaxAt(i);
      } else {
        out[n++] = c;
        i++;
      }
    }
    this.at = i + 1;
    return out.toString('latin1', 0, n);
  }

  /** The `\uXXXX` escape at `at` (its backslash) as UTF-8 bytes; leaves `at` after it. */
  private unicodeEscape(): string | ReplyError {
    const b = this.buf;
    const backslash = this.at;
    if (b[backslash + 1] !== 0x75) return this.syntaxAt(backslash);
    const unit = this.hex4(backslash + 2);
    if (unit < 0) return this.syntaxAt(backslash);
    this.at = backslash + 6;
    // A surrogate pair is one code point; a lone surrogate becomes U+FFFD, as in Buffer.
    if (unit >= 0xd800 && unit < 0xdc00 && b[this.at] === BACKSLASH && b[this.at + 1] === 0x75) {
      const low = this.hex4(this.at + 2);
      if (low >= 0xdc00 && low < 0xe000) {
        this.at += 6;
        return utf8Bytes(String.fromCharCode(unit, low));
      }
    }
    return utf8Bytes(String.fromCharCode(unit));
  }

  private hex4(from: number): number {
    let n = 0;
    for (let i = from; i < from + 4; i++) {
      const d = hexValue(this.buf[i]);
      if (d < 0) return -1;
      n = n * 16 + d;
    }
    return n;
  }

  private number(): string | ReplyError {
    const b = this.buf;
    const start = this.at;
    let i = start;
    if (b[i] === MINUS) i++;
    if (b[i] === 0x30) i++;
    else if (isDigit(b[i])) while (isDigit(b[i])) i++;
    else return this.syntaxAt(i);
    let integer = true;
    if (b[i] === DOT) {
      integer = false;
      if (!isDigit(b[++i])) return this.syntaxAt(i);
      while (isDigit(b[i])) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      integer = false;
      i++;
      if (b[i] === 0x2b || b[i] === MINUS) i++;
      if (!isDigit(b[i])) return this.syntaxAt(i);
      while (isDigit(b[i])) i++;
    }
    this.at = i;
    const text = b.toString('latin1', start, i);
    // "-0" is no integer to Redis; as a JSON number it is 0.
    return integer && text !== '-0' ? text : String(Number(text));
  }

  private syntaxAt(i: number): ReplyError {
    this.at = i;
    return this.syntax();
  }
}

/** The byte each one-character escape stands for, by the character after the backslash; -1 for none. */
const ESCAPED_BYTE = new Int16Array(256).fill(-1);
for (const [c, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) {
  ESCAPED_BYTE[c.charCodeAt(0)] = byte;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

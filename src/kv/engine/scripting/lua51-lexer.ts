// Lua 5.1's lexer (llex.c as Redis 7.0 builds it: a long string ends at its first closing
// bracket, nested ones or not), in place of fengari's
// 5.3 one, so a script reads as it reads on Redis. 5.3 added tokens 5.1 does not have: `//`,
// `<<`, `>>`, `::` and the bitwise `&`, `|`, `~` were operators (1 // 2 ran where Redis refuses
// it) and `goto` a reserved word (local goto = 1 failed where Redis runs it). Its strings read
// \x, \u{} and \z, and refused an unknown escape, where 5.1 keeps the character after the
// backslash ('a\.b' is "a.b" on Redis). Its numerals took a binary exponent (0x1p-2), and its
// errors were worded otherwise ("<eof> expected" for 5.1's "'<eof>' expected", "unfinished long
// string (starting at line 1)", "decimal escape too large near ''\256''").
//
// fengari's 5.3 parser reads the tokens: its own 5.3 tokens are never made, and a character
// that 5.3 takes for an operator and 5.1 does not (&, |, ~) is handed over as a token of its own
// that no rule of the parser expects, so it fails where 5.1's parser fails ("unexpected symbol
// near '&'"), printed as the character. Every number is a float (lua.ts). The parser's errors
// print tokens as 5.1's do.

import type { LuaState } from 'fengari';
import { strtod } from '../../../text/strtod.js';

/** fengari's buffer of the token being read (lzio.js's MBuffer). */
interface Buffer8 {
  buffer: Uint8Array;
  n: number;
}

interface SemInfo {
  r: number;
  ts: unknown;
}

/** The part of fengari's LexState (llex.js) the lexer reads and writes. */
interface LexState {
  current: number;
  linenumber: number;
  lastline: number;
  readonly t: { token: number; seminfo: SemInfo };
  readonly lookahead: { token: number; seminfo: SemInfo };
  readonly L: LuaState;
  readonly z: { zgetc(): number };
  readonly buff: Buffer8;
  readonly source: unknown;
}

/** fengari's lexer module (llex.js), whose functions the parser calls through its exports. */
export interface FengariLexer {
  readonly FIRST_RESERVED: number;
  readonly RESERVED: Readonly<Record<string, number>>;
  luaX_tokens: readonly Uint8Array[];
  luaX_newstring(ls: LexState, s: Uint8Array): unknown;
  luaX_next(ls: LexState): void;
  luaX_lookahead(ls: LexState): number;
  luaX_syntaxerror(ls: LexState, msg: Uint8Array): never;
  luaX_token2str(ls: LexState, symbol: number): Uint8Array;
}

/** What the lexer takes from fengari's other modules. */
export interface FengariParts {
  to_luastring(s: string, cache?: boolean): Uint8Array;
  luaO_pushfstring(L: LuaState, fmt: Uint8Array, ...args: unknown[]): Uint8Array;
  luaG_addinfo(L: LuaState, msg: Uint8Array, source: unknown, line: number): Uint8Array;
  luaD_throw(L: LuaState, status: number): never;
  luaZ_resizebuffer(L: LuaState, buff: Buffer8, size: number): void;
  readonly LUA_ERRSYNTAX: number;
}

const EOZ = -1;
const MAX_INT = 0x7fffffff;
/** Where the tokens for a character 5.1 passes alone and 5.3 would take for an operator start. */
const LONE_CHAR = 0x10000;
const RESERVED_WORDS = ['and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while'];

// C's character classes in the C locale, as 5.1's lexer tests them.
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isAlnum = (c: number) => isDigit(c) || isAlpha(c);
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isNewline = (c: number) => c === 0x0a || c === 0x0d;
const isCntrl = (c: number) => (c >= 0 && c < 0x20) || c === 0x7f;

/** Sets fengari's lexer to read as Lua 5.1's; once, before any script is compiled. */
export function useLua51Lexer(llex: FengariLexer, f: FengariParts): void {
  const tk = (name: string) => llex.RESERVED[`TK_${name}`];
  const [TK_CONCAT, TK_DOTS, TK_EQ, TK_GE, TK_LE, TK_NE, TK_EOS, TK_NUMBER, TK_NAME, TK_STRING] = ['CONCAT', 'DOTS', 'EQ', 'GE', 'LE', 'NE', 'EOS', 'FLT', 'NAME', 'STRING'].map(tk);
  const words = new Map(RESERVED_WORDS.map((w) => [w, tk(w.toUpperCase())]));
  const text = (s: string) => f.to_luastring(s, true);

  const next = (ls: LexState) => {
    ls.current = ls.z.zgetc();
  };
  const save = (ls: LexState, c: number) => {
    const b = ls.buff;
    if (b.n + 1 > b.buffer.length) {
      if (b.buffer.length >= MAX_INT / 2) lexError(ls, 'lexical element too long', 0);
      f.luaZ_resizebuffer(ls.L, b, b.buffer.length * 2);
    }
    b.buffer[b.n++] = c;
  };
  const saveAndNext = (ls: LexState) => {
    save(ls, ls.current);
    next(ls);
  };
  const checkNext = (ls: LexState, c1: number, c2 = c1) => {
    if (ls.current !== c1 && ls.current !== c2) return false;
    saveAndNext(ls);
    return true;
  };
  const bufferText = (ls: LexState, from = 0, to = ls.buff.n) => ls.buff.buffer.subarray(from, to);

  /** 5.1's token2str, unquoted: its callers quote it. */
  const tokenText = (ls: LexState, symbol: number): Uint8Array => {
    if (symbol >= LONE_CHAR) symbol -= LONE_CHAR;
    if (symbol >= llex.FIRST_RESERVED) return llex.luaX_tokens[symbol - llex.FIRST_RESERVED];
    return isCntrl(symbol) ? f.luaO_pushfstring(ls.L, text('char(%d)'), symbol) : Uint8Array.of(symbol);
  };
  const nearText = (ls: LexState, symbol: number) =>
    symbol === TK_NAME || symbol === TK_STRING || symbol === TK_NUMBER ? bufferText(ls).slice() : tokenText(ls, symbol);
  function lexError(ls: LexState, msg: string | Uint8Array, symbol: number): never {
    const where = f.luaG_addinfo(ls.L, typeof msg === 'string' ? text(msg) : msg, ls.source, ls.linenumber);
    if (symbol) f.luaO_pushfstring(ls.L, text("%s near '%s'"), where, nearText(ls, symbol));
    return f.luaD_throw(ls.L, f.LUA_ERRSYNTAX);
  }

  const newLine = (ls: LexState) => {
    const old = ls.current;
    next(ls); // skip '\n' or '\r'
    if (isNewline(ls.current) && ls.current !== old) next(ls); // '\n\r' or '\r\n'
    if (++ls.linenumber >= MAX_INT) lexError(ls, 'chunk has too many lines', ls.t.token);
  };

  /** At '[' or ']': the count of '=' in a long bracket, or -count-1 when it does not close. */
  const skipSep = (ls: LexState) => {
    const s = ls.current;
    let count = 0;
    saveAndNext(ls);
    while (ls.current === 0x3d) {
      saveAndNext(ls);
      count++;
    }
    return ls.current === s ? count : -count - 1;
  };

  const readLongString = (ls: LexState, seminfo: SemInfo | null, sep: number) => {
    saveAndNext(ls); // the second '['
    if (isNewline(ls.current)) newLine(ls); // a first newline is skipped
    for (;;) {
      const c = ls.current;
      if (c === EOZ) lexError(ls, seminfo ? 'unfinished long string' : 'unfinished long comment', TK_EOS);
      else if (c === 0x5d) {
        if (skipSep(ls) === sep) {
          saveAndNext(ls);
          break;
        }
      } else if (isNewline(c)) {
        save(ls, 0x0a);
        newLine(ls);
        if (!seminfo) ls.buff.n = 0; // a comment's text is not kept
      } else if (seminfo) saveAndNext(ls);
      else next(ls);
    }
    if (seminfo) seminfo.ts = llex.luaX_newstring(ls, bufferText(ls, 2 + sep, ls.buff.n - (2 + sep)));
  };

  /** After "--": a long comment, or the rest of the line. */
  const skipComment = (ls: LexState) => {
    next(ls);
    if (ls.current === 0x5b) {
      const sep = skipSep(ls);
      ls.buff.n = 0;
      if (sep >= 0) {
        readLongString(ls, null, sep);
        ls.buff.n = 0;
        return;
      }
    }
    while (!isNewline(ls.current) && ls.current !== EOZ) next(ls);
  };

  const ESCAPES: Record<number, number> = { 0x61: 7, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11 };
  const readString = (ls: LexState, quote: number, seminfo: SemInfo) => {
    saveAndNext(ls);
    while (ls.current !== quote) {
      const c = ls.current;
      if (c === EOZ) lexError(ls, 'unfinished string', TK_EOS);
      else if (isNewline(c)) lexError(ls, 'unfinished string', TK_STRING);
      else if (c !== 0x5c) saveAndNext(ls);
      else {
        next(ls); // the backslash is not kept
        const e = ls.current;
        if (ESCAPES[e] !== undefined) {
          save(ls, ESCAPES[e]);
          next(ls);
        } else if (isNewline(e)) {
          save(ls, 0x0a);
          newLine(ls);
        } else if (isDigit(e)) {
          let n = 0;
          for (let i = 0; i < 3 && isDigit(ls.current); i++) {
            n = 10 * n + ls.current - 0x30;
            next(ls);
          }
          if (n > 0xff) lexError(ls, 'escape sequence too large', TK_STRING);
          save(ls, n);
        } else if (e !== EOZ) saveAndNext(ls); // any other character stands for itself: \\, \", \', \.
      }
    }
    saveAndNext(ls);
    seminfo.ts = llex.luaX_newstring(ls, bufferText(ls, 1, ls.buff.n - 1));
  };

  /** Digits and points, an exponent's sign, then letters and digits: as strtod reads the whole, or malformed. */
  const readNumeral = (ls: LexState, seminfo: SemInfo) => {
    do saveAndNext(ls);
    while (isDigit(ls.current) || ls.current === 0x2e);
    if (checkNext(ls, 0x45, 0x65)) checkNext(ls, 0x2b, 0x2d);
    while (isAlnum(ls.current) || ls.current === 0x5f) saveAndNext(ls);
    const numeral = Buffer.from(bufferText(ls)).toString('latin1');
    const read = strtod(numeral);
    if (read.end !== numeral.length) lexError(ls, 'malformed number', TK_NUMBER);
    seminfo.r = read.value;
  };

  const lex = (ls: LexState, seminfo: SemInfo): number => {
    ls.buff.n = 0;
    for (;;) {
      const c = ls.current;
      switch (c) {
        case 0x0a:
        case 0x0d:
          newLine(ls);
          continue;
        case 0x2d: // '-' or a comment
          next(ls);
          if (ls.current !== 0x2d) return 0x2d;
          skipComment(ls);
          continue;
        case 0x5b: {
          const sep = skipSep(ls);
          if (sep >= 0) {
            readLongString(ls, seminfo, sep);
            return TK_STRING;
          }
          if (sep === -1) return 0x5b;
          return lexError(ls, 'invalid long string delimiter', TK_STRING);
        }
        case 0x3d:
          next(ls);
          return ls.current === 0x3d ? (next(ls), TK_EQ) : 0x3d;
        case 0x3c:
          next(ls);
          return ls.current === 0x3d ? (next(ls), TK_LE) : 0x3c;
        case 0x3e:
          next(ls);
          return ls.current === 0x3d ? (next(ls), TK_GE) : 0x3e;
        case 0x7e:
          next(ls);
          return ls.current === 0x3d ? (next(ls), TK_NE) : LONE_CHAR + 0x7e;
        case 0x22:
        case 0x27:
          readString(ls, c, seminfo);
          return TK_STRING;
        case 0x2e:
          saveAndNext(ls);
          if (checkNext(ls, 0x2e)) return checkNext(ls, 0x2e) ? TK_DOTS : TK_CONCAT;
          if (!isDigit(ls.current)) return 0x2e;
          readNumeral(ls, seminfo);
          return TK_NUMBER;
        case EOZ:
          return TK_EOS;
        default:
          if (isSpace(c)) next(ls);
          else if (isDigit(c)) {
            readNumeral(ls, seminfo);
            return TK_NUMBER;
          } else if (isAlpha(c) || c === 0x5f) {
            do saveAndNext(ls);
            while (isAlnum(ls.current) || ls.current === 0x5f);
            const word = words.get(Buffer.from(bufferText(ls)).toString('latin1'));
            if (word !== undefined) return word;
            seminfo.ts = llex.luaX_newstring(ls, bufferText(ls));
            return TK_NAME;
          } else {
            next(ls);
            return c === 0x26 || c === 0x7c ? LONE_CHAR + c : c;
          }
      }
    }
  };

  llex.luaX_next = (ls) => {
    ls.lastline = ls.linenumber;
    const ahead = ls.lookahead.token;
    if (ahead !== TK_EOS) {
      ls.t.token = ahead;
      ls.t.seminfo.r = ls.lookahead.seminfo.r;
      ls.t.seminfo.ts = ls.lookahead.seminfo.ts;
      ls.lookahead.token = TK_EOS;
    } else ls.t.token = lex(ls, ls.t.seminfo);
  };
  llex.luaX_lookahead = (ls) => (ls.lookahead.token = lex(ls, ls.lookahead.seminfo));
  llex.luaX_syntaxerror = (ls, msg) => lexError(ls, msg, ls.t.token);
  llex.luaX_token2str = (ls, symbol) => f.luaO_pushfstring(ls.L, text("'%s'"), tokenText(ls, symbol));
}

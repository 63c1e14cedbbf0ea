// cjson.decode as Redis 7.0's lua-cjson decodes (deps/lua/src/lua_cjson.c), onto the Lua stack:
// a tokenizer over the text's bytes that ends at the first NUL, numbers read as C's strtod
// reads them (hex, inf, nan, a leading '+' or zeros pass: lua-cjson's default), strings copied
// byte for byte with \u escapes written as UTF-8, and lua-cjson's error texts: "Expected <what>
// but found <token> at character <n>", "Found too many nested data structures (<n>) at
// character <n>". Scripts that catch a failed decode see the words Redis gives them.

import type { LuaState } from 'fengari';
import { strtod } from '../../../text/strtod.js';
import type { CjsonSettings } from './cjson-settings.js';
import { pushBytes, raiseError } from './lua-bytes.js';
import fengari from './lua.js';

const { lua } = fengari;


// lua-cjson's token types, by the names its errors print, and their numbers in that order (typed
// number, so a type seen once is not taken for the type after the next token).
const TOKEN_NAMES = ['T_OBJ_BEGIN', 'T_OBJ_END', 'T_ARR_BEGIN', 'T_ARR_END', 'T_STRING', 'T_NUMBER', 'T_BOOLEAN', 'T_NULL', 'T_COLON', 'T_COMMA', 'T_END', 'T_WHITESPACE', 'T_ERROR'];
const [OBJ_BEGIN, OBJ_END, ARR_BEGIN, ARR_END, STRING, NUMBER, BOOLEAN, NULL_TOKEN, COLON, COMMA, END, , ERROR]: number[] = TOKEN_NAMES.map((_, i) => i);

/** The characters that are a token by themselves. */
const SINGLE: Record<number, number> = { 0x7b: OBJ_BEGIN, 0x7d: OBJ_END, 0x5b: ARR_BEGIN, 0x5d: ARR_END, 0x3a: COLON, 0x2c: COMMA };
/** The character each one-letter escape stands for; 'u' is read apart. */
const ESCAPED: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

/**
 * Decodes `text` (bytes, one character each) and pushes its value, or raises lua-cjson's error.
 * `nullValue` is cjson.null, the light userdata JSON null decodes to.
 */
export function decodeJson(L: LuaState, text: string, nullValue: null, settings: CjsonSettings): void {
  if (text.length >= 2 && (text.charCodeAt(0) === 0 || text.charCodeAt(1) === 0)) raiseError(L, 'JSON parser does not support UTF-16 or UTF-32');
  const d = new Decoder(L, text, nullValue, settings);
  d.next();
  d.value();
  d.next();
  if (d.type !== END) d.unexpected('the end');
}

class Decoder {
  /** Where reading goes on. */
  private at = 0;
  private depth = 0;
  /** The current token: its type, where it starts, and its value or error text. */
  type = END;
  private start = 0;
  private text = '';
  private number = 0;

  constructor(
    private readonly L: LuaState,
    private readonly data: string,
    private readonly nullValue: null,
    private readonly settings: CjsonSettings,
  ) {}

  /** The byte at i; 0 past the end, as at a C string's terminator. */
  private byte(i: number): number {
    return i < this.data.length ? this.data.charCodeAt(i) : 0;
  }

  next(): void {
    let c = this.byte(this.at);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = this.byte(++this.at);
    this.start = this.at;
    if (c === 0) {
      this.type = END;
      return;
    }
    const single = SINGLE[c];
    if (single !== undefined) {
      this.type = single;
      this.at++;
    } else if (c === 0x22) this.readString();
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (!this.settings.decodeInvalidNumbers && this.invalidNumber()) this.error('invalid number');
      else this.readNumber();
    } else if (this.data.startsWith('true', this.at)) this.literal(BOOLEAN, 4, 1);
    else if (this.data.startsWith('false', this.at)) this.literal(BOOLEAN, 5, 0);
    else if (this.data.startsWith('null', this.at)) this.literal(NULL_TOKEN, 4, 0);
    else if (this.settings.decodeInvalidNumbers && this.invalidNumber()) this.readNumber();
    else this.error('invalid token');
  }

  /** json_is_invalid_number: what strtod reads and JSON does not allow (a '+', hex, leading zeros, Inf, NaN). */
  private invalidNumber(): boolean {
    let at = this.at;
    if (this.byte(at) === 0x2b) return true;
    if (this.byte(at) === 0x2d) at++;
    const c = this.byte(at);
    if (c === 0x30) {
      const next = this.byte(at + 1);
      return (next | 0x20) === 0x78 || (next >= 0x30 && next <= 0x39);
    }
    if (c <= 0x39) return false;
    return /^(inf|nan)/i.test(this.data.slice(at, at + 3));
  }

  private literal(type: number, length: number, value: number): void {
    this.type = type;
    this.number = value;
    this.at += length;
  }

  /** A token error, at where reading stopped. */
  private error(text: string): void {
    this.type = ERROR;
    this.start = this.at;
    this.text = text;
  }

  private readNumber(): void {
    const { value, end } = strtod(this.data, this.at);
    if (end === this.at) return this.error('invalid number');
    this.number = value;
    this.type = NUMBER;
    this.at = end;
  }

  private readString(): void {
    let out = '';
    let from = ++this.at;
    for (let c = this.byte(this.at); c !== 0x22; c = this.byte(this.at)) {
      if (c === 0) return this.error('unexpected end of string');
      if (c !== 0x5c) {
        this.at++;
        continue;
      }
      out += this.data.slice(from, this.at);
      const escape = this.byte(this.at + 1);
      if (escape === 0x75) {
        const read = this.unicodeEscape();
        if (read === null) return this.error('invalid unicode escape code');
        out += read;
      } else {
        const char = ESCAPED[escape];
        if (char === undefined) return this.error('invalid escape code');
        out += char;
        this.at += 2;
      }
      from = this.at;
    }
    this.text = out + this.data.slice(from, this.at);
    this.at++;
    this.type = STRING;
  }

  /** \uXXXX (or a surrogate pair of them) at `at` as UTF-8 bytes, moving past it; null if invalid. */
  private unicodeEscape(): string | null {
    let code = hex4(this.data, this.at + 2);
    let length = 6;
    if (code < 0) return null;
    if ((code & 0xf800) === 0xd800) {
      // A high surrogate, then a \u escape of a low one.
      if (code & 0x400 || this.byte(this.at + 6) !== 0x5c || this.byte(this.at + 7) !== 0x75) return null;
      const low = hex4(this.data, this.at + 8);
      if (low < 0 || (low & 0xfc00) !== 0xdc00) return null;
      code = (((code & 0x3ff) << 10) | (low & 0x3ff)) + 0x10000;
      length = 12;
    }
    this.at += length;
    return Buffer.from(String.fromCodePoint(code), 'utf8').toString('latin1');
  }

  /** Pushes the value the current token begins. */
  value(): void {
    const L = this.L;
    switch (this.type) {
      case STRING:
        return pushBytes(L, this.text);
      case NUMBER:
        return lua.lua_pushnumber(L, this.number);
      case BOOLEAN:
        return lua.lua_pushboolean(L, this.number === 1);
      case NULL_TOKEN:
        return lua.lua_pushlightuserdata(L, this.nullValue);
      case OBJ_BEGIN:
        return this.object();
      case ARR_BEGIN:
        return this.array();
      default:
        this.unexpected('value');
    }
  }

  private object(): void {
    this.descend(3);
    lua.lua_createtable(this.L, 0, 0);
    this.next();
    if (this.type === OBJ_END) return void this.depth--;
    for (;;) {
      if (this.type !== STRING) this.unexpected('object key string');
      pushBytes(this.L, this.text);
      this.next();
      if (this.type !== COLON) this.unexpected('colon');
      this.next();
      this.value();
      lua.lua_rawset(this.L, -3);
      this.next();
      if (this.type === OBJ_END) return void this.depth--;
      if (this.type !== COMMA) this.unexpected('comma or object end');
      this.next();
    }
  }

  private array(): void {
    this.descend(2);
    lua.lua_createtable(this.L, 0, 0);
    this.next();
    if (this.type === ARR_END) return void this.depth--;
    for (let i = 1; ; i++) {
      this.value();
      lua.lua_rawseti(this.L, -2, i);
      this.next();
      if (this.type === ARR_END) return void this.depth--;
      if (this.type !== COMMA) this.unexpected('comma or array end');
      this.next();
    }
  }

  private descend(slots: number): void {
    if (++this.depth <= this.settings.decodeMaxDepth && lua.lua_checkstack(this.L, slots)) return;
    raiseError(this.L, `Found too many nested data structures (${this.depth}) at character ${this.at}`);
  }

  unexpected(expected: string): never {
    const found = this.type === ERROR ? this.text : TOKEN_NAMES[this.type];
    return raiseError(this.L, `Expected ${expected} but found ${found} at character ${this.start + 1}`);
  }
}

/** The value of four hex digits at i, or -1. */
function hex4(s: string, i: number): number {
  const digits = s.slice(i, i + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

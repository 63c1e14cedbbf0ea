// The `cjson` library scripts get in Redis (lua-cjson 2.1): encode and decode JSON.
// Encoding follows lua-cjson: numbers as "%.14g", '/' escaped, tables with only positive
// integer keys as arrays (holes as null, too sparse ones refused), others as objects, an
// empty table as {}. Decoding is lua-cjson's own (cjson-decode.ts); JSON null decodes to
// cjson.null, as in lua-cjson. Each cjson table has lua-cjson's settings (cjson-settings.ts),
// which change these rules: cjson.encode_sparse_array(true) encodes a sparse array as an object.

import type { JsFunction, LuaState } from 'fengari';
import { decodeJson } from './cjson-decode.js';
import { defaultSettings, settingsFunctions, type CjsonSettings } from './cjson-settings.js';
import { formatG } from './format-g.js';
import { pushBytes, raiseError, toBytes } from './lua-bytes.js';
import fengari from './lua.js';
import { chargeScriptMemory } from './script-memory.js';

const { lua, lauxlib } = fengari;

/** cjson.null: lua-cjson's NULL light userdata, which every decode of null pushes and encode recognises (`tostring` shows `userdata: (nil)`, as in Redis). */
const NULL = null;
const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// Strings are what can make the output huge (one string many times over), so each is charged
// to the script's memory bound before the output is joined.
function encodeString(s: string): string {
  chargeScriptMemory(s.length + 2);
  return `"${s.replace(/["\\/\x00-\x1f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A number as "%.<precision>g"; NaN and Inf refused, or (encode_invalid_numbers) written as C prints them or as null. */
function encodeNumber(L: LuaState, s: CjsonSettings, n: number): string {
  if (!Number.isFinite(n)) {
    if (s.encodeInvalidNumbers === 'off') raiseError(L, 'Cannot serialise number: must not be NaN or Inf');
    if (s.encodeInvalidNumbers === 'null') return 'null';
    if (Number.isNaN(n)) return 'nan'; // lua-cjson's own, where printf could say "-nan"
  }
  return formatG(n, s.encodeNumberPrecision);
}

/** The value at idx as JSON bytes. */
function encode(L: LuaState, s: CjsonSettings, idx: number, depth: number): string {
  switch (lua.lua_type(L, idx)) {
    case lua.LUA_TNIL:
      return 'null';
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, idx) ? 'true' : 'false';
    case lua.LUA_TNUMBER:
      return encodeNumber(L, s, lua.lua_tonumber(L, idx));
    case lua.LUA_TSTRING:
      return encodeString(toBytes(L, idx)!);
    case lua.LUA_TLIGHTUSERDATA:
      if (lua.lua_touserdata(L, idx) === NULL) return 'null';
      break;
    case lua.LUA_TTABLE:
      // Each level holds a value on the stack while the next is encoded, as lua-cjson checks.
      if (depth > s.encodeMaxDepth || !lua.lua_checkstack(L, 3)) raiseError(L, `Cannot serialise, excessive nesting (${depth})`);
      return encodeTable(L, s, lua.lua_absindex(L, idx), depth);
  }
  return raiseError(L, `Cannot serialise ${Buffer.from(lauxlib.luaL_typename(L, idx)).toString()}: type not supported`);
}

function encodeTable(L: LuaState, s: CjsonSettings, t: number, depth: number): string {
  // An array when every key is a positive integer, and not too sparse (lua-cjson's rule:
  // refused, or with encode_sparse_array's convert an object).
  let max = 0;
  let items = 0;
  let isArray = true;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t) !== 0) {
    lua.lua_pop(L, 1);
    items++;
    const k = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -1) : NaN;
    if (Number.isInteger(k) && k >= 1) max = Math.max(max, k);
    else isArray = false;
  }
  const sparse = s.encodeSparseRatio > 0 && max > items * s.encodeSparseRatio && max > s.encodeSparseSafe;
  if (isArray && sparse && !s.encodeSparseConvert) raiseError(L, 'Cannot serialise table: excessively sparse array');
  if (isArray && max > 0 && !sparse) {
    const parts: string[] = [];
    for (let i = 1; i <= max; i++) {
      lua.lua_rawgeti(L, t, i);
      parts.push(encode(L, s, -1, depth + 1));
      lua.lua_pop(L, 1);
    }
    return `[${parts.join(',')}]`;
  }
  const parts: string[] = [];
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t) !== 0) {
    const keyType = lua.lua_type(L, -2);
    if (keyType !== lua.LUA_TSTRING && keyType !== lua.LUA_TNUMBER) {
      raiseError(L, 'Cannot serialise table: table key must be a number or string');
    }
    const key = keyType === lua.LUA_TNUMBER ? encodeNumber(L, s, lua.lua_tonumber(L, -2)) : toBytes(L, -2)!;
    parts.push(`${encodeString(key)}:${encode(L, s, -1, depth + 1)}`);
    lua.lua_pop(L, 1);
  }
  return `{${parts.join(',')}}`;
}

/** The functions of a cjson table over its settings. */
function functions(s: CjsonSettings): Record<string, JsFunction> {
  return {
    // cjson.encode(value)
    encode: (L) => {
      if (lua.lua_gettop(L) !== 1) raiseError(L, 'bad argument #1 to \'encode\' (expected 1 argument)');
      pushBytes(L, encode(L, s, 1, 1));
      return 1;
    },
    // cjson.decode(text)
    decode: (L) => {
      if (lua.lua_gettop(L) !== 1) raiseError(L, "bad argument #1 to 'decode' (expected 1 argument)");
      const text = toBytes(L, 1);
      if (text === null) {
        const got = Buffer.from(lauxlib.luaL_typename(L, 1)).toString();
        return raiseError(L, `bad argument #1 to 'decode' (string expected, got ${got})`);
      }
      decodeJson(L, text, NULL, s);
      return 1;
    },
    // cjson.new(): another cjson table, with settings of its own
    new: openCjson,
    ...settingsFunctions(s),
  };
}

/** Pushes a cjson table with lua-cjson's default settings. */
export function openCjson(L: LuaState): number {
  lua.lua_createtable(L, 0, 14);
  lauxlib.luaL_setfuncs(L, functions(defaultSettings()), 0);
  lua.lua_pushlightuserdata(L, NULL);
  lua.lua_setfield(L, -2, 'null');
  lua.lua_pushstring(L, 'cjson');
  lua.lua_setfield(L, -2, '_NAME');
  lua.lua_pushstring(L, '2.1.0');
  lua.lua_setfield(L, -2, '_VERSION');
  return 1;
}

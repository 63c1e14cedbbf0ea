// The `cjson` library scripts get in Redis (lua-cjson 2.1): encode and decode JSON.
// Encoding follows lua-cjson: numbers as "%.14g", '/' escaped, tables with only positive
// integer keys as arrays (holes as null, too sparse ones refused), others as objects, an
// empty table as {}. Decoding uses JSON.parse, so its error texts are JavaScript's, not
// lua-cjson's; JSON null decodes to cjson.null, as in lua-cjson.

import type { LuaState } from 'fengari';
import { formatG } from './format-g.js';
import { pushBytes, pushNumber, toBytes } from './lua-bytes.js';
import fengari from './lua.js';
import { chargeScriptMemory } from './script-memory.js';

const { lua, lauxlib } = fengari;

/** cjson.null: a light userdata every decode of null pushes, and encode recognises. */
const NULL = { cjson: 'null' };
const MAX_DEPTH = 1000;
const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function fail(L: LuaState, text: string): never {
  return lauxlib.luaL_error(L, '%s', text);
}

// Strings are what can make the output huge (one string many times over), so each is charged
// to the script's memory bound before the output is joined.
function encodeString(s: string): string {
  chargeScriptMemory(s.length + 2);
  return `"${s.replace(/["\\/\x00-\x1f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function encodeNumber(L: LuaState, n: number): string {
  if (!Number.isFinite(n)) fail(L, 'Cannot serialise number: must not be NaN or Inf');
  return formatG(n, 14);
}

/** The value at idx as JSON bytes. */
function encode(L: LuaState, idx: number, depth: number): string {
  switch (lua.lua_type(L, idx)) {
    case lua.LUA_TNIL:
      return 'null';
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, idx) ? 'true' : 'false';
    case lua.LUA_TNUMBER:
      return encodeNumber(L, lua.lua_tonumber(L, idx));
    case lua.LUA_TSTRING:
      return encodeString(toBytes(L, idx)!);
    case lua.LUA_TLIGHTUSERDATA:
      if (lua.lua_touserdata(L, idx) === NULL) return 'null';
      break;
    case lua.LUA_TTABLE:
      if (depth > MAX_DEPTH) fail(L, `Cannot serialise, excessive nesting (${depth})`);
      return encodeTable(L, lua.lua_absindex(L, idx), depth);
  }
  return fail(L, `Cannot serialise ${Buffer.from(lauxlib.luaL_typename(L, idx)).toString()}: type not supported`);
}

function encodeTable(L: LuaState, t: number, depth: number): string {
  // An array when every key is a positive integer, and not too sparse (lua-cjson's rule).
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
  if (isArray && max > 0) {
    if (max > items * 2 && max > 10) fail(L, 'Cannot serialise table: excessively sparse array');
    const parts: string[] = [];
    for (let i = 1; i <= max; i++) {
      lua.lua_rawgeti(L, t, i);
      parts.push(encode(L, -1, depth + 1));
      lua.lua_pop(L, 1);
    }
    return `[${parts.join(',')}]`;
  }
  const parts: string[] = [];
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t) !== 0) {
    const keyType = lua.lua_type(L, -2);
    if (keyType !== lua.LUA_TSTRING && keyType !== lua.LUA_TNUMBER) {
      fail(L, 'Cannot serialise table: table key must be a number or string');
    }
    const key = keyType === lua.LUA_TNUMBER ? encodeNumber(L, lua.lua_tonumber(L, -2)) : toBytes(L, -2)!;
    parts.push(`${encodeString(key)}:${encode(L, -1, depth + 1)}`);
    lua.lua_pop(L, 1);
  }
  return `{${parts.join(',')}}`;
}

// lua-cjson copies a string's raw bytes and writes \u escapes as UTF-8. JSON.parse reads text,
// so bytes 0x80-0xff go in as private-use characters U+F780-U+F7FF and come back out as bytes.
const RAW_BASE = 0xf700;
const rawIn = (bytes: string) => bytes.replace(/[\x80-\xff]/g, (c) => String.fromCharCode(RAW_BASE + c.charCodeAt(0)));
const bytesOut = (s: string) =>
  s.replace(/[\uf780-\uf7ff]|[^\x00-\x7f\uf780-\uf7ff]+/g, (m) => {
    const code = m.charCodeAt(0);
    return code >= 0xf780 && code <= 0xf7ff ? String.fromCharCode(code - RAW_BASE) : Buffer.from(m, 'utf8').toString('latin1');
  });

function push(L: LuaState, v: unknown, depth = 1): void {
  if (depth > MAX_DEPTH || !lua.lua_checkstack(L, 3)) fail(L, `Found too many nested data structures (${depth})`);
  if (v === null) lua.lua_pushlightuserdata(L, NULL);
  else if (typeof v === 'boolean') lua.lua_pushboolean(L, v);
  else if (typeof v === 'number') pushNumber(L, v);
  else if (typeof v === 'string') pushBytes(L, bytesOut(v));
  else if (Array.isArray(v)) {
    lua.lua_createtable(L, v.length, 0);
    v.forEach((item, i) => {
      push(L, item, depth + 1);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else {
    const entries = Object.entries(v as Record<string, unknown>);
    lua.lua_createtable(L, 0, entries.length);
    for (const [k, item] of entries) {
      pushBytes(L, bytesOut(k));
      push(L, item, depth + 1);
      lua.lua_rawset(L, -3);
    }
  }
}

const FUNCTIONS: Record<string, (L: LuaState) => number> = {
  // cjson.encode(value)
  encode: (L) => {
    if (lua.lua_gettop(L) !== 1) fail(L, 'bad argument #1 to \'encode\' (expected 1 argument)');
    pushBytes(L, encode(L, 1, 1));
    return 1;
  },
  // cjson.decode(text)
  decode: (L) => {
    if (lua.lua_gettop(L) !== 1) fail(L, "bad argument #1 to 'decode' (expected 1 argument)");
    const text = toBytes(L, 1);
    if (text === null) {
      const got = Buffer.from(lauxlib.luaL_typename(L, 1)).toString();
      return fail(L, `bad argument #1 to 'decode' (string expected, got ${got})`);
    }
    let value: unknown;
    try {
      value = JSON.parse(rawIn(text));
    } catch (e) {
      // JSON.parse's own words, not lua-cjson's ("Expected value but found ... at character N").
      return fail(L, `cjson.decode: ${(e as Error).message}`);
    }
    push(L, value);
    return 1;
  },
};

export function openCjson(L: LuaState): number {
  lua.lua_createtable(L, 0, 3);
  for (const [name, f] of Object.entries(FUNCTIONS)) {
    lua.lua_pushjsfunction(L, f);
    lua.lua_setfield(L, -2, name);
  }
  lua.lua_pushlightuserdata(L, NULL);
  lua.lua_setfield(L, -2, 'null');
  return 1;
}

// The `cmsgpack` library scripts get in Redis (lua-cmsgpack 0.4): pack(...) and unpack(bytes).
// Encodings as lua-cmsgpack chooses them: the smallest integer form, float32 when it holds the
// value exactly, else float64; strings as str8/16/32 (fixstr below 32 bytes); a table with keys
// 1..n as an array (an empty table too), any other as a map.

import type { JsFunction, LuaState } from 'fengari';
import { pushBytes, toBytes } from './lua-bytes.js';
import fengari from './lua.js';
import { chargeScriptMemory } from './script-memory.js';

const { lua, lauxlib } = fengari;

const MAX_DEPTH = 16;

class Writer {
  private parts: number[] = [];
  private out = '';
  byte(b: number): void {
    this.parts.push(b & 0xff);
    if (this.parts.length >= 4096) this.flush();
  }
  bytes(n: number, size: 1 | 2 | 4 | 8): void {
    const big = BigInt.asUintN(size * 8, BigInt(n));
    for (let i = size - 1; i >= 0; i--) this.byte(Number((big >> BigInt(i * 8)) & 0xffn));
  }
  // What the output grows by is charged to the script's memory bound before it is added.
  raw(s: string): void {
    this.flush();
    chargeScriptMemory(s.length);
    this.out += s;
  }
  private flush(): void {
    chargeScriptMemory(this.parts.length);
    this.out += String.fromCharCode(...this.parts);
    this.parts = [];
  }
  text(): string {
    this.flush();
    return this.out;
  }
}

function packNumber(w: Writer, n: number): void {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) {
    if (n >= 0) {
      if (n < 128) w.byte(n);
      else if (n <= 0xff) (w.byte(0xcc), w.bytes(n, 1));
      else if (n <= 0xffff) (w.byte(0xcd), w.bytes(n, 2));
      else if (n <= 0xffffffff) (w.byte(0xce), w.bytes(n, 4));
      else (w.byte(0xcf), w.bytes(n, 8));
    } else if (n >= -32) w.byte(n);
    else if (n >= -128) (w.byte(0xd0), w.bytes(n, 1));
    else if (n >= -32768) (w.byte(0xd1), w.bytes(n, 2));
    else if (n >= -2147483648) (w.byte(0xd2), w.bytes(n, 4));
    else (w.byte(0xd3), w.bytes(n, 8));
    return;
  }
  const buf = Buffer.alloc(9);
  if (Math.fround(n) === n || Number.isNaN(n)) {
    buf[0] = 0xca;
    buf.writeFloatBE(n, 1);
    w.raw(buf.toString('latin1', 0, 5));
  } else {
    buf[0] = 0xcb;
    buf.writeDoubleBE(n, 1);
    w.raw(buf.toString('latin1'));
  }
}

function pack(L: LuaState, w: Writer, idx: number, depth: number): void {
  switch (lua.lua_type(L, idx)) {
    case lua.LUA_TBOOLEAN:
      w.byte(lua.lua_toboolean(L, idx) ? 0xc3 : 0xc2);
      return;
    case lua.LUA_TNUMBER:
      packNumber(w, lua.lua_tonumber(L, idx));
      return;
    case lua.LUA_TSTRING: {
      const s = toBytes(L, idx)!;
      if (s.length < 32) w.byte(0xa0 | s.length);
      else if (s.length <= 0xff) (w.byte(0xd9), w.bytes(s.length, 1));
      else if (s.length <= 0xffff) (w.byte(0xda), w.bytes(s.length, 2));
      else (w.byte(0xdb), w.bytes(s.length, 4));
      w.raw(s);
      return;
    }
    case lua.LUA_TTABLE:
      if (depth < MAX_DEPTH) {
        packTable(L, w, lua.lua_absindex(L, idx), depth);
        return;
      }
  }
  w.byte(0xc0); // nil, and what cannot be packed
}

function header(w: Writer, n: number, fix: number, b16: number, b32: number): void {
  if (n < 16) w.byte(fix | n);
  else if (n <= 0xffff) (w.byte(b16), w.bytes(n, 2));
  else (w.byte(b32), w.bytes(n, 4));
}

function packTable(L: LuaState, w: Writer, t: number, depth: number): void {
  let count = 0;
  let max = 0;
  let isArray = true;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t) !== 0) {
    lua.lua_pop(L, 1);
    count++;
    const k = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -1) : NaN;
    if (Number.isInteger(k) && k >= 1) max = Math.max(max, k);
    else isArray = false;
  }
  if (isArray && max === count) {
    header(w, count, 0x90, 0xdc, 0xdd);
    for (let i = 1; i <= count; i++) {
      lua.lua_rawgeti(L, t, i);
      pack(L, w, -1, depth + 1);
      lua.lua_pop(L, 1);
    }
    return;
  }
  header(w, count, 0x80, 0xde, 0xdf);
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t) !== 0) {
    pack(L, w, -2, depth + 1);
    pack(L, w, -1, depth + 1);
    lua.lua_pop(L, 1);
  }
}

/** How deep unpack nests tables before it gives up (lua-cmsgpack is bounded by the C stack). */
const MAX_UNPACK_DEPTH = 1000;

/** Reads one object from `b` at `at`, pushing it; returns the next offset, or -1 if `b` ends first. */
function unpackOne(L: LuaState, b: Buffer, at: number, depth = 0): number {
  if (at >= b.length) return -1;
  if (depth > MAX_UNPACK_DEPTH || !lua.lua_checkstack(L, 3)) lauxlib.luaL_error(L, 'MessagePack unpack: too many nested structures.');
  const t = b[at++];
  const need = (n: number) => at + n <= b.length;
  const str = (len: number): number => {
    if (!need(len)) return -1;
    pushBytes(L, b.toString('latin1', at, at + len));
    return at + len;
  };
  const items = (n: number, pairs: boolean): number => {
    lua.lua_createtable(L, pairs ? 0 : n, pairs ? n : 0);
    for (let i = 1; i <= n; i++) {
      if (pairs) {
        if ((at = unpackOne(L, b, at, depth + 1)) < 0) return -1;
        if ((at = unpackOne(L, b, at, depth + 1)) < 0) return -1;
        if (lua.lua_type(L, -2) === lua.LUA_TNIL) lua.lua_pop(L, 2);
        else lua.lua_rawset(L, -3);
      } else {
        if ((at = unpackOne(L, b, at, depth + 1)) < 0) return -1;
        lua.lua_rawseti(L, -2, i);
      }
    }
    return at;
  };
  const int = (size: 1 | 2 | 4 | 8, signed: boolean): number => {
    if (!need(size)) return -1;
    const n =
      size === 8 ? Number(signed ? b.readBigInt64BE(at) : b.readBigUInt64BE(at)) : signed ? b.readIntBE(at, size) : b.readUIntBE(at, size);
    lua.lua_pushnumber(L, n);
    return at + size;
  };
  if (t < 0x80) return (lua.lua_pushnumber(L, t), at);
  if (t >= 0xe0) return (lua.lua_pushnumber(L, t - 0x100), at);
  if ((t & 0xe0) === 0xa0) return str(t & 0x1f);
  if ((t & 0xf0) === 0x90) return items(t & 0x0f, false);
  if ((t & 0xf0) === 0x80) return items(t & 0x0f, true);
  const len = (size: 1 | 2 | 4): number => (need(size) ? b.readUIntBE(at, size) : -1);
  switch (t) {
    case 0xc0: return (lua.lua_pushnil(L), at);
    case 0xc2: return (lua.lua_pushboolean(L, false), at);
    case 0xc3: return (lua.lua_pushboolean(L, true), at);
    case 0xca: return need(4) ? (lua.lua_pushnumber(L, b.readFloatBE(at)), at + 4) : -1;
    case 0xcb: return need(8) ? (lua.lua_pushnumber(L, b.readDoubleBE(at)), at + 8) : -1;
    case 0xcc: return int(1, false);
    case 0xcd: return int(2, false);
    case 0xce: return int(4, false);
    case 0xcf: return int(8, false);
    case 0xd0: return int(1, true);
    case 0xd1: return int(2, true);
    case 0xd2: return int(4, true);
    case 0xd3: return int(8, true);
  }
  for (const [codes, size] of [[[0xd9, 0xc4], 1], [[0xda, 0xc5], 2], [[0xdb, 0xc6], 4]] as const) {
    if (!(codes as readonly number[]).includes(t)) continue;
    const n = len(size);
    if (n < 0) return -1;
    at += size;
    return str(n);
  }
  for (const [code, size, pairs] of [[0xdc, 2, false], [0xdd, 4, false], [0xde, 2, true], [0xdf, 4, true]] as const) {
    if (t !== code) continue;
    const n = len(size);
    if (n < 0) return -1;
    at += size;
    return items(n, pairs);
  }
  lua.lua_pushnil(L); // ext types and reserved codes: nil, as lua-cmsgpack does
  return at;
}

const FUNCTIONS: Record<string, JsFunction> = {
  // cmsgpack.pack(value, ...): the values packed one after the other
  pack: (L) => {
    const n = lua.lua_gettop(L);
    if (n === 0) lauxlib.luaL_error(L, 'MessagePack pack needs input.');
    const w = new Writer();
    for (let i = 1; i <= n; i++) pack(L, w, i, 0);
    pushBytes(L, w.text());
    return 1;
  },
  // cmsgpack.unpack(bytes): every value in bytes
  unpack: (L) => unpackValues(L, 0, 0),
  // cmsgpack.unpack_one(bytes[, offset]): where the next value starts (-1 past the last), then the value at offset
  unpack_one: (L) => {
    const offset = lauxlib.luaL_optinteger(L, 2, 0);
    lua.lua_settop(L, 1);
    return unpackValues(L, 1, offset);
  },
  // cmsgpack.unpack_limit(bytes, limit[, offset]): where the next value starts, then up to limit values from offset
  unpack_limit: (L) => {
    const limit = lauxlib.luaL_checkinteger(L, 2);
    const offset = lauxlib.luaL_optinteger(L, 3, 0);
    lua.lua_settop(L, 1);
    return unpackValues(L, limit, offset);
  },
};

/**
 * lua-cmsgpack's mp_unpack_full: up to `limit` values from `offset`, after the offset where the
 * next one starts (-1 at the end); with neither (both 0), every value and no offset.
 */
function unpackValues(L: LuaState, limit: number, offset: number): number {
  lauxlib.luaL_checklstring(L, 1);
  const b = Buffer.from(toBytes(L, 1)!, 'latin1');
  const all = limit === 0 && offset === 0;
  if (offset < 0 || limit < 0) lauxlib.luaL_error(L, 'Invalid request to unpack with offset of %d and limit of %d.', offset, b.length);
  else if (offset > b.length) lauxlib.luaL_error(L, 'Start offset %d greater than input length %d.', offset, b.length);
  let at = offset;
  let count = 0;
  for (; at < b.length && (all || count < limit); count++) {
    if (!lua.lua_checkstack(L, 1)) lauxlib.luaL_error(L, 'too many values to unpack');
    at = unpackOne(L, b, at);
    if (at < 0) lauxlib.luaL_error(L, 'Missing bytes in input.');
  }
  if (all) return count;
  lua.lua_pushnumber(L, at === b.length ? -1 : at);
  lua.lua_insert(L, 2);
  return count + 1;
}

export function openCmsgpack(L: LuaState): number {
  lua.lua_createtable(L, 0, 7);
  lauxlib.luaL_setfuncs(L, FUNCTIONS, 0);
  for (const [name, text] of Object.entries(ABOUT)) {
    lua.lua_pushstring(L, text);
    lua.lua_setfield(L, -2, name);
  }
  return 1;
}

/** What the library says of itself, as Redis's build of lua-cmsgpack does. */
const ABOUT = {
  _NAME: 'cmsgpack',
  _VERSION: 'lua-cmsgpack 0.4.0',
  _COPYRIGHT: 'Copyright (C) 2012, Salvatore Sanfilippo',
  _DESCRIPTION: 'MessagePack C implementation for Lua',
};

// The `bit` library scripts get in Redis (LuaBitOp 1.0): 32-bit operations on Lua numbers.
// Arguments are reduced modulo 2^32 and results are signed 32-bit numbers, as LuaBitOp gives.

import type { JsFunction, LuaState } from 'fengari';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

/** LuaBitOp's argument normalisation: round to an integer, keep the low 32 bits, signed. */
function tobit(L: LuaState, idx: number): number {
  if (lua.lua_type(L, idx) !== lua.LUA_TNUMBER && lua.lua_type(L, idx) !== lua.LUA_TSTRING) {
    lauxlib.luaL_error(L, 'bad argument #%d (number expected)', idx);
  }
  const n = Math.round(lua.lua_tonumber(L, idx));
  return Number.isFinite(n) ? Number(BigInt.asIntN(32, BigInt(n))) : 0;
}

function result(L: LuaState, n: number): number {
  lua.lua_pushinteger(L, n | 0);
  return 1;
}

function fold(op: (a: number, b: number) => number) {
  return (L: LuaState): number => {
    let acc = tobit(L, 1);
    for (let i = 2; i <= lua.lua_gettop(L); i++) acc = op(acc, tobit(L, i));
    return result(L, acc);
  };
}

function shift(op: (x: number, n: number) => number) {
  return (L: LuaState): number => result(L, op(tobit(L, 1), tobit(L, 2) & 31));
}

const FUNCTIONS: Record<string, JsFunction> = {
  tobit: (L) => result(L, tobit(L, 1)),
  bnot: (L) => result(L, ~tobit(L, 1)),
  band: fold((a, b) => a & b),
  bor: fold((a, b) => a | b),
  bxor: fold((a, b) => a ^ b),
  lshift: shift((x, n) => x << n),
  rshift: shift((x, n) => x >>> n),
  arshift: shift((x, n) => x >> n),
  rol: shift((x, n) => (x << n) | (x >>> (32 - n))),
  ror: shift((x, n) => (x >>> n) | (x << (32 - n))),
  bswap: (L) => {
    const x = tobit(L, 1);
    return result(L, ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24));
  },
  // bit.tohex(x [, n]): n digits (8 by default), upper case when n is negative.
  tohex: (L) => {
    const x = tobit(L, 1);
    let n = lua.lua_gettop(L) >= 2 ? tobit(L, 2) : 8;
    const upper = n < 0;
    n = Math.min(Math.abs(n), 8);
    let hex = (x >>> 0).toString(16).padStart(8, '0').slice(8 - n);
    if (upper) hex = hex.toUpperCase();
    lua.lua_pushstring(L, hex);
    return 1;
  },
};

export function openBit(L: LuaState): number {
  lua.lua_createtable(L, 0, Object.keys(FUNCTIONS).length);
  lauxlib.luaL_setfuncs(L, FUNCTIONS, 0);
  return 1;
}

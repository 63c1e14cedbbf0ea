// The standard library as Redis's Lua 5.1 has it, where fengari's 5.3 differs: `unpack`,
// math.pow and table.getn, which 5.3 dropped; string.format's conversions (lua-format.ts);
// string.rep without 5.3's separator argument (string.rep('x', 3, '-') is "xxx"), and bounded;
// and the arguments 5.1 checks that 5.3 takes otherwise ("bad argument #1 to 'pairs' (table
// expected, got no value)" where 5.3 says "value expected", or fails later with no name). A
// function adapted here checks its arguments itself, called straight from the script, so an
// error names it and the script's line, then calls 5.3's. Run on the real library tables,
// before they are sealed (sandbox.ts).

import type { LuaState } from 'fengari';
import { stringFormat } from './lua-format.js';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

type Check = (L: LuaState) => void;

const table = (arg: number): Check => (L) => lauxlib.luaL_checktype(L, arg, lua.LUA_TTABLE);
const number = (arg: number): Check => (L) => void lauxlib.luaL_checknumber(L, arg);

/** 5.1's argument checks, by library (null: the globals) and function. */
const CHECKED: readonly (readonly [string | null, string, Check])[] = [
  [null, 'pairs', table(1)],
  [null, 'ipairs', table(1)],
  ['table', 'unpack', table(1)],
  ['math', 'max', number(1)],
  ['math', 'min', number(1)],
  ['string', 'char', checkBytes],
];

export function adaptLibraries(L: LuaState, g: number): void {
  for (const [lib, name, check] of CHECKED) {
    withLibrary(L, g, lib, () => {
      lua.lua_getfield(L, -1, name);
      lua.lua_pushjsclosure(L, (L) => {
        check(L);
        return callWrapped(L);
      }, 1);
      lua.lua_setfield(L, -2, name);
    });
  }
  withLibrary(L, g, 'table', () => {
    lua.lua_getfield(L, -1, 'unpack');
    lua.lua_setfield(L, g, 'unpack');
    lua.lua_pushjsfunction(L, (L) => {
      lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
      lua.lua_pushnumber(L, lua.lua_rawlen(L, 1));
      return 1;
    });
    lua.lua_setfield(L, -2, 'getn');
  });
  withLibrary(L, g, 'math', () => {
    lua.lua_pushjsfunction(L, (L) => {
      // The exponent is checked first, as Redis's build of 5.1 evaluates pow's arguments.
      const y = lauxlib.luaL_checknumber(L, 2);
      lua.lua_pushnumber(L, Math.pow(lauxlib.luaL_checknumber(L, 1), y));
      return 1;
    });
    lua.lua_setfield(L, -2, 'pow');
  });
  withLibrary(L, g, 'string', () => {
    lua.lua_getfield(L, -1, 'rep');
    lua.lua_pushjsclosure(L, boundRep, 1);
    lua.lua_setfield(L, -2, 'rep');
    lua.lua_pushjsfunction(L, stringFormat);
    lua.lua_setfield(L, -2, 'format');
  });
}

/** Runs `f` with the library `lib` (the globals when null) on top of the stack. */
function withLibrary(L: LuaState, g: number, lib: string | null, f: () => void): void {
  if (lib === null) lua.lua_pushvalue(L, g);
  else lua.lua_getfield(L, g, lib);
  f();
  lua.lua_pop(L, 1);
}

/** Calls the wrapped function (upvalue 1) with the arguments, answering what it answers. */
function callWrapped(L: LuaState): number {
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, lua.lua_gettop(L) - 1, lua.LUA_MULTRET);
  return lua.lua_gettop(L);
}

/** string.char's arguments: 5.1 refuses a code outside 0-255 as an "invalid value". */
function checkBytes(L: LuaState): void {
  for (let i = 1; i <= lua.lua_gettop(L); i++) {
    const c = lauxlib.luaL_checkinteger(L, i);
    if (c < 0 || c > 255) lauxlib.luaL_argerror(L, i, 'invalid value');
  }
}

/**
 * string.rep(s, n) as 5.1's, which has no separator. An empty string repeats at once into an
 * empty one: fengari would first loop n times (2^31 of them take minutes, with no hook to stop
 * them). Any other result's size is checked by the memory bound before it is made, which
 * bounds its time too.
 */
function boundRep(L: LuaState): number {
  lauxlib.luaL_checklstring(L, 1);
  lauxlib.luaL_checkinteger(L, 2);
  lua.lua_settop(L, 2);
  if (lua.lua_rawlen(L, 1) === 0) {
    lua.lua_pushstring(L, '');
    return 1;
  }
  return callWrapped(L);
}

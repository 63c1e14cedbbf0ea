// The standard library as Redis's Lua 5.1 has it, where fengari's 5.3 differs: without what
// 5.3 added (string.pack, table.unpack, math.type, ...; _VERSION is "Lua 5.1"), with what 5.3
// dropped (`unpack`, gcinfo, table.getn, foreach, foreachi, maxn and setn, string.gfind, and
// math's: lua51-math.ts, with Redis's math.random); collectgarbage, which fengari lacks;
// string.format's conversions (lua-format.ts);
// string.rep without 5.3's separator argument (string.rep('x', 3, '-') is "xxx"), and bounded;
// and the arguments 5.1 checks that 5.3 takes otherwise ("bad argument #1 to 'pairs' (table
// expected, got no value)" where 5.3 says "value expected", or fails later with no name). A
// function adapted here checks its arguments itself, called straight from the script, so an
// error names it and the script's line, then calls 5.3's. Run on the real library tables,
// before they are sealed (sandbox.ts).

import type { JsFunction, LuaState } from 'fengari';
import { onlySpacesFrom, strtoul } from '../../../text/strtod.js';
import { toBytes } from './lua-bytes.js';
import { stringFormat } from './lua-format.js';
import fengari from './lua.js';
import { mathFunctions } from './lua51-math.js';
import { refuseView } from './sandbox.js';
import { scriptMemoryUsed } from './script-memory.js';

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

/**
 * What 5.3 added and Redis's 5.1 has not, by library (null: the globals): a script that used
 * them on Larder would fail on Redis. table.move would also walk any range of indices in one
 * JS loop no hook can stop (table.move({}, 1, 2^31 - 1, 1) takes minutes).
 */
const ADDED_IN_53: readonly (readonly [string | null, readonly string[]])[] = [
  [null, ['rawlen']],
  ['string', ['pack', 'unpack', 'packsize']],
  ['table', ['pack', 'unpack', 'move']],
  ['math', ['type', 'tointeger', 'ult', 'maxinteger', 'mininteger']],
  ['coroutine', ['isyieldable']],
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
    lauxlib.luaL_setfuncs(L, {
      getn: (L) => {
        lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
        lua.lua_pushnumber(L, lua.lua_rawlen(L, 1));
        return 1;
      },
      foreach: forEach,
      foreachi: forEachIndex,
      maxn: maxIndex,
      setn: (L) => lauxlib.luaL_error(L, "'setn' is obsolete"),
      insert,
      remove,
    }, 0);
  });
  withLibrary(L, g, 'math', () => lauxlib.luaL_setfuncs(L, mathFunctions(), 0));
  withLibrary(L, g, null, () => {
    lauxlib.luaL_setfuncs(L, { ...collectorFunctions(), tonumber: toNumber }, 0);
    lua.lua_pushstring(L, 'Lua 5.1');
    lua.lua_setfield(L, -2, '_VERSION');
  });
  withLibrary(L, g, 'coroutine', () =>
    lauxlib.luaL_setfuncs(L, {
      // The main thread is no coroutine: nil, where 5.3 answers it and true.
      running: (L) => {
        if (lua.lua_pushthread(L)) lua.lua_pushnil(L);
        return 1;
      },
    }, 0),
  );
  withLibrary(L, g, 'string', () => {
    lua.lua_getfield(L, -1, 'gmatch');
    lua.lua_setfield(L, -2, 'gfind');
    lua.lua_getfield(L, -1, 'rep');
    lua.lua_pushjsclosure(L, boundRep, 1);
    lua.lua_setfield(L, -2, 'rep');
    lua.lua_pushjsfunction(L, stringFormat);
    lua.lua_setfield(L, -2, 'format');
  });
  for (const [lib, names] of ADDED_IN_53) {
    withLibrary(L, g, lib, () => {
      for (const name of names) {
        lua.lua_pushnil(L);
        lua.lua_setfield(L, -2, name);
      }
    });
  }
}

/**
 * collectgarbage and gcinfo as 5.1's (fengari's raised "lua_gc not implemented"). JavaScript's
 * collector runs as it will, so 'collect', 'step', 'stop' and 'restart' do nothing and say so as
 * 5.1 does; the pause and step multiplier are kept and answered; the count is the kilobytes the
 * run has taken (script-memory.ts).
 */
function collectorFunctions(): Record<string, JsFunction> {
  const settings: Record<string, number> = { setpause: 200, setstepmul: 200 };
  const kilobytes = () => scriptMemoryUsed() / 1024;
  return {
    collectgarbage: (L) => {
      const option = lua.lua_isnoneornil(L, 1) ? 'collect' : Buffer.from(lauxlib.luaL_checklstring(L, 1)).toString('latin1');
      const value = lauxlib.luaL_optinteger(L, 2, 0);
      if (option === 'count') lua.lua_pushnumber(L, kilobytes());
      else if (option === 'step') lua.lua_pushboolean(L, false);
      else if (option in settings) {
        lua.lua_pushnumber(L, settings[option]);
        settings[option] = value;
      } else if (['collect', 'stop', 'restart'].includes(option)) lua.lua_pushnumber(L, 0);
      else lauxlib.luaL_argerror(L, 1, `invalid option '${option}'`);
      return 1;
    },
    gcinfo: (L) => {
      lua.lua_pushnumber(L, Math.floor(kilobytes()));
      return 1;
    },
  };
}

/**
 * tonumber(v[, base]) as 5.1's: in base 10 any number a string reads as (strtod's: "1e1",
 * "inf"), in another the digits of C's strtoul, whole (a '-' wraps: "-1" in base 16 is 2^64 - 1).
 */
function toNumber(L: LuaState): number {
  const base = lauxlib.luaL_optinteger(L, 2, 10);
  if (base === 10) {
    if (lua.lua_type(L, 1) === lua.LUA_TNONE) lauxlib.luaL_argerror(L, 1, 'value expected');
    if (lua.lua_isnumber(L, 1)) {
      lua.lua_pushnumber(L, lua.lua_tonumber(L, 1));
      return 1;
    }
  } else {
    lauxlib.luaL_checklstring(L, 1);
    if (base < 2 || base > 36) lauxlib.luaL_argerror(L, 2, 'base out of range');
    const text = toBytes(L, 1)!.split('\0')[0];
    const read = strtoul(text, base);
    if (read.end > 0 && onlySpacesFrom(text, read.end)) {
      lua.lua_pushnumber(L, Number(read.value));
      return 1;
    }
  }
  lua.lua_pushnil(L);
  return 1;
}

/** Shifts past this many elements are refused: C shifts any number, a JS loop cannot be stopped by the time limit. */
const MAX_SHIFT = 1 << 24;

/**
 * table.insert(t, [pos,] v) as 5.1's: any position, the table growing to it (5.3 refuses one
 * past the end); elements from pos on move up one. Sets raw, so it refuses a view itself.
 */
function insert(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  let end = lua.lua_rawlen(L, 1) + 1;
  let pos = end;
  if (lua.lua_gettop(L) === 3) {
    pos = lauxlib.luaL_checkinteger(L, 2);
    end = Math.max(end, pos);
    if (end - pos > MAX_SHIFT) lauxlib.luaL_argerror(L, 2, 'position out of bounds');
  } else if (lua.lua_gettop(L) !== 2) lauxlib.luaL_error(L, "wrong number of arguments to 'insert'");
  refuseView(L, 1);
  for (let i = end; i > pos; i--) {
    lua.lua_rawgeti(L, 1, i - 1);
    lua.lua_rawseti(L, 1, i);
  }
  lua.lua_rawseti(L, 1, pos);
  return 0;
}

/** table.remove(t[, pos]) as 5.1's: nothing for a position outside 1..#t (5.3 refuses it), else t[pos], the rest moving down. Sets raw. */
function remove(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const end = lua.lua_rawlen(L, 1);
  let pos = lauxlib.luaL_optinteger(L, 2, end);
  if (pos < 1 || pos > end) return 0; // so nothing leaves a view, which is empty (sandbox.ts)
  lua.lua_rawgeti(L, 1, pos);
  for (; pos < end; pos++) {
    lua.lua_rawgeti(L, 1, pos + 1);
    lua.lua_rawseti(L, 1, pos);
  }
  lua.lua_pushnil(L);
  lua.lua_rawseti(L, 1, end);
  return 1;
}

/** table.foreach(t, f): f(key, value) for each pair until one answers other than nil, which is returned. */
function forEach(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
  lua.lua_pushnil(L);
  while (lua.lua_next(L, 1) !== 0) {
    lua.lua_pushvalue(L, 2);
    lua.lua_pushvalue(L, -3);
    lua.lua_pushvalue(L, -3);
    lua.lua_call(L, 2, 1);
    if (!lua.lua_isnoneornil(L, -1)) return 1;
    lua.lua_pop(L, 2);
  }
  return 0;
}

/** table.foreachi(t, f): f(i, t[i]) for i from 1 to #t, until one answers other than nil. */
function forEachIndex(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
  const n = lua.lua_rawlen(L, 1);
  for (let i = 1; i <= n; i++) {
    lua.lua_pushvalue(L, 2);
    lua.lua_pushnumber(L, i);
    lua.lua_rawgeti(L, 1, i);
    lua.lua_call(L, 2, 1);
    if (!lua.lua_isnoneornil(L, -1)) return 1;
    lua.lua_pop(L, 1);
  }
  return 0;
}

/** table.maxn(t): the largest positive number among its keys, or 0. */
function maxIndex(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  let max = 0;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, 1) !== 0) {
    lua.lua_pop(L, 1);
    if (lua.lua_type(L, -1) === lua.LUA_TNUMBER) max = Math.max(max, lua.lua_tonumber(L, -1));
  }
  lua.lua_pushnumber(L, max);
  return 1;
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
